// The coverage report is filled from what was sent, not from the contract alone: nothing sent, nothing
// exercised; each sent request counts for exactly the constraints its values exercise.
import { describe, expect, it } from 'vitest';
import { loadTargetContract } from '../../harness/contract.js';
import type { TargetOptions } from '../../harness/types.js';
import { coverageOf, coverageOfRun, REASONS, recordSent, type OperationCoverage } from './coverage.js';
import { DROP_REASONS, negativeCases } from './negative-cases.js';
import { coveringRequests } from './covering-requests.js';
import { operationInputs } from './inputs.js';
import { exampleRequest, prepare, type RequestSpec } from './requests.js';

const contract = loadTargetContract('v1.3.0');
const listJobs = prepare(contract, operationInputs(contract.doc, contract.operation('listJobs')!), 1);
const request = (query: Record<string, string>, invalid?: RequestSpec['invalid']): RequestSpec => ({ ...exampleRequest(listJobs), query, invalid });
const find = (op: OperationCoverage, input: string, kind: string, detail?: string) => op.constraints.find((c) => c.input === input && c.kind === kind && (detail === undefined || c.detail === detail))!;
const listJobsOf = (sent: Map<string, RequestSpec[]>) => coverageOf(contract, sent).operations.find((o) => o.operationId === 'listJobs')!;

describe('input coverage', () => {
  it('exercises nothing when nothing was sent, though the contract lists the constraints', () => {
    const report = coverageOf(contract, new Map());
    expect(report.totals.constraints).toBeGreaterThan(200);
    expect(report.totals.exercised).toBe(0);
    expect(report.operations.every((o) => o.requests === 0)).toBe(true);
  });

  it('counts the constraints each sent request exercises, and only those', () => {
    const op = listJobsOf(new Map([['listJobs', [request({ limit: '100', type: 'ship_upload' }), request({ limit: '100' }), request({ limit: '0' }, { target: 'limit', kind: 'below-minimum', where: 'limit' })]]]));
    expect(op.requests).toBe(3);
    expect(find(op, 'query limit', 'maximum')).toMatchObject({ exercised: true, count: 2 });
    expect(find(op, 'query limit', 'minimum')).toMatchObject({ exercised: false, count: 0 });
    expect(find(op, 'query type', 'enum-value', '"ship_upload"')).toMatchObject({ exercised: true, count: 1 });
    expect(find(op, 'query type', 'enum-value', '"sima_validation"').exercised).toBe(false);
    expect(find(op, 'query type', 'optional-absent')).toMatchObject({ count: 1 });
    expect(find(op, 'query limit', 'invalid', 'below-minimum')).toMatchObject({ exercised: true, count: 1 });
    expect(find(op, 'query limit', 'invalid', 'above-maximum').exercised).toBe(false);
  });

  it('is complete for an operation once its covering requests are sent', () => {
    const op = listJobsOf(new Map([['listJobs', coveringRequests(contract, listJobs, {}, 1)]]));
    expect(op.constraints.filter((c) => c.kind !== 'invalid' && !c.exercised)).toEqual([]);
  });

  it('says why a constraint is not generated (reference data, webhook fields, path ids)', () => {
    const landed = coverageOf(contract, new Map()).operations.find((o) => o.operationId === 'calculateLandedCost')!;
    expect(find(landed, 'body originCountry', 'pattern').note).toMatch(/^not generated: ISO 3166-1/);
    const batch = coverageOf(contract, new Map()).operations.find((o) => o.operationId === 'enqueueSimaBatch')!;
    expect(find(batch, 'body webhookSecret', 'maxLength').note).toMatch(/webhook checks/);
    expect(find(batch, 'body screeningAuthority', 'normalization', 'screening-authority.case-insensitive (spec 4.2, 4.3, 4.4)').note).toBeUndefined();
  });

  it('keeps what each run sent apart (keyed by the run options the checks share)', () => {
    const run = { contract: 'v1.3.0' } as TargetOptions;
    expect(coverageOfRun(run)).toBeUndefined();
    recordSent(run, 'listJobs', request({ limit: '1' }));
    const op = coverageOfRun(run)!.operations.find((o) => o.operationId === 'listJobs')!;
    expect(find(op, 'query limit', 'minimum')).toMatchObject({ exercised: true, count: 1 });
    expect(coverageOfRun({ contract: 'v1.3.0' } as TargetOptions)).toBeUndefined();
  });

  it('gives every constraint not exercised a reason, and counts the constraints not exercised per cause', () => {
    const report = coverageOf(contract, new Map([['listJobs', coveringRequests(contract, listJobs, {}, 1)]]), { profile: 'sandbox', seed: 1 });
    const missed = report.operations.flatMap((o) => o.constraints).filter((c) => !c.exercised);
    expect(missed.length).toBeGreaterThan(0);
    expect(missed.filter((c) => !c.reason)).toEqual([]);
    expect(report.totals.notExercised).toBe(missed.length);
    expect(Object.values(report.totals.notExercisedBy).reduce((a, b) => a + b, 0)).toBe(missed.length);
    // listJobs' invalid side was not sent: its check stopped (here: never sent it); other operations did not run.
    expect(find(listJobsOf(new Map([['listJobs', [request({ limit: '1' })]]])), 'query limit', 'invalid', 'above-maximum').reason).toBeDefined();
    expect(report.operations.find((o) => o.operationId === 'getJob')!.constraints.every((c) => c.reason?.startsWith('not run:'))).toBe(true);
  });

  it('counts a request still answered 429 as rate limited, not as exercising anything', () => {
    const op = coverageOf(contract, new Map([['listJobs', [{ spec: request({ limit: '100' }), status: 429 }]]]), { profile: 'sandbox', seed: 1 }).operations.find((o) => o.operationId === 'listJobs')!;
    expect(op.requests).toBe(1);
    expect(find(op, 'query limit', 'maximum')).toMatchObject({ exercised: false, count: 0, rateLimited: 1, reason: REASONS.rateLimited(1) });
  });

  it('says why an invalid-input constraint is never sent: no request can carry it, or it is sandbox-defined outside the simulator profile', () => {
    const upload = prepare(contract, operationInputs(contract.doc, contract.operation('uploadSimaScreeningFile')!), 1);
    const all = negativeCases(contract, upload, 1);
    const sent = new Map([['uploadSimaScreeningFile', [exampleRequest(upload), ...all.map((c) => c.spec)]]]);
    const sandbox = coverageOf(contract, sent, { profile: 'sandbox', seed: 1 }).operations.find((o) => o.operationId === 'uploadSimaScreeningFile')!;
    // A header that cannot be text of the wrong type, a form that cannot carry a non-object body.
    expect(find(sandbox, 'header Idempotency-Key', 'invalid', 'wrong-type').reason).toMatch(/^not sendable: /);
    expect(find(sandbox, 'body (body)', 'invalid', 'wrong-type').reason).toBe(DROP_REASONS.form);
    // Every case built was sent, so every other invalid constraint was exercised.
    expect(sandbox.constraints.filter((c) => c.kind === 'invalid' && !c.exercised && !c.reason?.startsWith('not sendable:'))).toEqual([]);
    // The orders upload's ingestMode values are the spec's (4.3: PATCH or SNAPSHOT): its invalid side is sent in every profile.
    const orders = prepare(contract, operationInputs(contract.doc, contract.operation('uploadOrdersFile')!), 1);
    expect(negativeCases(contract, orders, 1).filter((c) => c.target === 'ingestMode').some((c) => c.spec.sandboxDependent)).toBe(false);
    // A claim submission's `notes` bound is the sandbox's (the field is sandbox-defined): its invalid side is sent
    // only in the simulator profile, and elsewhere says so.
    const claims = prepare(contract, operationInputs(contract.doc, contract.operation('createClaimSubmission')!), 1);
    const notesCases = negativeCases(contract, claims, 1).filter((c) => c.target === 'notes');
    expect(notesCases.length).toBeGreaterThan(0);
    expect(notesCases.some((c) => c.spec.sandboxDependent)).toBe(true);
    const notesInvalid = (profile: 'sandbox' | 'simulator') =>
      coverageOf(contract, new Map([['createClaimSubmission', [exampleRequest(claims)]]]), { profile, seed: 1 })
        .operations.find((o) => o.operationId === 'createClaimSubmission')!
        .constraints.filter((c) => c.input === 'body notes' && c.kind === 'invalid');
    expect(notesInvalid('sandbox').map((c) => c.reason)).toContain(REASONS.sandboxDefined);
    expect(notesInvalid('simulator').map((c) => c.reason)).not.toContain(REASONS.sandboxDefined);
  });
});
