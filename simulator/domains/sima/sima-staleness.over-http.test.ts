// isStale (spec 2.4) happening as an integrator sees it: the control API publishes a new measures config
// version for one tenant (POST /_sim/tenants/{tenantId}/sima/measures-config, sandbox-defined); that
// tenant's current results become stale, is_stale filters them, a new screening refreshes them, and
// skip_exact_duplicates no longer skips a SKU whose version changed. Every response contract-checked.
import { afterEach, describe, expect, it } from 'vitest';
import { SIMA_MEASURES_VERSION } from '#fixtures/catalog/sima-measures.js';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS } from '../jobs/jobs.testing.js';
import { nextVersion } from './measures-config.js';
import { listAll, otherTenant, review, screen } from './sima-results.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** The version published without a name: the fixture's with its last number incremented. */
const NEXT = nextVersion(SIMA_MEASURES_VERSION);

const publish = (s: TestSandbox, body: Record<string, unknown> = {}, tenantId = s.identity.tenantId) => s.admin('POST', `/_sim/tenants/${tenantId}/sima/measures-config`, body);

describe('publishing a new measures config version', () => {
  it('makes the tenant current results stale, filterable with is_stale, until a new screening refreshes them', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await screen(sandbox, { skus: null });
    const before = await listAll(sandbox);
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((r) => r.isStale === false && r.simaConfigVersion === SIMA_MEASURES_VERSION)).toBe(true);

    const published = await publish(sandbox, { note: 'CBSA final determination on rebar' });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ configVersion: NEXT, previousVersion: SIMA_MEASURES_VERSION, resultsMarkedStale: before.length, note: 'CBSA final determination on rebar' });
    expect((await listAll(sandbox, 'is_stale=true')).length).toBe(before.length);
    expect(await listAll(sandbox, 'is_stale=false')).toEqual([]);

    await screen(sandbox, { skus: ['UDS-SOFABED-GRY-3S'] });
    const refreshed = (await listAll(sandbox, 'is_stale=false')).map((r) => [r.sku, r.simaConfigVersion]);
    expect(refreshed).toEqual([['UDS-SOFABED-GRY-3S', NEXT]]);
    expect((await listAll(sandbox, 'is_stale=true')).length).toBe(before.length - 1);
    const summary = await sandbox.call('GET', '/api/sima/summary');
    expect(summary.status).toBe(200);
    const report = await sandbox.call('GET', '/api/sima/report');
    expect(report.body.configVersion).toBe(NEXT);
  });

  it('keeps a reviewer decision on a result that goes stale', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await screen(sandbox, { skus: ['UDS-SOFABED-GRY-3S'] });
    await review(sandbox, 'UDS-SOFABED-GRY-3S', 'accept');
    await publish(sandbox);
    expect(await listAll(sandbox, 'is_stale=true&workflow=ACCEPTED')).toHaveLength(1);
  });

  it('screens again under skip_exact_duplicates once the version changed, and skips again after that', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const skus = ['UDS-SOFABED-GRY-3S', 'TEE-CTN-BLK-M'];
    await screen(sandbox, { skus });
    const skipped = await screen(sandbox, { skus, runPolicy: 'skip_exact_duplicates' });
    expect((await sandbox.call('GET', `/api/jobs/${skipped}`)).body.reconciliation).toMatchObject({ skusScreened: 0 });
    await publish(sandbox, { version: '2026.12.1' });
    const rescreened = await screen(sandbox, { skus, runPolicy: 'skip_exact_duplicates' });
    const job = (await sandbox.call('GET', `/api/jobs/${rescreened}`)).body;
    expect(job.reconciliation).toMatchObject({ skusScreened: 2 });
    expect(job.result).toMatchObject({ simaConfigVersion: '2026.12.1' });
    expect(await listAll(sandbox, 'is_stale=true')).toEqual([]);
  });

  it('leaves other tenants results fresh, refuses the version in force again (409), and 404s an unknown tenant', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const other = await otherTenant(sandbox);
    await screen(sandbox, { skus: ['UDS-SOFABED-GRY-3S'] });
    await screen(sandbox, { skus: ['UDS-SOFABED-GRY-3S'] }, other);
    await publish(sandbox, { version: '2026.12.1' });
    expect((await listAll(sandbox, '', other.token)).map((r) => r.isStale)).toEqual([false]);
    const again = await publish(sandbox, { version: '2026.12.1' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'ACTION_NOT_ALLOWED', details: { currentState: '2026.12.1' } });
    expect((await publish(sandbox, {}, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await publish(sandbox, { version: 'has spaces' })).status).toBe(400);
  });
});
