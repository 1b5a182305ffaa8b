// Issue 26: the suite certifies the reference sandbox as shipped, as a vendor would run it against a server
// it does not control: the sandbox's default limits (read 240, write 120, upload 30 a minute), its own job
// timings, no /_sim call by the suite. The test plays the operator: it creates a second tenant and allows
// the local webhook receiver through the control API before the run. Then the `readonly` profile reads the
// tenant the sandbox run filled (jobs, results, feed sessions, findings, all made through the public API),
// with the read bucket the first run left behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTarget, type TestTarget } from './testing/simulator.js';
import { expectCertified, RUN_HOOK_MS, runAsVendor, vendorLine, vendorSetup, type VendorRun } from './testing/vendor-run.js';
import { AS_DEPLOYED } from './testing/whole-suite.js';

/**
 * A run must end on its own within this: a stall guard, not issue 26's 10-minute target. The run is bound
 * by its 335 uploads (30 a minute per key) and 731 writes (120 a minute per key): the operation checks
 * spread theirs over the second tenant's key (client.ts spreadOver), and the rejects-invalid-input checks
 * run as the second tenant beside the rest (runner.ts lanes). Measured 2026-11-27 on this machine beside
 * other work: sandbox 539 s with the lane (653 s before it, 814 s before the spreading), readonly 95 s.
 * Under a loaded machine such runs took up to a third longer, so a 600 s bound would fail on load alone;
 * the duration is printed for the issue note.
 */
const RUN_BOUND_SECONDS = 1200;

let target: TestTarget;
let sandbox: VendorRun;

beforeAll(async () => {
  target = await startTestTarget({ label: 'vendor-profiles', env: AS_DEPLOYED });
  sandbox = await runAsVendor(target, 'sandbox', await vendorSetup(target));
  console.log(`sandbox profile against the sandbox as shipped: ${vendorLine(sandbox)}`);
}, RUN_HOOK_MS);
afterAll(async () => target?.close());

describe('the sandbox profile against the sandbox as shipped, with a second tenant and the local receiver', () => {
  it('certifies it: no check failed, none skipped for the rate limits', () => expectCertified(sandbox));

  it('runs within the bound', () => expect(sandbox.seconds).toBeLessThan(RUN_BOUND_SECONDS));
});

describe('the readonly profile against a tenant holding jobs, results, feed sessions and findings', () => {
  let readonly: VendorRun;
  let holds: Record<string, number>;

  beforeAll(async () => {
    holds = await holdings(target);
    readonly = await runAsVendor(target, 'readonly');
    console.log(`readonly profile against the filled tenant: ${vendorLine(readonly)}`);
  }, RUN_HOOK_MS);

  it('reads a tenant that holds each kind of data', () => {
    expect(holds).toEqual({ jobs: expect.any(Number), results: expect.any(Number), catalogJobs: expect.any(Number), findings: expect.any(Number) });
    for (const [what, count] of Object.entries(holds)) expect(count, what).toBeGreaterThan(0);
  });

  it('certifies it: no check failed, none skipped for the rate limits', () => expectCertified(readonly));

  it('runs within the bound', () => expect(readonly.seconds).toBeLessThan(RUN_BOUND_SECONDS));
});

/** What the tenant holds, read through the public API (spec 4.1, 4.2, 4.5) with its own token. */
async function holdings(t: TestTarget): Promise<Record<string, number>> {
  const exchange = await fetch(`${t.url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': t.apiKey } });
  const { access_token: token } = (await exchange.json()) as { access_token: string };
  const get = async (path: string) => {
    for (;;) {
      const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      // Spec 7: a 429 is waited out as it asks (the sandbox run may have left the read bucket full).
      if (res.status === 429) {
        await new Promise((resolve) => setTimeout(resolve, (Number(res.headers.get('retry-after')) || 1) * 1000));
        continue;
      }
      return (await res.json()) as Record<string, unknown>;
    }
  };
  const jobs = (await get('/api/jobs?limit=100')) as { jobs: { type: string }[]; count: number };
  const results = (await get('/api/sima/results?limit=1')) as { items?: unknown[]; results?: unknown[]; total?: number };
  const findings = (await get('/api/ship/findings?limit=1')) as { items?: unknown[]; findings?: unknown[] };
  const list = (page: Record<string, unknown>) => Object.values(page).find(Array.isArray) as unknown[] | undefined;
  return {
    jobs: jobs.count,
    results: list(results)?.length ?? 0,
    // Spec 2.2: trade catalog jobs (a feed session's among them) are of type catalog_upload.
    catalogJobs: jobs.jobs.filter((job) => job.type === 'catalog_upload').length,
    findings: list(findings)?.length ?? 0,
  };
}
