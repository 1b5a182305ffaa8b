// Issue 26: the sandbox profile certifies the hosted sandbox as shipped (`npm run cluster`: two instances
// over one PostgreSQL database behind HAProxy, the limits counted in the database), as a vendor would run it:
// default limits and job timings, no /_sim call by the suite; the test, as the operator, creates a second
// tenant and allows the local webhook receiver beforehand. Skips locally without PostgreSQL or HAProxy;
// fails under CI=true (.ci/run installs them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterSkipReason } from '../simulator/testing/cluster.js';
import { startClusterTarget, type ClusterTarget } from './testing/cluster.js';
import { expectCertified, RUN_HOOK_MS, runAsVendor, vendorLine, vendorSetup, type VendorRun } from './testing/vendor-run.js';
import { AS_DEPLOYED } from './testing/whole-suite.js';

/**
 * A run must end on its own within this: a stall guard, not issue 26's 10-minute target. The run is bound
 * by its 324 uploads (30 a minute per key) and 708 writes (120 a minute per key): the operation checks
 * spread theirs over the second tenant's key (client.ts spreadOver), the rest stay on the first key.
 * Measured 2026-11-27 on this machine beside other work on its two cores: sandbox 655-679 s (814 s before
 * the spreading), cluster 651 s, readonly 131-137 s. Under the whole `npm test` such runs took about a third
 * longer, so a 600 s bound would fail on load alone; the duration is printed for the issue note.
 */
const RUN_BOUND_SECONDS = 1200;
const skipReason = clusterSkipReason();

describe.skipIf(skipReason !== null)(`the sandbox profile against two instances behind a load balancer, as shipped${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let target: ClusterTarget;
  let run: VendorRun;

  beforeAll(async () => {
    target = await startClusterTarget({ label: 'vendor-cluster', env: AS_DEPLOYED });
    run = await runAsVendor(target, 'sandbox', await vendorSetup(target));
    console.log(`sandbox profile against the cluster: ${vendorLine(run)}`);
  }, RUN_HOOK_MS);
  afterAll(async () => target?.close());

  it('certifies it: no check failed, none skipped for the rate limits', () => expectCertified(run));

  it('runs within the bound', () => expect(run.seconds).toBeLessThan(RUN_BOUND_SECONDS));
});
