// The finding endpoints over HTTP (spec 3.3, 4.5): every action from every state (allowed and refused),
// carrier policy, batch, list with filter, pagination and status counts, credit validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canTransition } from '../../kernel/machine.js';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS } from '../jobs/jobs.testing.js';
import { FINDING_ACTIONS, findingMachine, type FindingAction } from './finding.machine.js';
import type { FindingWorkflowStatus } from './ship.types.js';
import { allFindings, auditSamples, unthrottled } from './ship.testing.js';

let sandbox: TestSandbox;
let findings: Array<Record<string, any>>;
beforeAll(async () => {
  sandbox = await startTestSandbox({ config: SLOW_JOBS });
  await unthrottled(sandbox);
  await auditSamples(sandbox);
  findings = await allFindings(sandbox);
}, 60_000);
afterAll(async () => sandbox?.close());

const confirmation = { source: 'fedex_billing_online', referenceId: 'FICT-CR-9', confirmedAt: '2026-11-20T10:00:00.000Z' };
const act = (id: string, action: FindingAction) =>
  sandbox.call('POST', `/api/ship/findings/${id}/${action}`, action === 'credit' ? { body: { amount: 1.5, confirmation } } : {});
const PATH_TO: Record<FindingWorkflowStatus, FindingAction[]> = {
  OPEN: [], DISPUTED: ['dispute'], SUBMITTED: ['dispute', 'submit'], CARRIER_REVIEW: ['dispute', 'submit', 'carrier-review'],
  CREDITED: ['dispute', 'submit', 'credit'], REJECTED: ['dispute', 'submit', 'reject'], DISMISSED: ['dismiss'],
};
async function driveTo(id: string, state: FindingWorkflowStatus) {
  const current = (await sandbox.call('GET', `/api/ship/findings?limit=500`)).body.findings.find((f: any) => f.id === id).workflowStatus;
  if (current !== 'OPEN') expect((await act(id, 'reopen')).status).toBe(200);
  for (const step of PATH_TO[state]) expect((await act(id, step)).status, `${step} on the way to ${state}`).toBe(200);
}

describe('the finding workflow over HTTP', () => {
  it('answers each action from each state as the machine says: 200 and the next state, or 409 invalid_transition', async () => {
    const id = findings[0].id;
    for (const state of findingMachine.states) {
      for (const action of FINDING_ACTIONS) {
        await driveTo(id, state);
        const res = await act(id, action);
        if (canTransition(findingMachine, state, action)) {
          expect(res.status, `${action} from ${state}`).toBe(200);
          expect(res.body.workflowStatus).toBe(findingMachine.transitions.find((t) => t.action === action && t.from.includes(state))!.to);
        } else {
          expect(res.status, `${action} from ${state}`).toBe(409);
          expect(res.body).toMatchObject({ code: 'ACTION_NOT_ALLOWED', details: { subcode: 'invalid_transition', currentState: state, action } });
        }
      }
    }
  }, 60_000);

  it('sets the timestamps of each move and clears the resolution on reopen', async () => {
    const id = findings[1].id;
    await driveTo(id, 'OPEN');
    const disputed = (await act(id, 'dispute')).body;
    expect(disputed.disputedAt).toEqual(expect.any(String));
    await act(id, 'submit');
    const credited = (await act(id, 'credit')).body;
    expect(credited).toMatchObject({ workflowStatus: 'CREDITED', credit: { amount: 1.5, confirmation }, resolvedAt: expect.any(String), claimBlockerReason: 'Finding is already credited' });
    const reopened = (await act(id, 'reopen')).body;
    expect(reopened).toMatchObject({ workflowStatus: 'OPEN', credit: null, resolvedAt: null, reopenedAt: expect.any(String) });
  });

  it('refuses a credit without a positive amount or a complete confirmation, naming the field', async () => {
    const id = findings[2].id;
    await driveTo(id, 'SUBMITTED');
    const zero = await sandbox.call('POST', `/api/ship/findings/${id}/credit`, { body: { amount: 0, confirmation } });
    expect(zero.status).toBe(400);
    expect(zero.body.details.field).toBe('amount');
    const partial = await sandbox.call('POST', `/api/ship/findings/${id}/credit`, { body: { amount: 2, confirmation: { source: 'x', confirmedAt: confirmation.confirmedAt } } });
    expect(partial.status).toBe(400);
    expect(partial.body.details.field).toMatch(/confirmation/);
    expect((await sandbox.call('POST', `/api/ship/findings/${id}/credit`, { body: { amount: 2 } })).status).toBe(400);
  });

  it('answers 404 for an unknown finding', async () => {
    expect((await sandbox.call('POST', '/api/ship/findings/6c1f4e2a-9b7d-4c3e-8a15-2f0d9e7b4a61/dispute')).status).toBe(404);
  });

  it('refuses carrier-facing moves for a carrier the tenant policy blocks (carrier_blocked) and shows CARRIER_BLOCKED', async () => {
    const id = findings[3].id;
    await driveTo(id, 'DISPUTED');
    await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/settings`, { carrierPolicies: { FEDEX: { policy: 'manual_import_only' } } });
    try {
      const refused = await act(id, 'submit');
      expect(refused.status).toBe(409);
      expect(refused.body.details).toMatchObject({ subcode: 'carrier_blocked', carrier: 'FEDEX', policy: 'manual_import_only' });
      const listed = (await allFindings(sandbox)).find((f) => f.id === id)!;
      expect(listed).toMatchObject({ claimEligibility: 'CARRIER_BLOCKED', actionability: 'informational', claimBlockerReason: expect.stringContaining('manual_import_only') });
      // Recording the outcome of an internal triage is not blocked.
      expect((await act(id, 'reopen')).status).toBe(200);
    } finally {
      await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/settings`, { carrierPolicies: {} });
    }
  });

  it('applies one action to many findings with a result per finding, and refuses batch credit with a remediation', async () => {
    const ids = findings.slice(4, 6).map((f) => f.id);
    for (const id of ids) await driveTo(id, 'OPEN');
    await act(ids[1], 'dismiss');
    const res = await sandbox.call('POST', '/api/ship/findings/batch', { body: { action: 'dispute', findingIds: [...ids, '6c1f4e2a-9b7d-4c3e-8a15-2f0d9e7b4a61'] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ action: 'dispute', succeeded: 1, failed: 2 });
    expect(res.body.results.map((r: any) => [r.ok, r.finding?.workflowStatus ?? r.error.code])).toEqual([[true, 'DISPUTED'], [false, 'ACTION_NOT_ALLOWED'], [false, 'NOT_FOUND']]);
    const credit = await sandbox.call('POST', '/api/ship/findings/batch', { body: { action: 'credit', findingIds: ids } });
    expect(credit.status).toBe(400);
    expect(credit.body).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'action', remediation: 'POST /api/ship/findings/{findingId}/credit' } });
  });

  it('lists with the workflowStatus filter, pagination and counts of every state', async () => {
    const all = await sandbox.call('GET', '/api/ship/findings?limit=3');
    expect(all.body).toMatchObject({ total: 7, limit: 3, offset: 0, hasMore: true });
    expect(all.body.findings).toHaveLength(3);
    const next = await sandbox.call('GET', '/api/ship/findings?limit=3&offset=6');
    expect(next.body).toMatchObject({ offset: 6, hasMore: false });
    expect(new Set([...all.body.findings, ...next.body.findings].map((f: any) => f.id)).size).toBe(4);
    const counts = all.body.statusCounts;
    expect(Object.keys(counts).sort()).toEqual([...findingMachine.states].sort());
    expect(Object.values(counts).reduce((a: number, b) => a + (b as number), 0)).toBe(7);
    const open = await sandbox.call('GET', '/api/ship/findings?workflowStatus=OPEN&limit=500');
    expect(open.body.total).toBe(counts.OPEN);
    expect(open.body.findings.every((f: any) => f.workflowStatus === 'OPEN')).toBe(true);
    expect((await sandbox.call('GET', '/api/ship/findings?limit=501')).status).toBe(400);
  });
});
