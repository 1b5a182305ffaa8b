// Helpers for the trade feed tests over HTTP: upload a sample feed (fixtures/trade/), run its jobs to their
// end on the virtual clock, read a session, its SKUs and issues, and the control API's acknowledgement.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { CheckedResponse, TestSandbox } from '../../testing/contract-client.js';
import { finishJob, form } from '../sima/upload.testing.js';

export const sampleFeed = (name: string, ext: 'csv' | 'xlsx' = 'csv') => ({ file: readFileSync(`fixtures/trade/${name}.${ext}`), fileName: `${name}.${ext}` });

export const DEFAULTS = { originCountry: 'CN', defaultDestinationCountry: 'CA' };

export const uploadFeed = (sandbox: TestSandbox, file: Buffer | null, fileName: string, fields: Record<string, string> = DEFAULTS, headers: Record<string, string> = {}, token?: string) =>
  sandbox.call('POST', '/api/trade/feeds/upload', { form: form(file, fileName, fields), headers, ...(token ? { token } : {}) });

/** Uploads a sample feed and runs its normalization to the end; answers the session detail. */
export async function normalizedFeed(sandbox: TestSandbox, name: string, ext: 'csv' | 'xlsx' = 'csv', fields = DEFAULTS) {
  const { file, fileName } = sampleFeed(name, ext);
  const accepted = await uploadFeed(sandbox, file, fileName, fields);
  expect(accepted.status, accepted.text).toBe(202);
  const job = await finishJob(sandbox, accepted.body.jobId);
  const session = await sandbox.call('GET', `/api/trade/feeds/${accepted.body.sessionId}`);
  expect(session.status).toBe(200);
  return { sessionId: accepted.body.sessionId as string, jobId: accepted.body.jobId as string, job, session: session.body };
}

export const sessionOf = async (sandbox: TestSandbox, sessionId: string) => (await sandbox.call('GET', `/api/trade/feeds/${sessionId}`)).body;
export const skusOf = async (sandbox: TestSandbox, sessionId: string, query = 'limit=500') => (await sandbox.call('GET', `/api/trade/feeds/${sessionId}/skus?${query}`)).body;
export const issuesOf = async (sandbox: TestSandbox, sessionId: string, query = 'limit=500') => (await sandbox.call('GET', `/api/trade/feeds/${sessionId}/issues?${query}`)).body;

export const acknowledge = (sandbox: TestSandbox, sessionId: string, issueKeys?: string[]): Promise<CheckedResponse> =>
  sandbox.admin('POST', `/_sim/tenants/${sandbox.identity.tenantId}/trade/feeds/${sessionId}/issues/acknowledge`, issueKeys ? { issueKeys } : {});

/** The direct-apply rows of spec 4.4: each SKU with providedHs, `providedHs` -> hsCode, `productName` -> name. */
export const directRows = (skus: Array<{ sku: string; productName: string; providedHs: string | null; destinationCountry?: string }>) =>
  skus.filter((s) => s.providedHs).map((s) => ({ sku: s.sku, name: s.productName, hsCode: s.providedHs!, ...(s.destinationCountry ? { destinationCountry: s.destinationCountry } : {}) }));

export { finishJob };
