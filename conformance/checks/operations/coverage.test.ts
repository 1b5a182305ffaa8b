// The coverage report is filled from what was sent, not from the contract alone: nothing sent, nothing
// exercised; each sent request counts for exactly the constraints its values exercise.
import { describe, expect, it } from 'vitest';
import { loadTargetContract } from '../../harness/contract.js';
import type { TargetOptions } from '../../harness/types.js';
import { coverageOf, coverageOfRun, recordSent, type OperationCoverage } from './coverage.js';
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
});
