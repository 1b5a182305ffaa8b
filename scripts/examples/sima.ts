// Workflow A, SIMA screening (spec 1, 4.2): enqueue a screening batch, wait for the job (webhook or
// polling), then read what was screened: the summary, the AT_RISK results page by page with the cursor,
// and the evidence behind one result.
//
//   SANDBOX_URL=http://127.0.0.1:4010 SANDBOX_API_KEY=... npm run example:sima
import { ok } from './lib/client.js';
import { runExample, waitForJob } from './lib/example.js';

await runExample('example:sima', async (ctx) => {
  const { api, webhooks, log, step } = ctx;
  step('Enqueue a SIMA screening batch of every catalog SKU, subscribed to its completion webhook');
  // `skus: null` screens the whole tenant catalog (spec 4.2). The client adds an Idempotency-Key (spec 8.5),
  // so a retry after a 5xx returns the same job instead of a second one.
  const receipt = ok(
    await api.POST('/api/sima/batch', { body: { skus: null, runPolicy: 'always', screeningAuthority: 'CA', ...webhooks.subscription() } }),
    'enqueue the SIMA batch',
  );
  log(`  accepted: job ${receipt.jobId} ${receipt.status}${receipt.replayed ? ' (replayed)' : ''}`);

  step('Wait for the job');
  const job = await waitForJob(ctx, receipt.jobId, { subscribed: true });
  const o = job.outcomes;
  log(`  job ${job.id} ${job.status}: ${job.reconciliation.skusScreened} SKUs screened, outcomes atRisk=${o.atRisk} needsReview=${o.needsReview} cleared=${o.cleared}`);

  step('Read the summary');
  const summary = ok(await api.GET('/api/sima/summary'), 'read the summary');
  log(`  summary: totalSkus=${summary.totalSkus} atRisk=${summary.atRisk} needsReview=${summary.needsReview} totalExposure=${summary.totalExposure}`);

  step('Walk the AT_RISK results with the cursor (2 per page to show it)');
  const atRisk: string[] = [];
  let cursor: string | undefined;
  let exposure = 0;
  do {
    const page = ok(await api.GET('/api/sima/results', { params: { query: { outcome: 'AT_RISK', limit: 2, ...(cursor ? { cursor } : {}) } } }), 'read results');
    for (const r of page.outcomes) {
      atRisk.push(r.sku);
      exposure += r.exposureAnnual ?? 0;
      log(`  ${r.sku}: ${r.outcome} measure ${r.measureCode ?? '-'} HS ${r.currentHs} origin ${r.countryOfOrigin ?? '-'} combined rate ${r.combinedRate ?? '-'} exposure ${r.exposureAnnual ?? '-'}`);
    }
    cursor = page.hasMore && page.cursor ? page.cursor : undefined;
  } while (cursor);
  log(`  AT_RISK results: ${atRisk.length} (summary says ${summary.atRisk}), exposure ${Math.round(exposure * 100) / 100}`);
  if (atRisk.length !== summary.atRisk) throw new Error('the results walk and the summary disagree');

  if (atRisk.length > 0) {
    step(`Read the evidence behind ${atRisk[0]}`);
    const evidence = ok(await api.GET('/api/sima/results/{sku}/evidence', { params: { path: { sku: atRisk[0] } } }), 'read evidence');
    log(`  evidence sections: ${Object.keys(evidence).join(', ')}`);
  }
});
