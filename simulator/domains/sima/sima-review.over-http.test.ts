// The SIMA review workflow through the control API (POST /_sim/tenants/{tenantId}/sima/results/{sku}/review;
// spec 3.5 names the states, the moves are sandbox-defined in sima-review.machine.ts), contract-checked.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS } from '../jobs/jobs.testing.js';
import { otherTenant, review, screen } from './sima-results.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const workflowOf = async (s: TestSandbox, sku: string) => (await s.call('GET', '/api/sima/results?limit=1000')).body.outcomes.find((i: { sku: string }) => i.sku === sku).workflowStatus;

describe('the SIMA review dashboard action', () => {
  it('accepts, overrides and dismisses an OPEN result, reopens a decided one, and the results list shows each state', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await screen(sandbox, { skus: ['UDS-SOFABED-GRY-3S'] });
    expect(await workflowOf(sandbox, 'UDS-SOFABED-GRY-3S')).toBe('OPEN');
    for (const [action, state] of [['accept', 'ACCEPTED'], ['override', 'OVERRIDDEN'], ['dismiss', 'DISMISSED']]) {
      const decided = await review(sandbox, 'UDS-SOFABED-GRY-3S', action, `${action} it`);
      expect(decided.status).toBe(200);
      expect(decided.body).toMatchObject({ sku: 'UDS-SOFABED-GRY-3S', outcome: 'AT_RISK', workflowStatus: state });
      expect(await workflowOf(sandbox, 'UDS-SOFABED-GRY-3S')).toBe(state);
      expect((await review(sandbox, 'UDS-SOFABED-GRY-3S', 'reopen')).body.workflowStatus).toBe('OPEN');
    }
  });

  it('refuses a move the workflow does not allow, and any move on a CLEARED result, with 409 ACTION_NOT_ALLOWED', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await screen(sandbox, { skus: ['UDS-SOFABED-GRY-3S', 'TEE-CTN-BLK-M'] });
    const reopenOpen = await review(sandbox, 'UDS-SOFABED-GRY-3S', 'reopen');
    expect(reopenOpen.status).toBe(409);
    expect(reopenOpen.body).toMatchObject({ code: 'ACTION_NOT_ALLOWED', details: { currentState: 'OPEN', action: 'reopen' } });
    await review(sandbox, 'UDS-SOFABED-GRY-3S', 'accept');
    const dismissAccepted = await review(sandbox, 'UDS-SOFABED-GRY-3S', 'dismiss');
    expect(dismissAccepted.body).toMatchObject({ code: 'ACTION_NOT_ALLOWED', details: { currentState: 'ACCEPTED', action: 'dismiss' } });
    const cleared = await review(sandbox, 'TEE-CTN-BLK-M', 'accept');
    expect(cleared.status).toBe(409);
    expect(cleared.body).toMatchObject({ code: 'ACTION_NOT_ALLOWED', details: { currentState: null } });
    expect(await workflowOf(sandbox, 'UDS-SOFABED-GRY-3S')).toBe('ACCEPTED');
  });

  it("answers 404 for a SKU without a result, another tenant's SKU and an unknown tenant, and 400 for an unknown action", async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const other = await otherTenant(sandbox);
    await screen(sandbox, { skus: ['UDS-SOFABED-GRY-3S'] }, other);
    expect((await review(sandbox, 'UDS-SOFABED-GRY-3S', 'accept')).body.code).toBe('NOT_FOUND');
    const unknownTenant = await sandbox.admin('POST', '/_sim/tenants/7d2f8a8e-0f7c-4a55-9a43-3c1c1e2d9b10/sima/results/UDS-SOFABED-GRY-3S/review', { action: 'accept' });
    expect([unknownTenant.status, unknownTenant.body.code]).toEqual([404, 'NOT_FOUND']);
    const bad = await sandbox.admin('POST', `/_sim/tenants/${other.tenantId}/sima/results/UDS-SOFABED-GRY-3S/review`, { action: 'approve' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'action' } });
    const theirs = await sandbox.admin('POST', `/_sim/tenants/${other.tenantId}/sima/results/UDS-SOFABED-GRY-3S/review`, { action: 'accept' });
    expect(theirs.body.workflowStatus).toBe('ACCEPTED');
  });

  it('keeps a decision through a re-screening that gives the same answer', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await screen(sandbox, { skus: ['UDS-SOFABED-GRY-3S'] });
    const decided = await review(sandbox, 'UDS-SOFABED-GRY-3S', 'dismiss');
    await screen(sandbox, { skus: ['UDS-SOFABED-GRY-3S'] });
    const [current] = (await sandbox.call('GET', '/api/sima/results?workflow=DISMISSED')).body.outcomes;
    expect(current.id).not.toBe(decided.body.id);
    expect(current.workflowStatus).toBe('DISMISSED');
  });
});
