// uploads.binary-named-csv against the simulator run as a process: it passes on a healthy simulator in the
// simulator profile, is skipped without the control API (content sniffing is a sandbox rule, not the spec's),
// each defect of the catalogue meant for it makes it fail, and the bytes it sends are binary by construction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../harness/runner.js';
import type { RunReport } from '../../harness/types.js';
import { defectsCaughtBy, startTestTarget, type TestTarget } from '../../testing/simulator.js';
import { binaryBytes, sandboxUploadChecks } from './binary-content.js';

let target: TestTarget;
beforeAll(async () => {
  target = await startTestTarget({ label: 'binary-csv-test' });
});
afterAll(async () => {
  await target?.close();
});

const describeResults = (report: RunReport) =>
  report.results.map((r) => `${r.id}: ${r.verdict}${r.reason ? ` (${r.reason})` : ''}${r.failures.map((f) => `\n  [${f.rule}] ${f.message.slice(0, 300)}`).join('')}`).join('\n');

describe('the binary bytes sent under .csv', () => {
  it('hold a NUL and start neither a zip nor an OLE2 workbook, for many seeds, the same for the same seed', () => {
    for (let seed = 0; seed < 200; seed++) {
      const bytes = binaryBytes(seed, seed % 6);
      expect(bytes.includes(0), `seed ${seed}`).toBe(true);
      expect([0x50, 0xd0], `seed ${seed}`).not.toContain(bytes[0]);
      expect(binaryBytes(seed, seed % 6)).toEqual(bytes);
    }
  });
});

describe('uploads.binary-named-csv on a healthy simulator', () => {
  it('passes in the simulator profile', async () => {
    const report = await runSuite(target.options(), sandboxUploadChecks);
    expect(report.results.map((r) => r.verdict), describeResults(report)).toEqual(['passed']);
  }, 60_000);

  it('is skipped in the sandbox profile', async () => {
    const report = await runSuite(target.options({ profile: 'sandbox', adminToken: undefined }), sandboxUploadChecks);
    expect(report.results.map((r) => r.verdict)).toEqual(['skipped']);
  }, 30_000);
});

describe('each defect meant for uploads.binary-named-csv makes it fail', () => {
  it.each(defectsCaughtBy(sandboxUploadChecks.map((c) => c.id)))('%s', async (defect, ids) => {
    await target.withDefects([defect], async () => {
      const report = await runSuite(target.options({ only: ids }), sandboxUploadChecks);
      expect(report.results.filter((r) => r.verdict !== 'failed').map((r) => r.id), describeResults(report)).toEqual([]);
    });
  }, 60_000);
});
