// One bounded large upload (spec 8.3: the cap is 50 MB): a ~49 MB CSV streamed to POST /api/catalog/upload
// and written into the catalog, with the time it takes and the process's peak RSS (the simulator runs in
// this process). Slow, so it runs only with SIM_LARGE_UPLOAD=1:
//   SIM_LARGE_UPLOAD=1 npx vitest run simulator/domains/sima/upload.large-file.test.ts
// The target is a peak under 600 MB, for the server alone: `npm run bench:large` measures that on the
// simulator as a real process with its durable store. Here the test process holds client and server, so
// the assertion is a ceiling that catches a file held in memory, not the target. Measured (Node 20.20,
// 508,715 rows, ~10 s): ~450 MB, of which ~130 MB is this process before the upload and ~165 MB the
// catalog records the in-memory store keeps (every record lives in memory, kernel/store/store.ts; ~323
// bytes a record since issue 15, 475 before).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { writeLargeCatalogCsv } from '../../testing/large-catalog.js';
import { SLOW_JOBS } from '../jobs/jobs.testing.js';
import { finishJob } from './upload.testing.js';

const TARGET_BYTES = 49 * 1024 * 1024;
const RSS_TARGET_MB = 600;
const RSS_CEILING_MB = 1024;

const dir = mkdtempSync(path.join(os.tmpdir(), 'large-upload-'));
let sandbox: TestSandbox | undefined;
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function largeCsv(): Promise<{ file: string; rows: number }> {
  const file = path.join(dir, 'large-catalog.csv');
  return { file, rows: await writeLargeCatalogCsv(file, TARGET_BYTES) };
}

describe.skipIf(process.env.SIM_LARGE_UPLOAD !== '1')('a large catalog upload', () => {
  it('streams a ~49 MB CSV into the catalog and reports its time and peak RSS', async () => {
    const { file, rows } = await largeCsv();
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const started = performance.now();
    try {
      const accepted = await sandbox.call('POST', '/api/catalog/upload', { form: (req) => req.attach('file', file) });
      expect(accepted.status, accepted.text).toBe(202);
      const uploadedMs = performance.now() - started;
      const done = await finishJob(sandbox, accepted.body.jobId, 600_000);
      const totalMs = performance.now() - started;
      peak = Math.max(peak, process.memoryUsage().rss);
      const mb = (n: number) => Math.round(n / 1024 / 1024);
      console.log(
        `large upload: ${mb(statSync(file).size)} MB, ${rows} rows; upload answered in ${(uploadedMs / 1000).toFixed(1)} s, job ${done.status} after ${(totalMs / 1000).toFixed(1)} s; ` +
          `RSS baseline ${mb(baseline)} MB, peak ${mb(peak)} MB (target ${RSS_TARGET_MB} MB ${mb(peak) < RSS_TARGET_MB ? 'met' : 'missed'})`,
      );
      expect(done).toMatchObject({ status: 'COMPLETED', reconciliation: { rowsUploaded: rows, rowsSkipped: 0, rowsDeduplicated: 0, skusFound: rows } });
      expect(mb(peak)).toBeLessThan(RSS_CEILING_MB);
    } finally {
      clearInterval(sampler);
    }
  }, 900_000);
});
