// The committed sample files of fixtures/freight/ (CSV and XLSX) uploaded as an integrator would: between
// them they raise every finding type of the audit engine, and the generator writes a large file that reads.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateShipmentFile } from '#fixtures/freight/generate-shipments.js';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS } from '../jobs/jobs.testing.js';
import { AUDIT_RULES } from './audit/engine.js';
import { uploadAndFinish } from './ship.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});
const fixture = (name: string) => readFileSync(path.join('fixtures/freight', name));

describe('the freight fixtures', () => {
  it('raise every finding type from the CSV and XLSX samples with their agreements', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const types: Record<string, number> = {};
    for (const [agreement, invoice] of [['agreement-fedex.csv', 'shipments-fedex.csv'], ['agreement-ups.xlsx', 'shipments-ups.xlsx']]) {
      expect((await uploadAndFinish(sandbox, '/api/carrier/agreements/upload', fixture(agreement), agreement)).status).toBe('COMPLETED');
      const job = await uploadAndFinish(sandbox, '/api/ship/upload', fixture(invoice), invoice);
      expect(job).toMatchObject({ status: 'COMPLETED', reconciliation: { rowsUploaded: 13, rowsSkipped: 0 } });
      for (const [type, n] of Object.entries(job.result.findingsByType as Record<string, number>)) types[type] = (types[type] ?? 0) + n;
    }
    expect(Object.keys(types).sort()).toEqual(AUDIT_RULES.map((r) => r.type).sort());
  });

  it('generates a large shipment file whose flagged rows the audit finds', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await uploadAndFinish(sandbox, '/api/carrier/agreements/upload', fixture('agreement-fedex.csv'), 'agreement.csv');
    const out = path.join(os.tmpdir(), `shipments-${process.pid}.csv`);
    const generated = await generateShipmentFile(2_000, out, new Date(sandbox.sim.deps.clock.now()));
    const job = await uploadAndFinish(sandbox, '/api/ship/upload', readFileSync(out), 'generated.csv');
    expect(job).toMatchObject({ status: 'COMPLETED', reconciliation: { rowsUploaded: 2_000 }, outcomes: { atRisk: generated.flagged } });
  }, 60_000);
});
