// Helpers for the upload tests over HTTP: multipart forms, small CSV and XLSX files built in memory, the
// sample files of fixtures/catalog/, and running a job to its end on the virtual clock (POST /_sim/clock/advance).
import { readFileSync } from 'node:fs';
import type request from 'supertest';
import type { TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS, until } from '../jobs/jobs.testing.js';
import { catalogStore } from './catalog.store.js';

export const SAMPLE_CSV = 'fixtures/catalog/sample-catalog.csv';
export const SAMPLE_XLSX = 'fixtures/catalog/sample-catalog-extended.xlsx';
/** The SKUs of both sample files (scripts/make-catalog-samples.ts), in file order. */
export const SAMPLE_FILE_SKUS = ['UDS-SOFABED-GRY-3S', 'UDS-ARMCHAIR-BGE', 'UDS-LOVESEAT-OAT', 'RBR-10M-6M-TR', 'NAIL-CL-16D-50LB', 'NAIL-RF-11GA-COIL', 'LMBR-SPF-2X4-8', 'TEE-CTN-BLK-M'];

export const sampleFile = (path: string) => readFileSync(path);

export { csv, xlsx } from '../../testing/files.js';

/** A multipart form: `file` (content and name), then text fields (an array repeats the field). */
export function form(file: Buffer | null, fileName: string, fields: Record<string, string | string[]> = {}) {
  return (req: request.Test) => {
    let out = req;
    for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) out = out.field(name, v);
    return file ? out.attach('file', file, fileName) : out;
  };
}

/** Moves the sandbox clock past the job's start delay and its processing time; answers GET /api/jobs/{id}. */
export async function finishJobs(sandbox: TestSandbox, jobIds: string[], timeoutMs = 10_000) {
  const { sim, identity } = sandbox;
  const statuses = async () => Promise.all(jobIds.map(async (id) => (await sim.domains.jobs.get(identity.tenantId, id))?.status));
  await sandbox.admin('POST', '/_sim/clock/advance', { seconds: SLOW_JOBS.jobStartDelayMs / 1000 });
  await until(async () => (await statuses()).every((s) => s !== 'PENDING'), 'the jobs to start', timeoutMs);
  await sandbox.admin('POST', '/_sim/clock/advance', { seconds: SLOW_JOBS.jobProcessingMs / 1000 });
  await until(async () => (await statuses()).every((s) => s === 'COMPLETED' || s === 'FAILED'), 'the jobs to end', timeoutMs);
  return Promise.all(jobIds.map(async (id) => (await sandbox.call('GET', `/api/jobs/${id}`)).body));
}

export const finishJob = async (sandbox: TestSandbox, jobId: string, timeoutMs?: number) => (await finishJobs(sandbox, [jobId], timeoutMs))[0];

/** The tenant catalog of the sandbox's default tenant, read through its store. */
export const catalogOf = (sandbox: TestSandbox) => {
  const catalog = catalogStore(sandbox.sim.deps);
  return { get: (sku: string) => catalog.get(sandbox.identity.tenantId, sku), all: () => catalog.all(sandbox.identity.tenantId) };
};
