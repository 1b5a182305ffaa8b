// journeys.b (spec 1 workflow B, 2.5, 3.2, 4.2, 4.4): an integrator uploads a feed in which one SKU lacks its
// HS code, waits for normalization (READY), reads the SKUs and issues, runs the classify preview, reviews it
// (pinning the snapshot), applies, and screens the catalog the apply wrote. Every response is contract-checked
// by the client; the journey adds what each step must answer and the invariants across them
// (trade.invariants.ts): the SKUs are the file's, the issue counts are the issues, and every applied row is
// screened with its applied HS code.
import { defineCheck, type CheckContext } from '../harness/check.js';
import { enqueue, receiptJobId } from '../checks/jobs-support.js';
import { allResults, isProblem } from '../checks/sima/support.js';
import { codeOf, feedCsv, feedForm, feedRows, readPages, send, sessionPath, settleFeed, UPLOAD_PATH } from '../checks/trade/support.js';
import { judgeFeedSession } from '../models/feed-session.model.js';
import { Steps } from './steps.js';
import { journeyTenant, settleJob } from './support.js';
import { appliedRowsScreened, issueCountsMatchList, skusMatchFile } from './trade.invariants.js';

/** The HS code the reviewer gives the SKU the file left without one (spec 4.4: the AI-assisted path). */
const REVIEWED_HS = '9401.61.10';

export const journeyB = defineCheck({
  id: 'journeys.b',
  title: 'Workflow B: feed upload, normalization, SKUs and issues, classify preview, review, apply; the applied rows are screened with their HS codes',
  area: 'journeys',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const steps = new Steps(ctx, 'B');
    const { client } = await journeyTenant(ctx, 'Conformance journey B');
    const rows = feedRows('clean');

    steps.next('feed upload');
    const csv = feedCsv(rows);
    const uploaded = await send(ctx, client, 'POST', UPLOAD_PATH, { form: () => feedForm(csv) });
    const receipt = (uploaded.response.body ?? {}) as { sessionId?: unknown; jobId?: unknown };
    if (!steps.expect(uploaded.response.status === 202 && typeof receipt.sessionId === 'string' && typeof receipt.jobId === 'string', 'feed-upload-accepted', `POST ${UPLOAD_PATH} answered ${uploaded.response.status}, not 202 with sessionId and jobId (spec 4.4)`, uploaded)) return;
    const session = { sessionId: receipt.sessionId as string, jobId: receipt.jobId as string };
    const path = sessionPath(session.sessionId);

    steps.next('normalization');
    const settled = await settleFeed(ctx, client, session);
    for (const problem of judgeFeedSession(`session ${session.sessionId}`, 'UPLOADED', settled.session)) steps.fail(problem.rule, problem.message, settled.reads.at(-1));
    if (settled.status === undefined || settled.status === 'UPLOADED' || settled.status === 'NORMALIZING') {
      if (ctx.admin) return steps.fail('feed-normalization-ends', `session ${session.sessionId} is still ${settled.status ?? 'unread'} after its normalization job was moved along (spec 3.2)`, settled.reads.at(-1));
      steps.skip(`session ${session.sessionId} did not leave ${settled.status ?? 'unread'} while the journey polled`);
    }
    if (settled.status !== 'READY') steps.skip(`a feed of well-formed rows (one without an HS code) ended ${settled.status}, not READY: classify-preview is not available (spec 3.2)`);

    steps.next('SKUs and issues');
    const skus = await readPages(client, `${path}/skus`, 'skus');
    steps.hold(skusMatchFile(rows, skus.items), skus.pages[0]);
    const issues = await readPages(client, `${path}/issues`, 'issues');
    steps.hold(issueCountsMatchList(settled.session, issues.items), issues.pages[0]);

    steps.next('classify preview');
    const started = await send(ctx, client, 'POST', `${path}/classify-preview`, { json: {} });
    const previewJob = receiptJobId(started);
    if (!steps.expect(previewJob !== undefined, 'feed-preview-accepted', `classify-preview of a READY session answered ${started.response.status}, not 202 with a jobId (spec 4.4)`, started)) return;
    const previewJobId = (started.response.body as { previewJobId?: unknown }).previewJobId;
    const preview = await settleJob(ctx, client, previewJob!);
    if (preview.status !== 'COMPLETED') {
      if (ctx.admin && !preview.settled) return steps.fail('job-reaches-terminal', `the classify preview job ${previewJob} is still ${preview.status ?? 'unread'} (spec 3.1)`, preview.exchange);
      steps.skip(`the classify preview ${previewJob} ended ${preview.status ?? 'unread'}: nothing to review`);
    }

    steps.next('review');
    // Each SKU as an apply row (spec 4.4): the file's HS code where it gave one, the reviewer's otherwise; and
    // the reviewer's for the first SKU the file gave one for, so that one applied row differs from what the
    // file provided: apply writes the row's hsCode (spec 4.4), which the screening below reads back.
    const overridden = rows.find((r) => r.hsCode)?.sku;
    const applyRows = rows.map((r) => ({ sku: r.sku, name: r.productName, hsCode: r.sku === overridden ? REVIEWED_HS : r.hsCode || REVIEWED_HS }));
    const reviewed = await send(ctx, client, 'PUT', `/api/trade/classify/preview/${typeof previewJobId === 'string' ? previewJobId : previewJob}/review`, { json: { rows: applyRows } });
    if (!steps.expect(reviewed.response.status === 200, 'feed-review', `the review of a completed preview answered ${reviewed.response.status}, not 200 (spec 4.4)`, reviewed)) return;

    steps.next('apply');
    const applyBody = { rows: applyRows, originCountry: 'CN', screeningAuthority: 'CA' };
    const applied = await send(ctx, client, 'POST', `${path}/apply`, { json: applyBody });
    const appliedStatus = (applied.response.body as { status?: unknown } | null)?.status;
    if (!steps.expect(applied.response.status === 200 && appliedStatus === 'APPLIED', 'feed-apply', `apply with the current reviewed snapshot answered ${applied.response.status} with status ${JSON.stringify(appliedStatus)}, not 200 APPLIED (spec 4.4)`, applied)) return;

    steps.next('session after apply');
    const detail = await send(ctx, client, 'GET', path);
    const detailStatus = (detail.response.body as { status?: unknown } | null)?.status;
    steps.expect(detail.response.status === 200 && detailStatus === 'APPLIED', 'feed-applied-terminal', `the applied session reads ${detail.response.status} with status ${JSON.stringify(detailStatus)}, not APPLIED (spec 3.2: terminal)`, detail);
    // What the detail derives from its state holds after apply too (an APPLIED session is not applyable).
    if (detailStatus === 'APPLIED') for (const problem of judgeFeedSession(`session ${session.sessionId}`, 'APPLIED', detail.response.body as Record<string, unknown>)) steps.fail(problem.rule, problem.message, detail);
    const again = await send(ctx, client, 'POST', `${path}/apply`, { json: applyBody });
    steps.expect(again.response.status === 409 && codeOf(again) === 'ACTION_NOT_ALLOWED', 'feed-apply-once', `a second apply of the APPLIED session answered ${again.response.status}, not 409 ACTION_NOT_ALLOWED (spec 3.2, 7)`, again);

    steps.next('whole-catalog screening');
    const enqueued = await enqueue(client, { skus: null, screeningAuthority: 'CA' });
    const jobId = receiptJobId(enqueued);
    if (!steps.expect(jobId !== undefined, 'enqueue-accepted', `POST /api/sima/batch { skus: null } answered ${enqueued.response.status}, not 202 with a jobId (spec 4.2)`, enqueued)) return;
    const screening = await settleJob(ctx, client, jobId!);
    if (screening.status !== 'COMPLETED') {
      if (ctx.admin && !screening.settled) return steps.fail('job-reaches-terminal', `the screening job ${jobId} is still ${screening.status ?? 'unread'} (spec 3.1)`, screening.exchange);
      steps.skip(`the screening of the catalog ended ${screening.status ?? 'unread'}: nothing to compare`);
    }

    steps.next('catalog screening results');
    const results = await allResults(client, {}, ctx.admin);
    if (isProblem(results)) return steps.fail(results.rule, results.message, results.exchange);
    steps.hold(appliedRowsScreened(applyRows, results.items as Array<Record<string, unknown>>), results.pages[0]);
  },
});
