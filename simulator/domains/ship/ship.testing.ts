// Helpers for the ship domain's tests over HTTP: the sample invoice and agreement files of
// fixtures/freight/ built in memory (dates inside the dispute windows), uploads run to their end.
import { AGREEMENT_HEADER, SHIPMENT_HEADER, sampleAgreementRows, sampleShipmentRows, toCsv, type SampleRow } from '#fixtures/freight/sample-shipments.js';
import type { TestSandbox } from '../../testing/contract-client.js';
import { finishJob, form } from '../sima/upload.testing.js';

export { form, finishJob } from '../sima/upload.testing.js';

export const shipmentCsv = (rows: SampleRow[]) => Buffer.from(toCsv(SHIPMENT_HEADER, rows.map((r) => r.cells)));
export const agreementCsv = (carrier: 'FEDEX' | 'UPS' = 'FEDEX') => Buffer.from(toCsv(AGREEMENT_HEADER, sampleAgreementRows(carrier)));

/** The sample rows, dated from the sandbox's clock. */
export const sampleRows = (sandbox: TestSandbox, carrier: 'FEDEX' | 'UPS' = 'FEDEX', tag = '') => sampleShipmentRows(new Date(sandbox.sim.deps.clock.now()), carrier, tag);

/** Uploads a file to an upload endpoint and runs its job to the end; answers the job. */
export async function uploadAndFinish(sandbox: TestSandbox, path: string, file: Buffer, name: string, fields: Record<string, string> = {}) {
  const accepted = await sandbox.call('POST', path, { form: form(file, name, fields) });
  if (accepted.status !== 202) throw new Error(`${path} answered ${accepted.status}: ${accepted.text}`);
  return finishJob(sandbox, accepted.body.jobId);
}

/** The agreement and the sample shipment file of a carrier uploaded and audited; answers the ship job. */
export async function auditSamples(sandbox: TestSandbox, carrier: 'FEDEX' | 'UPS' = 'FEDEX') {
  await uploadAndFinish(sandbox, '/api/carrier/agreements/upload', agreementCsv(carrier), `agreement-${carrier}.csv`);
  return uploadAndFinish(sandbox, '/api/ship/upload', shipmentCsv(sampleRows(sandbox, carrier)), `invoice-${carrier}.csv`);
}

/** Every finding of the default tenant (first page of 500). */
export async function allFindings(sandbox: TestSandbox) {
  return (await sandbox.call('GET', '/api/ship/findings?limit=500')).body.findings as Array<Record<string, any>>;
}

/** Lifts the default tenant's rate buckets, for tests that make hundreds of calls within a minute. */
export async function unthrottled(sandbox: TestSandbox) {
  const big = { limit: 1_000_000, windowMs: 60_000 };
  await sandbox.admin('PUT', `/_sim/tenants/${sandbox.identity.tenantId}/settings`, { rateLimits: { read: big, write: big, upload: big } });
}
