// Claim submissions over HTTP (spec 2.7, 3.4, 4.5 rules 1-4, 7 repeat rules): creation rules, every
// confirm-credit outcome, refused transitions, the operator close, the list envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS } from '../jobs/jobs.testing.js';
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

const confirmation = { source: 'fedex_billing_online', referenceId: 'FICT-CR-7', confirmedAt: '2026-11-20T10:00:00.000Z' };
const post = (path: string, body?: unknown) => sandbox.call('POST', path, body === undefined ? {} : { body });
const sub = (id: string, step: string, body?: unknown) => post(`/api/ship/claims/submissions/${id}/${step}`, body);
const create = (ids: string[], carrier = 'FEDEX') => post('/api/ship/claims/submissions', { carrier, findingIds: ids });
const close = (id: string) => sandbox.admin('POST', `/_sim/tenants/${sandbox.identity.tenantId}/claims/submissions/${id}/close`, { reason: 'test' });
const reopenAll = async (ids: string[]) => {
  for (const id of ids) await post(`/api/ship/findings/${id}/reopen`);
};
/** Disputed findings bundled into a submission taken to `until`. */
async function submissionAt(ids: string[], until: 'DRAFT' | 'READY' | 'SUBMITTED' | 'ACKNOWLEDGED') {
  for (const id of ids) await post(`/api/ship/findings/${id}/dispute`);
  const created = await create(ids);
  expect(created.status, created.text).toBe(201);
  const id = created.body.submission.id as string;
  const steps = { DRAFT: [], READY: ['generate-packet'], SUBMITTED: ['generate-packet', 'submit'], ACKNOWLEDGED: ['generate-packet', 'submit', 'acknowledge'] }[until];
  for (const step of steps) expect((await sub(id, step, step === 'submit' || step === 'acknowledge' ? { externalReference: `FICT-${step}` } : undefined)).status).toBe(200);
  return id;
}

describe('claim creation rules (spec 4.5)', () => {
  it('rule 1-2: ineligible findings are 400 with invalidFindingStates naming each finding and its claimBlockerReason', async () => {
    const [open, dismissed] = findings.slice(0, 2).map((f) => f.id);
    await reopenAll([open, dismissed]);
    await post(`/api/ship/findings/${dismissed}/dismiss`);
    const res = await create([open, dismissed]);
    expect(res.status).toBe(400);
    expect(res.body.details.invalidFindingStates).toEqual([
      { findingId: open, workflowStatus: 'OPEN', claimBlockerReason: 'Dispute the finding before adding it to a claim' },
      { findingId: dismissed, workflowStatus: 'DISMISSED', claimBlockerReason: 'Dismissed findings cannot be claimed' },
    ]);
    await reopenAll([dismissed]);
  });

  it('rule 3: a finding linked to an active submission is 409 with duplicateLinks; free again once that one is CLOSED', async () => {
    const ids = [findings[2].id];
    const first = await submissionAt(ids, 'DRAFT');
    const again = await create(ids);
    expect(again.status).toBe(409);
    expect(again.body.details).toEqual({ subcode: 'invalid_finding_state', duplicateLinks: [{ findingId: ids[0], submissionId: first, submissionStatus: 'DRAFT' }] });
    expect((await allFindings(sandbox)).find((f) => f.id === ids[0])!.claimBlockerReason).toContain(first);
    expect((await close(first)).body.submission.status).toBe('CLOSED');
    expect((await create(ids)).status).toBe(201);
  });

  it('rule 4: missing_findings after filtering to the tenant, carrier_blocked by the tenant policy', async () => {
    const missing = await create(['6c1f4e2a-9b7d-4c3e-8a15-2f0d9e7b4a61']);
    expect(missing.status).toBe(409);
    expect(missing.body.details.subcode).toBe('missing_findings');
    await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/settings`, { carrierPolicies: { FEDEX: { policy: 'manual_import_only' } } });
    try {
      const blocked = await create([findings[3].id]);
      expect(blocked.status).toBe(409);
      expect(blocked.body.details.subcode).toBe('carrier_blocked');
    } finally {
      await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/settings`, { carrierPolicies: {} });
    }
  });

  it('a finding of another carrier is ineligible for the claim', async () => {
    await post(`/api/ship/findings/${findings[3].id}/dispute`);
    const res = await create([findings[3].id], 'UPS');
    expect(res.status).toBe(400);
    expect(res.body.details.invalidFindingStates[0].claimBlockerReason).toBe('Finding is for carrier FEDEX, not UPS');
    await reopenAll([findings[3].id]);
  });
});

describe('the submission lifecycle (spec 3.4)', () => {
  it('refuses moves from non-source states and repeats into the state reached (409 invalid_transition)', async () => {
    const id = await submissionAt([findings[4].id], 'DRAFT');
    for (const [step, body] of [['submit', { externalReference: 'X' }], ['acknowledge', { externalReference: 'X' }], ['confirm-credit', { confirmation }]] as const) {
      const res = await sub(id, step, body);
      expect(res.status, step).toBe(409);
      expect(res.body.details).toMatchObject({ subcode: 'invalid_transition', currentState: 'DRAFT' });
    }
    expect((await sub(id, 'generate-packet')).status).toBe(200);
    expect((await sub(id, 'generate-packet')).status).toBe(409);
    expect((await sub(id, 'acknowledge', { externalReference: 'X' })).status).toBe(409);
    await close(id);
    expect((await close(id)).status).toBe(409);
    expect((await sub(id, 'submit', { externalReference: 'X' })).status).toBe(409);
  });

  it('confirm-credit: all credited -> CREDIT_CONFIRMED, then 409; all failed -> FAILED, callable again; partial keeps SUBMITTED', async () => {
    const [a, b] = [findings[5].id, findings[6].id];
    const id = await submissionAt([a, b], 'SUBMITTED');
    const partial = await sub(id, 'confirm-credit', { confirmation, amountsByFinding: { [a]: 2, [b]: 0 } });
    expect(partial.body.submission).toMatchObject({ status: 'SUBMITTED', amountsByFinding: { [a]: 2, [b]: 0 }, creditConfirmedAt: null, failedAt: null });
    const failed = await sub(id, 'confirm-credit', { confirmation, amountsByFinding: { [a]: 0 }, reason: 'carrier declined' });
    expect(failed.body.submission).toMatchObject({ status: 'FAILED', failureReason: 'carrier declined', failedAt: expect.any(String) });
    const failedAgain = await sub(id, 'confirm-credit', { confirmation, amountsByFinding: {} });
    expect(failedAgain.body.submission.status).toBe('FAILED');
    const fromFailed = await sub(id, 'confirm-credit', { confirmation, amountsByFinding: { [a]: 1 } });
    expect(fromFailed.body.submission).toMatchObject({ status: 'ACKNOWLEDGED', acknowledgedAt: expect.any(String) });
    const done = await sub(id, 'confirm-credit', { confirmation, amountsByFinding: { [a]: 1, [b]: 2 } });
    expect(done.body.submission).toMatchObject({ status: 'CREDIT_CONFIRMED', creditConfirmedAt: expect.any(String) });
    expect((await sub(id, 'confirm-credit', { confirmation })).status).toBe(409);
    // spec 3.4: the findings' states did not change with the submission's.
    expect((await allFindings(sandbox)).filter((f) => [a, b].includes(f.id)).map((f) => f.workflowStatus)).toEqual(['DISPUTED', 'DISPUTED']);
    await close(id);
  });

  it('confirm-credit: partial from ACKNOWLEDGED stays ACKNOWLEDGED, all failed from ACKNOWLEDGED is FAILED, a stray finding id is 400', async () => {
    const [a, b] = [findings[5].id, findings[6].id];
    const id = await submissionAt([a, b], 'ACKNOWLEDGED');
    expect((await sub(id, 'confirm-credit', { confirmation, amountsByFinding: { [a]: 3 } })).body.submission.status).toBe('ACKNOWLEDGED');
    const stray = await sub(id, 'confirm-credit', { confirmation, amountsByFinding: { '6c1f4e2a-9b7d-4c3e-8a15-2f0d9e7b4a61': 1 } });
    expect(stray.status).toBe(400);
    expect(stray.body.details.field).toBe('amountsByFinding');
    expect((await sub(id, 'confirm-credit', { confirmation, amountsByFinding: { [a]: 0, [b]: 0 } })).body.submission.status).toBe('FAILED');
    expect((await sub(id, 'confirm-credit', { confirmation: { source: 'x' } })).status).toBe(400);
    await close(id);
  });

  it('needs a non-empty externalReference to submit and acknowledge', async () => {
    const id = await submissionAt([findings[0].id], 'READY');
    for (const body of [{}, { externalReference: '' }, { externalReference: '   ' }]) expect((await sub(id, 'submit', body)).status).toBe(400);
    await close(id);
    await reopenAll([findings[0].id]);
  });

  it('lists submissions in the { submissions, total, limit, offset, hasMore } envelope, filtered by status', async () => {
    const list = await sandbox.call('GET', '/api/ship/claims/submissions?limit=2');
    expect(Object.keys(list.body).sort()).toEqual(['hasMore', 'limit', 'offset', 'submissions', 'total']);
    expect(list.body.submissions).toHaveLength(2);
    const closed = await sandbox.call('GET', '/api/ship/claims/submissions?status=CLOSED&limit=200');
    expect(closed.body.submissions.every((s: any) => s.status === 'CLOSED')).toBe(true);
    expect(closed.body.total).toBeGreaterThanOrEqual(4);
    expect((await sandbox.call('GET', '/api/ship/claims/submissions/6c1f4e2a-9b7d-4c3e-8a15-2f0d9e7b4a61')).status).toBe(404);
  });
});
