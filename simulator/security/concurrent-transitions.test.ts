// Concurrent transitions over HTTP (spec 3.3, 3.4, 4.5 rule 4, 7: a repeat of a transition into the state
// reached is ACTION_NOT_ALLOWED; issue 15 item 6): N requests sent at once on one finding or one claim
// submission, each a legal move from the state they all saw. Exactly one wins (200), the others are 409
// ACTION_NOT_ALLOWED, and the final record is the winner's whole change: its fields, and the findings it
// moves, with nothing of a loser applied.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOW_JOBS } from '../domains/jobs/jobs.testing.js';
import { allFindings, auditSamples, unthrottled } from '../domains/ship/ship.testing.js';
import { startTestSandbox, type CheckedResponse, type TestSandbox } from '../testing/contract-client.js';
import { withSlowReads } from './security.testing.js';

const N = 12;

let sandbox: TestSandbox;
let findingIds: string[];
beforeAll(async () => {
  // Reads give way (withSlowReads), so the simultaneous requests really overlap between read and write.
  sandbox = await startTestSandbox({ config: SLOW_JOBS, adjustDeps: withSlowReads });
  await unthrottled(sandbox);
  await auditSamples(sandbox);
  findingIds = (await allFindings(sandbox)).map((f) => f.id as string);
  expect(findingIds.length).toBeGreaterThanOrEqual(6);
}, 60_000);
afterAll(async () => sandbox?.close());

const post = (path: string, body: unknown = {}) => sandbox.call('POST', path, { body });
const findingOf = async (id: string) => (await allFindings(sandbox)).find((f) => f.id === id)!;
const submissionOf = async (id: string) => (await sandbox.call('GET', `/api/ship/claims/submissions/${id}`)).body.submission;

/** Sends every request at once; answers the one 200 (failing unless exactly one) after checking the rest are 409. */
async function exactlyOneWins(requests: Array<() => Promise<CheckedResponse>>): Promise<{ index: number; response: CheckedResponse }> {
  const answers = await Promise.all(requests.map((send) => send()));
  const summary = answers.map((a) => `${a.status} ${a.status === 200 ? '' : a.body?.code}`.trim());
  expect(summary.filter((s) => s === '200'), summary.join(', ')).toHaveLength(1);
  expect(summary.filter((s) => s !== '200'), summary.join(', ')).toEqual(Array(requests.length - 1).fill('409 ACTION_NOT_ALLOWED'));
  const index = answers.findIndex((a) => a.status === 200);
  return { index, response: answers[index] };
}

async function submissionOfDisputed(ids: string[]): Promise<string> {
  for (const id of ids) expect((await post(`/api/ship/findings/${id}/dispute`)).status).toBe(200);
  const created = await post('/api/ship/claims/submissions', { carrier: 'FEDEX', findingIds: ids });
  expect(created.status, created.text).toBe(201);
  const submissionId = created.body.submission.id as string;
  expect((await post(`/api/ship/claims/submissions/${submissionId}/generate-packet`)).status).toBe(200);
  return submissionId;
}

describe('concurrent transitions on one finding (spec 3.3)', () => {
  it(`lets one of ${N} simultaneous disputes win; the finding is DISPUTED once`, async () => {
    const id = findingIds[0];
    expect((await findingOf(id)).workflowStatus).toBe('OPEN');
    const { response } = await exactlyOneWins(Array.from({ length: N }, () => () => post(`/api/ship/findings/${id}/dispute`)));
    expect(response.body.workflowStatus ?? response.body.finding?.workflowStatus).toBe('DISPUTED');
    expect((await findingOf(id)).workflowStatus).toBe('DISPUTED');
  });

  it(`lets one of ${N} simultaneous competing moves (dispute, dismiss) win; the finding holds the winner's state`, async () => {
    const id = findingIds[1];
    expect((await findingOf(id)).workflowStatus).toBe('OPEN');
    const actions = Array.from({ length: N }, (_, i) => (i % 2 === 0 ? 'dispute' : 'dismiss'));
    const { index } = await exactlyOneWins(actions.map((action) => () => post(`/api/ship/findings/${id}/${action}`)));
    expect((await findingOf(id)).workflowStatus).toBe(actions[index] === 'dispute' ? 'DISPUTED' : 'DISMISSED');
  });
});

describe('concurrent transitions on one claim submission (spec 3.4, 4.5)', () => {
  it(`lets one of ${N} simultaneous submits win; the submission carries the winner's reference, its findings untouched`, async () => {
    const ids = findingIds.slice(2, 4);
    const submissionId = await submissionOfDisputed(ids);
    const stateOf = async (id: string) => (({ workflowStatus, updatedAt }) => ({ id, workflowStatus, updatedAt }))(await findingOf(id));
    const before = await Promise.all(ids.map(stateOf));
    const { index } = await exactlyOneWins(
      Array.from({ length: N }, (_, i) => () => post(`/api/ship/claims/submissions/${submissionId}/submit`, { externalReference: `FICT-SUBMIT-${i}` })),
    );
    const final = await submissionOf(submissionId);
    expect(final).toMatchObject({ status: 'SUBMITTED', externalReference: `FICT-SUBMIT-${index}`, submittedAt: expect.any(String) });
    // The submission's workflow and the findings' are separate (spec 3.3, 3.4): submit moves no finding.
    expect(await Promise.all(ids.map(stateOf))).toEqual(before);
  });

  it(`lets one of ${N} simultaneous confirm-credits win; the submission holds the winner's amounts, no mix`, async () => {
    const ids = findingIds.slice(4, 6);
    const submissionId = await submissionOfDisputed(ids);
    expect((await post(`/api/ship/claims/submissions/${submissionId}/submit`, { externalReference: 'FICT-SUBMIT' })).status).toBe(200);
    const confirmation = (i: number) => ({ source: 'fedex_billing_online', referenceId: `FICT-CR-${i}`, confirmedAt: '2026-11-20T10:00:00.000Z' });
    const { index } = await exactlyOneWins(
      Array.from({ length: N }, (_, i) => () =>
        post(`/api/ship/claims/submissions/${submissionId}/confirm-credit`, { confirmation: confirmation(i), amountsByFinding: { [ids[0]]: i + 1, [ids[1]]: i + 2 } }),
      ),
    );
    const final = await submissionOf(submissionId);
    expect(final).toMatchObject({ status: 'CREDIT_CONFIRMED', creditConfirmedAt: expect.any(String), amountsByFinding: { [ids[0]]: index + 1, [ids[1]]: index + 2 } });
  });
});
