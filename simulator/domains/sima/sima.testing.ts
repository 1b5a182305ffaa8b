// A SIMA domain wired to real jobs and a recording stand-in for the webhooks domain, for unit tests.
import type { RequestBody } from '../../../contracts/generated/index.js';
import type { KernelDeps } from '../../kernel/deps.js';
import { invalidRequest } from '../../kernel/errors.js';
import { createTestDeps } from '../../testing/kernel.js';
import { createJobs, type JobRecord } from '../jobs/index.js';
import { SLOW_JOBS, handlerRequest, principalOf, until } from '../jobs/jobs.testing.js';
import { tenantStore } from '../tenants/index.js';
import type { WebhookConfig, WebhooksDomain } from '../webhooks/index.js';
import { createSima } from './index.js';
import { simaResultStore } from './sima-result.store.js';
import { allowTargets } from '../webhooks/allow-targets.js';
import { resolverHosts } from '../webhooks/resolver-hosts.js';

/** Accepts `webhookUrl` (https only) and records what was attached. */
function recordingWebhooks() {
  const attached: Array<{ jobId: string; tenantId: string; config: WebhookConfig }> = [];
  const webhooks = {
    name: 'webhooks',
    handlers: {},
    parseConfig(body: unknown): WebhookConfig | null {
      const url = (body as { webhookUrl?: string }).webhookUrl;
      if (url === undefined) return null;
      if (!url.startsWith('https://') || url.includes('127.0.0.1')) throw invalidRequest('webhookUrl targets a blocked address', 'webhookUrl');
      return { url, secret: null, events: ['job.completed', 'job.failed'] };
    },
    async attach(jobId: string, tenantId: string, config: WebhookConfig) {
      attached.push({ jobId, tenantId, config });
    },
    async jobFinished() {},
    deliveries: async () => [],
    // Control API tools (tfas trigger / resend): the SIMA domain never calls them.
    trigger: () => Promise.reject(new Error('the SIMA domain does not trigger webhook samples')),
    redeliver: () => Promise.reject(new Error('the SIMA domain does not redeliver webhooks')),
    allowTargets: allowTargets([]),
    resolverHosts: resolverHosts(),
  } satisfies WebhooksDomain;
  return { webhooks, attached };
}

/** A POST /api/sima/batch body as the contract types it. */
export type SimaBatchBody = RequestBody<'enqueueSimaBatch'>;

export async function simaSetup(deps?: KernelDeps) {
  deps ??= await createTestDeps({ config: SLOW_JOBS });
  const tenants = tenantStore(deps);
  const tenantId = (await tenants.create()).id;
  const jobs = createJobs(deps, { tenants });
  const { webhooks, attached } = recordingWebhooks();
  const sima = createSima(deps, { jobs, webhooks, tenants });
  const results = simaResultStore(deps);

  /** Calls the handler directly: the body must be one the contract's validation lets through. */
  const enqueue = async (body: SimaBatchBody, tenant = tenantId) => sima.handlers.enqueueSimaBatch!(handlerRequest('enqueueSimaBatch', principalOf(tenant), { body }));

  /** Enqueues a batch and moves the virtual clock until its job has finished. */
  const runBatch = async (body: SimaBatchBody, tenant = tenantId): Promise<JobRecord> => {
    const response = await enqueue(body, tenant);
    const { jobId } = response.body as { jobId: string };
    deps.clock.advance(SLOW_JOBS.jobStartDelayMs);
    await until(async () => (await jobs.get(tenant, jobId))!.status !== 'PENDING', 'the job to start');
    deps.clock.advance(SLOW_JOBS.jobProcessingMs);
    await until(async () => ['COMPLETED', 'FAILED'].includes((await jobs.get(tenant, jobId))!.status), 'the job to finish');
    return (await jobs.get(tenant, jobId))!;
  };

  return { deps, tenants, tenantId, jobs, sima, results, attached, enqueue, runBatch };
}
