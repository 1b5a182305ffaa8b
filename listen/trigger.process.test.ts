// `tfas trigger` and `tfas resend` (issue 29 item 7, second half) against a started sandbox, beside the
// receiver `tfas listen` runs (listen.ts): a sample event for a job arrives signed and is printed delivered;
// a past delivery sent again arrives under a new id; a handler's refusal is told with the next attempt's
// time and exit 1; the sandbox's refusals with its envelope's code and message and exit 3; a mistyped
// event with the usage and exit 2; and `--help` of each.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTarget, type TestTarget } from '../conformance/testing/simulator.js';
import { startListener, type Delivery, type Listener } from './listen.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECRET = 'trigger-test-secret';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

let target: TestTarget;
let handler: Server;
/** What the client's handler answers (a test switches it to a refusal). */
let handlerStatus = 200;
let listener: Listener;
let jobId: string;
let realDelivery: Delivery;

/** `tfas <args>` run to its exit, with the sandbox's admin token in its environment. */
function tfas(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/tfas.js', ...args], { cwd: ROOT, env: { ...process.env, SIM_ADMIN_TOKEN: target.adminToken, SANDBOX_URL: target.url }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function until<T>(what: string, probe: () => T | undefined, ms = 60_000): Promise<T> {
  for (const deadline = Date.now() + ms; ; await new Promise((r) => setTimeout(r, 100))) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms`);
  }
}

const deliveryNamed = (id: string) => until<Delivery>(`delivery ${id} at the listener`, () => listener.deliveries().find((d) => d.deliveryId === id));

beforeAll(async () => {
  // No allow list at start: the listener allows itself, as a user's `tfas listen` does.
  target = await startTestTarget({ label: 'trigger-test', env: { SIM_WEBHOOK_ALLOW_TARGETS: undefined } });
  handler = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(handlerStatus).end());
  });
  await new Promise<void>((resolve) => handler.listen(0, '127.0.0.1', () => resolve()));
  listener = await startListener({ baseUrl: target.url, adminToken: target.adminToken, forwardTo: `http://127.0.0.1:${(handler.address() as AddressInfo).port}/hooks`, secret: SECRET });
  // A job enqueued with the listener's webhookUrl, and its real job.completed delivery.
  const token = await fetch(`${target.url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': target.apiKey } });
  const bearer = ((await token.json()) as { access_token: string }).access_token;
  const form = new FormData();
  form.set('file', new Blob([readFileSync(path.join(ROOT, 'fixtures', 'samples', 'sima-screening.xlsx'))]), 'sima-screening.xlsx');
  form.set('webhookUrl', listener.url);
  form.set('webhookSecret', SECRET);
  const upload = await fetch(`${target.url}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${bearer}` }, body: form });
  expect(upload.status).toBe(202);
  jobId = ((await upload.json()) as { jobId: string }).jobId;
  realDelivery = await until('the job.completed delivery', () => listener.deliveries().find((d) => d.body.includes(jobId)));
  expect(realDelivery.event).toBe('job.completed');
}, 120_000);

afterAll(async () => {
  await listener?.close();
  await new Promise<void>((resolve) => (handler ? handler.close(() => resolve()) : resolve()));
  await target?.close();
});

describe('tfas trigger and tfas resend against a started sandbox', () => {
  let sampleId: string;

  it('tfas trigger job.failed --job ID: the sample reaches the listener signed, as job.failed of that job, and is printed delivered', async () => {
    const run = await tfas(['trigger', 'job.failed', '--job', jobId]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const sent = new RegExp(`^job\\.failed sample for job ${jobId} to ${listener.url.replace(/[.]/g, '\\.')}: delivery (${UUID.source}) \\(the job itself is unchanged\\)\\n`).exec(run.stdout);
    expect(sent, run.stdout).not.toBeNull();
    sampleId = sent![1];
    expect(run.stdout).toContain('attempt 1: answered 200: delivered\n');
    const arrived = await deliveryNamed(sampleId);
    expect(arrived).toMatchObject({ event: 'job.failed', attempt: '1', signature: { valid: true }, forwarded: { status: 200 } });
    expect(JSON.parse(arrived.body)).toMatchObject({ id: sampleId, event: 'job.failed', job: { id: jobId, status: 'FAILED', result: null } });
  }, 120_000);

  it('tfas resend DELIVERY_ID: the same event and job again under a new delivery id', async () => {
    const run = await tfas(['resend', sampleId]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const sent = new RegExp(`^job\\.failed of delivery ${sampleId} sent again to \\S+: delivery (${UUID.source})\\n`).exec(run.stdout);
    expect(sent, run.stdout).not.toBeNull();
    expect(sent![1]).not.toBe(sampleId);
    const again = await deliveryNamed(sent![1]);
    const first = await deliveryNamed(sampleId);
    expect(again.signature).toMatchObject({ valid: true });
    expect(JSON.parse(again.body).job).toEqual(JSON.parse(first.body).job);
  }, 120_000);

  it("tells a handler's refusal with the time of attempt 2 and exits 1; the sandbox's refusals with its envelope and exit 3", async () => {
    handlerStatus = 503;
    try {
      const refused = await tfas(['trigger', 'job.completed', '--job', jobId]);
      expect(refused.code, refused.stdout + refused.stderr).toBe(1);
      expect(refused.stdout).toMatch(/\nattempt 1: answered 503; attempt 2 at \S+Z \(tenant clock\), then as spec 6 rule 3 says \(4 attempts at most\)\n$/);
      const pendingId = UUID.exec(refused.stdout.split(': delivery ')[1])![0];
      const pending = await tfas(['resend', pendingId]);
      expect(pending.code).toBe(3);
      expect(pending.stderr).toContain(`answered 409 ACTION_NOT_ALLOWED: delivery ${pendingId} is still pending`);
    } finally {
      handlerStatus = 200;
    }
    const unknown = await tfas(['trigger', 'job.completed', '--job', '00000000-0000-4000-8000-000000000000', '--wait', '0']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('answered 404 NOT_FOUND: no job 00000000-0000-4000-8000-000000000000 has a webhook');
  }, 120_000);

  it('refuses a mistyped event or a missing --job with the usage and exit 2, and prints each --help', async () => {
    const [mistyped, noJob, triggerHelp, resendHelp] = await Promise.all([
      tfas(['trigger', 'job.finished', '--job', jobId]),
      tfas(['trigger', 'job.completed']),
      tfas(['trigger', '--help']),
      tfas(['resend', '--help']),
    ]);
    expect(mistyped.code).toBe(2);
    expect(mistyped.stderr).toMatch(/^trigger: job\.finished is not an event of spec 6: job\.completed or job\.failed\n\nUsage: tfas trigger/);
    expect(noJob.code).toBe(2);
    expect(noJob.stderr).toMatch(/^trigger: --job JOB_ID is required\n/);
    expect(triggerHelp.code).toBe(0);
    for (const word of ['Usage: tfas trigger <event> --job JOB_ID', 'job.completed', 'job.failed', '--tenant', '--base-url', '--admin-token', '--wait', 'SIM_ADMIN_TOKEN', 'Sandbox-defined', 'tfas resend']) expect(triggerHelp.stdout).toContain(word);
    expect(resendHelp.code).toBe(0);
    for (const word of ['Usage: tfas resend DELIVERY_ID', 'new delivery id', 'spec 6 rule 3', '--wait', 'Exit codes']) expect(resendHelp.stdout).toContain(word);
    const top = await tfas(['--help']);
    expect(top.stdout).toMatch(/\n {2}trigger {9}send a sample webhook event/);
    expect(top.stdout).toMatch(/\n {2}resend {10}send a past webhook delivery again/);
  }, 120_000);
});
