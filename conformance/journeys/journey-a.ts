// journeys.a (spec 1 workflow A, 2.2, 2.4, 3.1, 4.2, 4.3): an integrator uploads a catalog file, waits for
// its job, screens the whole catalog, polls the screening to its end, then reads the results, the summary,
// evidence and the report. Every response is contract-checked by the client; the journey adds what each step
// must answer and the invariants across them (sima.invariants.ts): the summary equals the results before and
// after the screening, the job's counts equal the results, the report names the results' SKUs. The exact
// ones hold only in a tenant where nothing else screens (a fresh tenant of the control API).
import { defineCheck, type CheckContext } from '../harness/check.js';
import { enqueue, receiptJobId, RUN_NONCE } from '../checks/jobs-support.js';
import { allResults, evidencePath, isProblem, num, read, REPORT_PATH, SUMMARY_PATH, type ResultsList } from '../checks/sima/support.js';
import { jobMatchesResults, reportMatchesResults, skusHaveResults, summaryMatchesResults } from './sima.invariants.js';
import { Steps } from './steps.js';
import { journeyTenant, settleJob, uploadCsv, uploadOperation } from './support.js';

/** Evidence is read for at most this many results, one per outcome first (each read costs a request). */
const EVIDENCE_READS = 3;

export const journeyA = defineCheck({
  id: 'journeys.a',
  title: 'Workflow A: catalog upload, whole-catalog screening, results, summary, evidence and report agree step by step',
  area: 'journeys',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const steps = new Steps(ctx, 'A');
    const tenant = await journeyTenant(ctx, 'Conformance journey A');
    const { client } = tenant;
    const results = async () => {
      const list = await allResults(client, {}, ctx.admin);
      if (isProblem(list)) {
        steps.fail(list.rule, list.message, list.exchange);
        return undefined;
      }
      return list;
    };

    steps.next('summary before screening');
    const before = await results();
    if (!before) return;
    const summaryBefore = await read(client, SUMMARY_PATH, ctx.admin);
    if (!steps.expect(summaryBefore.response.status === 200, 'summary-served', `GET ${SUMMARY_PATH} answered ${summaryBefore.response.status}, not 200 (spec 4.2)`, summaryBefore)) return;
    if (tenant.fresh) steps.hold(summaryMatchesResults(summaryBefore.response.body as object, before), summaryBefore);

    steps.next('catalog upload');
    // The catalog columns are not the spec's (it names the adapters only): the SKUs' screening is judged in
    // the simulator profile, whose adapter reads these columns (sandbox-defined).
    const catalogSkus = [1, 2].map((n) => `CONF-${RUN_NONCE}-JA-${n}`);
    const target = uploadOperation(ctx, 'uploadCatalogFile');
    let catalogLanded = false;
    if (target) {
      const csv = `sku,productName,hsCode,countryOfOrigin\n${catalogSkus[0]},Two-seat sofa wood frame upholstered,9401.61.10,CN\n${catalogSkus[1]},Men's crew-neck T-shirt knitted cotton,6109.10.00,CN\n`;
      const uploaded = await uploadCsv(ctx, client, target, `conformance-journey-a-${RUN_NONCE}.csv`, csv);
      const receipt = (uploaded.response.body ?? {}) as { jobId?: unknown; sourceAdapter?: unknown };
      if (!steps.expect(receiptJobId(uploaded) !== undefined, 'catalog-upload-accepted', `POST ${target.path} answered ${uploaded.response.status}, not 202 with a jobId (spec 4.3, 2.3)`, uploaded)) return;
      steps.expect(receipt.sourceAdapter === 'catalog-excel', 'catalog-upload-adapter', `the receipt names sourceAdapter ${JSON.stringify(receipt.sourceAdapter)}, not the default catalog-excel (spec 4.3, 2.3)`, uploaded);

      steps.next('catalog job');
      const job = await settleJob(ctx, client, String(receipt.jobId));
      if (!job.settled) return steps.fail('job-reaches-terminal', `the catalog_upload job ${String(receipt.jobId)} is still ${job.status ?? 'unread'} (spec 3.1: the worker finishes every job)`, job.exchange);
      steps.expect(job.body.type === 'catalog_upload', 'catalog-job-type', `the upload's job has type ${JSON.stringify(job.body.type)}, not catalog_upload (spec 2.2)`, job.exchange);
      if (job.status === 'COMPLETED') steps.expect(job.body.progress === 100, 'job-completed-progress', `the COMPLETED job has progress ${JSON.stringify(job.body.progress)}, not 100 (spec 2.2)`, job.exchange);
      else if (ctx.admin) steps.fail('catalog-upload-completes', `the sandbox's catalog adapter ended the upload of a well-formed catalog file ${job.status}: ${JSON.stringify(job.body.error)}`, job.exchange);
      catalogLanded = job.status === 'COMPLETED';
    }

    steps.next('whole-catalog screening');
    const enqueued = await enqueue(client, { skus: null });
    const jobId = receiptJobId(enqueued);
    if (!steps.expect(jobId !== undefined, 'enqueue-accepted', `POST /api/sima/batch { skus: null } answered ${enqueued.response.status}, not 202 with a jobId (spec 2.3, 4.2)`, enqueued)) return;

    steps.next('screening job');
    const job = await settleJob(ctx, client, jobId!);
    if (!job.settled) {
      if (ctx.admin) return steps.fail('job-reaches-terminal', `job ${jobId} is still ${job.status ?? 'unread'} after the virtual clock moved (spec 3.1)`, job.exchange);
      steps.skip(`job ${jobId} did not end while the journey polled (still ${job.status ?? 'unread'}); the spec sets no deadline`);
    }
    if (job.status === 'FAILED') steps.skip(`the whole-catalog screening ${jobId} ended FAILED (a terminal state the spec allows): no results to compare`);
    steps.expect(job.body.type === 'sima_validation', 'screening-job-type', `the screening's job has type ${JSON.stringify(job.body.type)}, not sima_validation (spec 2.2)`, job.exchange);
    steps.expect(job.body.progress === 100, 'job-completed-progress', `the COMPLETED job has progress ${JSON.stringify(job.body.progress)}, not 100 (spec 2.2)`, job.exchange);

    steps.next('results');
    const after = await results();
    if (!after) return;
    const list = after.pages[0];
    if (tenant.fresh) steps.hold(jobMatchesResults(job.body, after), list);
    else {
      // A shared tenant: other screenings may have replaced this job's results, never removed a SKU.
      const screened = num((job.body.reconciliation as { skusScreened?: unknown } | undefined)?.skusScreened) ?? 0;
      steps.expect(after.total >= screened, 'journey-results-cover-job', `the results list ${after.total} SKU(s), fewer than the ${screened} job ${jobId} screened (spec 4.2: latest result per SKU)`, list);
    }
    if (ctx.admin && catalogLanded) steps.hold(skusHaveResults(catalogSkus, after, 'journey-catalog-screened', 'the catalog upload wrote them to the catalog that `skus: null` screens (spec 4.2)'), list);
    if (after.total === 0) steps.skip('the tenant has no SIMA results after a completed whole-catalog screening (an empty catalog?)');

    steps.next('summary');
    const summary = await read(client, SUMMARY_PATH, ctx.admin);
    if (!steps.expect(summary.response.status === 200, 'summary-served', `GET ${SUMMARY_PATH} answered ${summary.response.status}, not 200 (spec 4.2)`, summary)) return;
    if (tenant.fresh) steps.hold(summaryMatchesResults(summary.response.body as object, after), summary);

    steps.next('evidence');
    for (const sku of evidenceSkus(after)) {
      const evidence = await read(client, evidencePath(sku), ctx.admin);
      steps.expect(evidence.response.status === 200, 'journey-evidence-served', `GET ${evidencePath(sku)} of a SKU the results list answered ${evidence.response.status}, not 200 (spec 4.2)`, evidence);
    }

    steps.next('report');
    const report = await read(client, REPORT_PATH, ctx.admin);
    if (!steps.expect(report.response.status === 200 && typeof report.response.body === 'object' && report.response.body !== null, 'report-json-served', `GET ${REPORT_PATH} answered ${report.response.status}, not 200 with a JSON report (spec 4.2: json is the default)`, report)) return;
    if (tenant.fresh) steps.hold(reportMatchesResults(report.response.body as object, after), report);
  },
});

/** A few SKUs of the results to read evidence for: one of each outcome first, then any. */
function evidenceSkus(results: ResultsList): string[] {
  const byOutcome = new Map<unknown, string>();
  for (const item of results.items) if (!byOutcome.has(item.outcome)) byOutcome.set(item.outcome, String(item.sku));
  const picked = [...byOutcome.values(), ...results.items.map((item) => String(item.sku))];
  return [...new Set(picked)].slice(0, EVIDENCE_READS);
}
