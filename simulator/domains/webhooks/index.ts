// What the webhooks domain offers (spec 6): parsing webhook configuration off enqueue bodies, remembering
// it per job, and delivering job.completed / job.failed with signatures, retries and SSRF protection; and,
// sandbox-defined for the control API, a sample delivery of a job's event and a past delivery sent again.
import type { KernelDeps } from '../../kernel/deps.js';
import { defineDomain } from '../domain.js';
import type { JobsDomain } from '../jobs/index.js';
import { allowTargets } from './allow-targets.js';
import { ATTEMPT_TIMEOUT_MS } from './delivery.machine.js';
import { toDeliveryView } from './delivery.response.js';
import { deliveriesOnJobEnd } from './deliveries.js';
import { resolverHosts } from './resolver-hosts.js';
import { createDispatcher } from './dispatcher.js';
import { secretBox } from './secret-box.js';
import { systemResolve } from './transport.js';
import { parseWebhookConfig } from './webhook-config.js';
import { webhookStore } from './webhook.store.js';
import { WEBHOOKS_DEFECTS, WEBHOOKS_VARIANTS } from './webhooks.defects.js';
import type { WebhooksDomain, WebhooksOptions } from './webhooks.types.js';

export type { WebhookConfig, WebhooksDomain, WebhooksOptions } from './webhooks.types.js';

export function createWebhooks(deps: KernelDeps, options: WebhooksOptions = {}): WebhooksDomain {
  const store = webhookStore(deps);
  const secrets = secretBox(deps);
  const allowList = allowTargets(deps.config.webhookAllowTargets);
  const hosts = resolverHosts();
  const dispatcher = createDispatcher(deps, store, secrets, { resolve: hosts.resolveWith(options.resolve ?? systemResolve), timeoutMs: options.timeoutMs ?? ATTEMPT_TIMEOUT_MS, allowTargets: allowList.list });
  const made = deliveriesOnJobEnd(deps, store, dispatcher);
  return {
    name: 'webhooks',
    handlers: {}, // webhooks have no public operation: they are calls the service makes
    parseConfig: (body) => parseWebhookConfig(body, allowList.list()),
    allowTargets: allowList,
    resolverHosts: hosts,
    async attach(jobId, tenantId, config) {
      await store.putConfig({
        id: jobId,
        tenantId,
        url: config.url,
        events: [...config.events],
        secret: config.secret === null ? null : await secrets.seal(config.secret, jobId),
        createdAt: deps.clocks.of(tenantId).nowIso(),
      });
    },
    jobFinished: made.jobFinished,
    trigger: (input) => made.trigger(options.sampleJob ?? (async () => undefined), input),
    redeliver: made.redeliver,
    deliveries: async (filter = {}) => (await store.list(filter)).map(toDeliveryView),
    start: () => dispatcher.start(),
    stop: () => dispatcher.stop(),
  };
}

export const webhooksDomain = defineDomain({
  name: 'webhooks',
  needs: ['jobs'],
  create(deps, peers: { jobs: JobsDomain }) {
    // The jobs domain describes a job for a sample delivery (`tfas trigger`), as it describes a finished one.
    const webhooks = createWebhooks(deps, { sampleJob: (tenantId, jobId, status) => peers.jobs.sampleFinished(tenantId, jobId, status) });
    // spec 6: a finished job's job.completed / job.failed deliveries.
    peers.jobs.onFinished((job) => webhooks.jobFinished(job));
    return webhooks;
  },
  defects: [...WEBHOOKS_DEFECTS, ...WEBHOOKS_VARIANTS],
  responseDefects: () => [],
  testValues: [],
  lifecycles: {},
  purgeTenant: (deps, tenantId) => webhookStore(deps).purgeTenant(tenantId),
});
