// What the three examples share: settings from the environment, the typed client, the webhook receiver,
// waiting for a job (webhook or polling, whichever first), multipart uploads, and a clean exit code.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiError, createSandboxClient, ok, type SandboxApi, type SandboxClient, type Schemas } from './client.js';
import { pollUntil } from './poll.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhooks.js';

export interface ExampleContext {
  api: SandboxApi;
  client: SandboxClient;
  webhooks: WebhookReceiver;
  log: (line: string) => void;
  step: (title: string) => void;
}

/** The settings an integrator gives (README "Client examples"). */
function readSettings(env: NodeJS.ProcessEnv = process.env) {
  const baseUrl = env.SANDBOX_URL ?? 'http://127.0.0.1:4010';
  const apiKey = env.SANDBOX_API_KEY;
  if (!apiKey) throw new Error('set SANDBOX_API_KEY to an integration key (npm start prints one; SIM_INTEGRATION_KEY pins it)');
  return {
    baseUrl,
    apiKey,
    webhookHost: env.EXAMPLE_WEBHOOK_HOST ?? '127.0.0.1',
    webhookPort: Number(env.EXAMPLE_WEBHOOK_PORT ?? 0),
    webhookPublicUrl: env.EXAMPLE_WEBHOOK_URL || undefined,
    /** How long to wait for one job or session before giving up. */
    timeoutMs: Number(env.EXAMPLE_TIMEOUT_SECONDS ?? 600) * 1000,
  };
}

/** Runs one example: exit code 0 when it ran to the end, 1 with the reason otherwise. */
export async function runExample(name: string, body: (ctx: ExampleContext) => Promise<void>): Promise<void> {
  const log = (line: string) => console.log(line);
  let webhooks: WebhookReceiver | undefined;
  try {
    const settings = readSettings();
    webhooks = await startWebhookReceiver({ host: settings.webhookHost, port: settings.webhookPort, publicUrl: settings.webhookPublicUrl, log });
    const client = createSandboxClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, log });
    log(`${name}: sandbox ${settings.baseUrl}, webhook receiver ${webhooks.url}`);
    let n = 0;
    await body({ api: client.api, client, webhooks, log, step: (title) => log(`\n${++n}. ${title}`) });
    log(`\n${name}: done`);
  } catch (error) {
    console.error(`\n${name} failed: ${(error as Error).message}`);
    if (error instanceof ApiError && error.body?.details) console.error(`  details: ${JSON.stringify(error.body.details)}`);
    if (error instanceof ApiError && /webhook/i.test(String(error.body?.details?.field ?? ''))) {
      console.error('  the sandbox refused the local webhook receiver: start it with SIM_WEBHOOK_ALLOW_TARGETS=127.0.0.1 (local testing only)');
    }
    process.exitCode = 1;
  } finally {
    await webhooks?.close();
  }
}

type Job = Schemas['Job'];

/** Waits until the job is COMPLETED or FAILED: polls per spec 8.7, woken early by its webhook when one was
 *  subscribed; then waits for that webhook too (what an integration would act on). */
export async function waitForJob(ctx: ExampleContext, id: string, options: { subscribed: boolean }): Promise<Job> {
  const timeoutMs = readSettings().timeoutMs;
  const job = await pollUntil<Job>({
    what: `job ${id}`,
    read: async () => ok(await ctx.api.GET('/api/jobs/{id}', { params: { path: { id } } }), 'read the job'),
    settled: (j) => j.status === 'COMPLETED' || j.status === 'FAILED',
    describe: (j) => `${j.type} ${j.status} ${j.progress}%`,
    wake: options.subscribed ? ctx.webhooks.delivery(id) : undefined,
    log: ctx.log,
    timeoutMs,
  });
  if (options.subscribed) await ctx.webhooks.waitFor(id, Math.min(timeoutMs, 60_000));
  if (job.status === 'FAILED') throw new Error(`job ${id} FAILED: ${job.error}`);
  return job;
}

/** A sample file to upload. */
export interface UploadFile {
  name: string;
  bytes: Buffer;
}

/** The repository root: sample paths are relative to it, whatever the working directory. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export async function readSample(relativePath: string): Promise<UploadFile> {
  const full = path.resolve(ROOT, relativePath);
  return { name: path.basename(full), bytes: await readFile(full) };
}

/**
 * The request options of a multipart upload (spec 4.3: field `file` plus form fields). openapi-typescript
 * types a `format: binary` part as a string; the typed `body` carries the file name there, so every other
 * field is still checked against the contract, and the serializer puts the real bytes in the form.
 */
export function multipart<Form extends { file: string }>(file: UploadFile, fields: Omit<Form, 'file'>) {
  return {
    body: { ...fields, file: file.name } as Form,
    bodySerializer: (body: Form): FormData => {
      const form = new FormData();
      for (const [key, value] of Object.entries(body)) {
        if (key === 'file' || value === undefined || value === null) continue;
        for (const item of Array.isArray(value) ? value : [value]) form.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
      }
      form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
      return form;
    },
  };
}
