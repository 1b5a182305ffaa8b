// What the ship checks share (spec 1 workflow C, 2.6, 2.7, 3.3, 3.4, 4.3, 4.5): a tenant with findings (a
// fresh tenant of the control API, its limits lifted; the primary tenant otherwise), an invoice file
// whose packages a freight audit flags (a tracking number billed twice, a residential surcharge on a
// commercial consignee, an address-correction fee on an address delivered to unchanged), polled to the
// end of its job, and reads honouring 429. Only what the spec names is judged: the finding's
// workflowStatus and explanation fields, the submission's status, envelopes and timestamps.
import type { AdminClient } from '../../harness/admin.js';
import { pageItems, withFindingIds } from '../../harness/locate.js';
import type { CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import type { Exchange } from '../../harness/types.js';
import { isRateLimited, receiptJobId, settleJobs, sleep } from '../jobs-support.js';

export const FINDINGS_PATH = '/api/ship/findings';
export const SUBMISSIONS_PATH = '/api/ship/claims/submissions';
const UPLOAD_PATH = '/api/ship/upload';

/** spec 2.6: the finding workflow states. */
export const FINDING_STATES = ['OPEN', 'DISPUTED', 'SUBMITTED', 'CARRIER_REVIEW', 'CREDITED', 'REJECTED', 'DISMISSED'] as const;

export interface Finding {
  id: string;
  workflowStatus?: unknown;
  claimEligibility?: unknown;
  claimBlockerReason?: unknown;
  carrier?: unknown;
  [key: string]: unknown;
}

export interface Problem {
  rule: string;
  message: string;
  exchange?: Exchange;
}
export const isProblem = (value: unknown): value is Problem => typeof value === 'object' && value !== null && 'rule' in value && 'message' in value;

let fileCounter = 0;
const RUN = Date.now().toString(36).toUpperCase();

/** An invoice CSV (FedEx "All Columns" names) with `packages` flagged packages, unique per call. */
export function invoiceFile(packages = 3): { name: string; content: string } {
  const n = ++fileCounter;
  const ship = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
  const invoiceDate = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
  const header = 'Carrier,Bill to Account Number,Invoice Date,Invoice Number,Express or Ground Tracking ID,Service Type,Shipment Date,Zone Code,Actual Weight Amount,Rated Weight Amount,Transportation Charge Amount,Net Charge Amount,Recipient Address Line 1,Original Recipient Address Line 1,Recipient Address Type,Tracking ID Charge Description_1,Tracking ID Charge Amount_1';
  const rows: string[] = [];
  for (let i = 0; i < packages; i++) {
    const tracking = `79${String(n).padStart(4, '0')}${String(i).padStart(4, '0')}${RUN.slice(-2)}`;
    const invoice = `CF${RUN}${n}`;
    const kind = i % 3;
    if (kind === 0) rows.push(`FEDEX,FICT612345678,${invoiceDate},${invoice},${tracking},FedEx Ground,${ship},5,9,10,18.42,24.87,1 Main St,1 Main St,COMMERCIAL,Residential Delivery,6.45`);
    if (kind === 1) rows.push(`FEDEX,FICT612345678,${invoiceDate},${invoice},${tracking},FedEx Ground,${ship},5,9,10,18.42,40.92,200 Bay Rd,200 BAY RD,COMMERCIAL,Address Correction,22.50`);
    if (kind === 2) {
      rows.push(`FEDEX,FICT612345678,${invoiceDate},${invoice},${tracking},FedEx Ground,${ship},5,9,10,18.42,18.42,5 Elm St,5 Elm St,COMMERCIAL,,`);
      rows.push(`FEDEX,FICT612345678,${invoiceDate},${invoice}B,${tracking},FedEx Ground,${ship},5,9,10,18.42,18.42,5 Elm St,5 Elm St,COMMERCIAL,,`);
    }
  }
  return { name: `conformance-invoice-${RUN}-${n}.csv`, content: `${header}\n${rows.join('\n')}\n` };
}

export interface ShipTenant {
  client: ConformanceClient;
  tenantId?: string;
  fresh: boolean;
}

/** A fresh tenant (control API) with its rate buckets and queue caps lifted, else the primary tenant. */
async function shipTenant(ctx: Pick<CheckContext, 'client' | 'admin'>, name: string): Promise<ShipTenant> {
  if (!ctx.admin) return { client: ctx.client, fresh: false };
  const created = await ctx.admin.createTenant({ name });
  const big = { limit: 100_000, windowMs: 60_000 };
  await ctx.admin.updateSettings(created.tenantId, { rateLimits: { read: big, write: big, upload: big }, queueCaps: { total: 100_000, upload: 100_000 } });
  return { client: ctx.client.withApiKey(created.integrationKey), fresh: true, tenantId: created.tenantId };
}

/** A call (429s are waited out by the client, harness/transport.ts). */
export function call(client: ConformanceClient, method: string, path: string, options: Parameters<ConformanceClient['call']>[2] = {}, _admin?: AdminClient): Promise<Exchange> {
  return client.call(method, path, options);
}

/** Uploads an invoice file and polls its job to the end; the findings it created come next. */
export async function uploadInvoice(client: ConformanceClient, admin: AdminClient | undefined, file = invoiceFile()): Promise<{ jobId: string; job: Exchange } | Problem> {
  const form = new FormData();
  form.append('file', new Blob([file.content], { type: 'text/csv' }), file.name);
  const accepted = await call(client, 'POST', UPLOAD_PATH, { form }, admin);
  const jobId = receiptJobId(accepted);
  if (accepted.response.status !== 202 || !jobId) return { rule: 'ship-upload-accepted', message: `POST ${UPLOAD_PATH} with a new invoice file answered ${accepted.response.status}, not 202 with a jobId (spec 4.3)`, exchange: accepted };
  const settled = await settleJobs(client, [jobId], { admin, realMs: 20_000 });
  const last = await call(client, 'GET', `/api/jobs/${jobId}`, {}, admin);
  const status = (last.response.body as { status?: unknown } | null)?.status;
  if (status !== 'COMPLETED') return { rule: 'ship-upload-completes', message: `the ship_upload job ${jobId} is ${String(status)} ${settled.settled ? '' : 'after polling '}(spec 3.1); findings need a COMPLETED upload`, exchange: last };
  return { jobId, job: last };
}

/** Every finding of the tenant (limit 500, offset paging up to 5 pages), optionally in one state. */
export async function listFindings(client: ConformanceClient, admin?: AdminClient, status?: string): Promise<{ findings: Finding[]; exchange: Exchange } | Problem> {
  const findings: Finding[] = [];
  let exchange: Exchange | undefined;
  for (let offset = 0; offset < 2500; offset += 500) {
    const path = `${FINDINGS_PATH}?limit=500&offset=${offset}${status ? `&workflowStatus=${status}` : ''}`;
    exchange = await call(client, 'GET', path, {}, admin);
    // The finding page's keys are the sandbox's (spec 4.5 "response field list: not shown"): found by what they hold.
    const rows = pageItems(exchange.response.body, 'findings') as Finding[] | undefined;
    if (exchange.response.status !== 200 || !rows) return { rule: 'findings-served', message: `GET ${path} answered ${exchange.response.status} without a list of findings (spec 4.5)`, exchange };
    // The record's identifier is named by the deployment (spec 2.6 "not shown"): read under `id` from here on.
    findings.push(...withFindingIds(rows));
    if (rows.length < 500) break;
  }
  return { findings, exchange: exchange! };
}

/** A fresh tenant with an audited invoice: its findings (at least `min`), or the problem. */
export async function tenantWithFindings(ctx: CheckContext, name: string, packages = 3, min = 1): Promise<{ tenant: ShipTenant; findings: Finding[] } | Problem> {
  const tenant = await shipTenant(ctx, name);
  const uploaded = await uploadInvoice(tenant.client, ctx.admin, invoiceFile(packages));
  if (isProblem(uploaded)) return uploaded;
  const listed = await listFindings(tenant.client, ctx.admin);
  if (isProblem(listed)) return listed;
  if (listed.findings.length < min) {
    return { rule: 'findings-raised', message: `an invoice with ${packages} overbilled package(s) (a tracking number billed twice, residential surcharges on commercial consignees, address-correction fees on unchanged addresses) left ${listed.findings.length} finding(s) (workflow C: upload, then list findings)`, exchange: listed.exchange };
  }
  return { tenant, findings: listed.findings };
}

export const findingAction = (client: ConformanceClient, id: string, action: string, admin?: AdminClient, body?: unknown) =>
  call(client, 'POST', `${FINDINGS_PATH}/${id}/${action}`, body === undefined ? {} : { json: body }, admin);
export const submissionAction = (client: ConformanceClient, id: string, action: string, admin?: AdminClient, body?: unknown) =>
  call(client, 'POST', `${SUBMISSIONS_PATH}/${id}/${action}`, body === undefined ? {} : { json: body }, admin);

export const errorOf = (exchange: Exchange) => (exchange.response.body ?? {}) as { code?: unknown; details?: Record<string, unknown> };
export const submissionOf = (exchange: Exchange) => ((exchange.response.body ?? {}) as { submission?: Record<string, unknown> }).submission;

/** The operator close of the simulator's control API (sandbox-defined, spec 3.4 "operator close"). */
export async function closeSubmission(ctx: Pick<CheckContext, 'options'>, tenantId: string, submissionId: string): Promise<number> {
  const res = await fetch(`${ctx.options.baseUrl.replace(/\/versions\/[^/]+$/, '')}/_sim/tenants/${tenantId}/claims/submissions/${submissionId}/close`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.options.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reason: 'conformance run' }),
  });
  await res.text();
  return res.status;
}

export const CONFIRMATION = { source: 'conformance', referenceId: 'FICT-CONF-1', confirmedAt: new Date().toISOString() };
