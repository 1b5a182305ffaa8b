// Workflow B, trade feed (spec 3.2, 4.4): upload a catalog feed, wait for normalization, then either take
// the direct-apply shortcut (every SKU already carries its HS code) or classify-preview, review and apply;
// finally wait for the SIMA screening the apply starts.
//
//   SANDBOX_URL=http://127.0.0.1:4010 SANDBOX_API_KEY=... npm run example:feed
//   FEED_FILE=fixtures/trade/feed-direct-apply.csv npm run example:feed   # the direct-apply shortcut
import { ok, type Schemas } from './lib/client.js';
import { multipart, readSample, runExample, waitForJob } from './lib/example.js';
import { pollUntil } from './lib/poll.js';

type Session = Schemas['FeedSession'];
type Sku = Schemas['FeedSku'];

/** spec 3.2: the states a poller stops at. */
const SETTLED_FOR_POLLING: ReadonlyArray<Session['status']> = ['READY', 'PREVIEW_BLOCKED', 'FAILED', 'APPLIED'];

await runExample('example:feed', async (ctx) => {
  const { api, webhooks, log, step } = ctx;
  const file = await readSample(process.env.FEED_FILE ?? 'fixtures/trade/feed-clean.csv');

  step(`Upload the feed ${file.name} (origin CN, default destination CA), subscribed to its normalization job`);
  const upload = ok(
    await api.POST('/api/trade/feeds/upload', multipart<Schemas['FeedUploadRequest']>(file, { originCountry: 'CN', defaultDestinationCountry: 'CA', ...webhooks.subscription() })),
    'upload the feed',
  );
  const { sessionId } = upload;
  log(`  accepted: session ${sessionId}, normalization job ${upload.jobId}`);

  step('Wait for normalization (the session settles at READY, PREVIEW_BLOCKED or FAILED)');
  const readSession = async () => ok(await api.GET('/api/trade/feeds/{sessionId}', { params: { path: { sessionId } } }), 'read the session');
  let session = await pollUntil<Session>({
    what: `session ${sessionId}`,
    read: readSession,
    settled: (s) => SETTLED_FOR_POLLING.includes(s.status),
    describe: (s) => `${s.status} (normalized ${s.normalizationProgress ?? 0}%, ${s.issueCount} issues, ${s.blockingIssueCount} blocking)`,
    wake: webhooks.delivery(upload.jobId),
    log,
  });
  await webhooks.waitFor(upload.jobId, 60_000);

  if (session.issueCount > 0) {
    const issues = ok(await api.GET('/api/trade/feeds/{sessionId}/issues', { params: { path: { sessionId }, query: { limit: 500 } } }), 'read issues');
    for (const issue of issues.issues) log(`  issue ${issue.issueKey}: ${issue.isBlocking ? 'BLOCKING' : 'non-blocking'} ${issue.issueType}: ${issue.message}`);
  }
  if (session.status === 'FAILED') throw new Error(`normalization failed: ${session.failureReason}`);
  if (!session.applyable) {
    // Blocking issues need a fixed file; non-blocking ones are acknowledged in the dashboard (spec 3.2).
    throw new Error(`session ${session.status} and not applyable: ${session.blockingIssueCount} blocking issue(s); fix the file, or acknowledge the non-blocking ones in the dashboard`);
  }

  step('Read the normalized SKUs');
  const skus: Sku[] = [];
  for (let offset = 0; ; ) {
    const page = ok(await api.GET('/api/trade/feeds/{sessionId}/skus', { params: { path: { sessionId }, query: { limit: 500, offset } } }), 'read SKUs');
    skus.push(...page.skus);
    offset += page.skus.length;
    if (!page.hasMore || page.skus.length === 0) break;
  }
  for (const s of skus) log(`  ${s.sku}: ${s.productName} HS ${s.providedHs ?? '(none: needs classification)'}`);

  let rows: Array<Schemas['FeedApplyRow']>;
  if (session.status === 'PREVIEW_BLOCKED') {
    // spec 3.2, 4.4: PREVIEW_BLOCKED, applyable, no issues: every SKU has providedHs; apply directly.
    step('Direct-apply shortcut: map providedHs to hsCode and productName to name');
    rows = skus.map((s) => ({ sku: s.sku, name: s.productName, hsCode: s.providedHs! }));
  } else {
    step('Classify-preview the SKUs without an HS code');
    const preview = ok(await api.POST('/api/trade/feeds/{sessionId}/classify-preview', { params: { path: { sessionId } }, body: webhooks.subscription() }), 'start the classify preview');
    await waitForJob(ctx, preview.jobId, { subscribed: true });

    step('Review: accept each proposal (or keep the HS code the feed gave)');
    const proposed = ok(await api.GET('/api/trade/feeds/{sessionId}/skus', { params: { path: { sessionId }, query: { limit: 500 } } }), 'read proposals').skus;
    const reviewRows = proposed.map((s) => {
      const hsCode = s.providedHs ?? s.proposal?.hsCode ?? null;
      if (!s.providedHs) log(`  ${s.sku}: proposed ${s.proposal?.hsCode ?? 'nothing'} (confidence ${s.proposal?.confidence ?? 0})`);
      // A SKU the classifier could not place is left out: it needs a human to classify it.
      return hsCode ? { sku: s.sku, name: s.productName, hsCode, accepted: true } : null;
    });
    const accepted = reviewRows.filter((r) => r !== null);
    const reviewed = ok(
      await api.PUT('/api/trade/classify/preview/{jobId}/review', { params: { path: { jobId: preview.previewJobId } }, body: { rows: accepted, toggles: { acceptHighConfidence: true } } }),
      'persist the review',
    );
    log(`  review ${reviewed.snapshotId} persisted (${reviewed.rowCount} rows): apply is checked against it for staleness`);
    rows = accepted.map(({ accepted: _accepted, ...row }) => row);
  }

  step(`Apply ${rows.length} rows to the tenant catalog (screened under CA)`);
  session = ok(await api.POST('/api/trade/feeds/{sessionId}/apply', { params: { path: { sessionId } }, body: { rows, originCountry: 'CN', screeningAuthority: 'CA' } }), 'apply');
  log(`  session ${session.sessionId} ${session.status} at ${session.appliedAt}`);

  if (session.screeningJobId) {
    step('Wait for the SIMA screening of the applied SKUs');
    const screening = await waitForJob(ctx, session.screeningJobId, { subscribed: false });
    const o = screening.outcomes;
    log(`  screening ${screening.status}: atRisk=${o.atRisk} needsReview=${o.needsReview} cleared=${o.cleared}`);
  }
});
