// Spec 4.4: trade feed sessions (workflow B).
import { defineRules } from './rule.js';

export const section44Rules = defineRules([
  { id: '4.4.upload.accepted', section: '4.4', kind: 'shape', sentence: 'POST /api/trade/feeds/upload (file, originCountry, defaultDestinationCountry) answers 202 { sessionId, jobId, status, fileName, replayed? }.', checks: ['operations.uploadTradeFeed.accepts-valid-input', 'trade.feed-lifecycle-model', 'journeys.b'] },
  { id: '4.4.upload.defaults-required', section: '4.4', kind: 'error', sentence: 'originCountry (ISO 3166-1 alpha-2) and defaultDestinationCountry are required; a missing file, unsupported defaults or a bad shape are 400.', checks: ['trade.upload-validation', 'operations.uploadTradeFeed.rejects-invalid-input'] },
  { id: '4.4.upload.row-overrides', section: '4.4', kind: 'state', sentence: 'originCountry and defaultDestinationCountry are feed-level defaults for rows that omit their own; rows may override by column.', checks: ['trade.row-overrides-defaults'] },
  { id: '4.4.upload.idempotency-conflict', section: '4.4', kind: 'error', sentence: 'The feed upload answers 409 for the same key with a different payload.', checks: ['idempotency.conflict'] },
  { id: '4.4.upload.too-large-or-type', section: '4.4', kind: 'error', sentence: 'The feed upload answers 413 above the size cap and 415 for a type other than CSV or Excel.', checks: ['uploads.file-too-large', 'uploads.unsupported-type'], note: 'uploads.file-too-large picks one upload operation per run with the seed' },

  { id: '4.4.session.get', section: '4.4', kind: 'shape', sentence: 'GET /api/trade/feeds/:sessionId answers 200 session detail (2.5).', checks: ['operations.getTradeFeedSession.accepts-valid-input', 'trade.feed-lifecycle-model'] },
  { id: '4.4.session.not-tenants-404', section: '4.4', kind: 'security', sentence: "A session, its SKUs and issues are 404 when the session is not the tenant's.", checks: ['trade.session-isolated'] },
  { id: '4.4.skus.page', section: '4.4', kind: 'state', sentence: 'GET .../skus pages the SKUs with limit 1..500 (default 50) and offset >= 0.', checks: ['operations.listTradeFeedSkus.rejects-invalid-input', 'journeys.b'] },
  { id: '4.4.issues.page', section: '4.4', kind: 'state', sentence: 'GET .../issues pages the issues, blocking and non-blocking, with the same pagination.', checks: ['trade.feed-issues', 'operations.listTradeFeedIssues.rejects-invalid-input'] },

  { id: '4.4.preview.accepted', section: '4.4', kind: 'shape', sentence: 'POST .../classify-preview (no body) answers 202 with jobId (poll via /api/jobs/:id) and previewJobId.', checks: ['journeys.b', 'trade.stale-snapshot'] },
  { id: '4.4.preview.not-ready-409', section: '4.4', kind: 'error', sentence: 'classify-preview answers 409 when the session is not READY.', checks: ['trade.feed-lifecycle-model', 'trade.feed-issues'] },
  { id: '4.4.preview.apply-in-flight-409', section: '4.4', kind: 'error', sentence: 'classify-preview answers 409 while an apply is in flight.', unheld: { reason: 'an apply answers synchronously (200 session detail): a client cannot hold one in flight to observe the window, and the spec gives no state for it' } },
  { id: '4.4.preview.inflight-limit-429', section: '4.4', kind: 'error', sentence: 'classify-preview answers 429 when the per-tenant in-flight preview-job limit is reached.', checks: ['limits.preview-inflight-limit'], note: 'simulator profile: the limit is set to 1 through the control API (the value is not shown)' },

  { id: '4.4.review.persisted', section: '4.4', kind: 'state', sentence: 'PUT /api/trade/classify/preview/:jobId/review answers 200 with the reviewed snapshot persisted; the review pins the snapshot used for staleness on apply.', checks: ['trade.stale-snapshot', 'journeys.b'] },
  { id: '4.4.review.not-reviewable-409', section: '4.4', kind: 'error', sentence: 'review answers 409 when the preview job is not in a reviewable state.', checks: ['trade.review-needs-ended-preview'], note: 'simulator profile: a preview job read PENDING or PROCESSING before and after the review; the same review is 200 once the job completed' },
  { id: '4.4.review.unknown-404', section: '4.4', kind: 'error', sentence: 'review answers 404 for a preview job that is not the tenant\'s.', checks: ['operations.reviewTradeFeedClassifyPreview.accepts-valid-input'], note: 'a generated job id must be answered with a documented status (404), never 2xx nor 5xx' },

  { id: '4.4.apply.applied', section: '4.4', kind: 'state', sentence: 'POST .../apply { rows, originCountry, screeningAuthority } answers 200 session detail with status APPLIED.', checks: ['trade.feed-lifecycle-model', 'journeys.b'] },
  { id: '4.4.apply.not-ready-409', section: '4.4', kind: 'error', sentence: 'apply answers 409 when the session is not READY (outside the direct-apply shortcut).', checks: ['trade.feed-lifecycle-model', 'trade.feed-issues'] },
  { id: '4.4.apply.stale-409', section: '4.4', kind: 'error', sentence: 'apply answers 409 when the reviewed snapshot is stale relative to the current normalized artifact.', checks: ['trade.stale-snapshot'] },
  { id: '4.4.apply.rows-written', section: '4.4', kind: 'state', sentence: 'Apply writes its rows to the tenant catalog with their hsCode (the direct-apply rows map providedHs to hsCode, productName to name).', checks: ['journeys.b'] },
]);
