// Refusals at enqueue (spec 6 rule 4, decision 10): a literal blocked target is 400 INVALID_REQUEST naming
// the URL field, and no job is created; a plain-HTTP URL with a secret is refused too (decision 10a).
import fc from 'fast-check';
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { Exchange } from '../../harness/types.js';
import { replayOf } from '../../harness/runner.js';
import { postProbeBatch, seeded, send } from './probe.js';

/** The webhook URL field of each configuration form, as details.field may name it. */
const URL_FIELDS = {
  webhookUrl: (field: unknown) => field === 'webhookUrl',
  'webhook.url': (field: unknown) => typeof field === 'string' && /^\/?webhook(\.|\/|\[)url\]?$/.test(field),
};
const SECRET_FIELDS = ['webhookSecret', 'webhook.secret', 'webhook/secret', 'webhook[secret]'];
type Form = keyof typeof URL_FIELDS;

const configure = (form: Form, url: string, secret?: string) =>
  form === 'webhookUrl' ? { webhookUrl: url, ...(secret ? { webhookSecret: secret } : {}) } : { webhook: { url, ...(secret ? { secret } : {}) } };

/** What is wrong with the answer to an enqueue that should be refused, or null. */
function refusalProblem(exchange: Exchange, form: Form, allowSecretField = false): string | null {
  const { status, body } = exchange.response;
  const envelope = (typeof body === 'object' && body !== null ? body : {}) as { code?: unknown; details?: { field?: unknown } };
  if (status !== 400) return `answered ${status}${envelope.code ? ` ${envelope.code}` : ''}, not 400 INVALID_REQUEST`;
  if (envelope.code !== 'INVALID_REQUEST') return `answered 400 with code ${JSON.stringify(envelope.code ?? null)}, not INVALID_REQUEST`;
  const field = envelope.details?.field;
  if (URL_FIELDS[form](field) || (allowSecretField && SECRET_FIELDS.includes(field as string))) return null;
  return `answered 400 INVALID_REQUEST with details.field ${JSON.stringify(field ?? null)}, not the webhook URL field (${form})`;
}

/** Blocked literal targets of spec 6 rule 4, generated: a host in each blocked range, `localhost`, `::1`. */
function blockedTargets(receiverHost: string): fc.Arbitrary<string> {
  const octet = fc.integer({ min: 0, max: 255 });
  const host = fc.oneof(
    fc.tuple(octet, octet, octet).map(([b, c, d]) => `10.${b}.${c}.${d}`),
    fc.tuple(fc.integer({ min: 16, max: 31 }), octet, octet).map(([b, c, d]) => `172.${b}.${c}.${d}`),
    fc.tuple(octet, octet).map(([c, d]) => `192.168.${c}.${d}`),
    fc.tuple(octet, octet).map(([c, d]) => `169.254.${c}.${d}`),
    fc.tuple(octet, octet, octet).map(([b, c, d]) => `127.${b}.${c}.${d}`),
    fc.constantFrom('localhost', 'LOCALHOST', '[::1]'),
  );
  const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined });
  const path = fc.constantFrom('/hook', '/x', '/latest/meta-data', '/');
  return fc
    .tuple(fc.constantFrom('http', 'https'), host, port, path)
    // A sandbox may list the receiver's own host for local testing; it is not a probe of the blocklist.
    .filter(([, h]) => h !== receiverHost && h !== '127.0.0.1')
    .map(([scheme, h, p, rest]) => `${scheme}://${h}${p === undefined ? '' : `:${p}`}${rest}`);
}

/** The jobs the tenant can see: count and ids of the first page (spec 4.1). */
async function jobSnapshot(ctx: CheckContext, client: CheckContext['client']) {
  const exchange = await send(ctx, 'GET', '/api/jobs?limit=100', {}, client);
  const body = exchange.response.body as { jobs?: Array<{ id?: string }>; count?: number };
  return { exchange, count: typeof body?.count === 'number' ? body.count : undefined, ids: new Set((body?.jobs ?? []).map((j) => j.id)) };
}

export const webhookSsrfRefusedAtEnqueue = defineCheck({
  id: 'webhooks.ssrf-refused-at-enqueue',
  title: 'An enqueue whose webhook targets a blocked address is refused with 400 INVALID_REQUEST and creates no job',
  area: 'webhooks',
  needs: ['writes'],
  async run(ctx) {
    // A fresh tenant when the control API is there: its job list starts empty and stays so.
    let client = ctx.client;
    let fresh = false;
    if (ctx.admin) {
      const tenant = await ctx.admin.createTenant({ name: 'Conformance webhooks SSRF' });
      client = ctx.client.withApiKey(tenant.integrationKey);
      fresh = true;
    }
    const before = await jobSnapshot(ctx, client);
    const receiverHost = ctx.receiver ? new URL(ctx.receiver.url).hostname : '';
    const problems = new Map<string, { message: string; exchange: Exchange }>();
    const keyOf = (input: [string, Form]) => JSON.stringify(input);
    const property = fc.asyncProperty(blockedTargets(receiverHost), fc.constantFrom<Form>('webhookUrl', 'webhook.url'), async (url, form) => {
      const exchange = await postProbeBatch(ctx, configure(form, url), client);
      const problem = refusalProblem(exchange, form);
      if (problem) problems.set(keyOf([url, form]), { message: `a webhook to ${url} (${form === 'webhookUrl' ? 'top-level' : 'nested'} form) ${problem}`, exchange });
      return problem === null;
    });
    // The spec's named cases first (spec 6 rule 4), then generated addresses of every blocked range.
    const examples: Array<[string, Form]> = [
      ['http://10.0.0.5/hook', 'webhookUrl'],
      ['http://169.254.169.254/latest/meta-data', 'webhookUrl'],
      ['http://localhost:8080/x', 'webhookUrl'],
      ['http://[::1]/x', 'webhookUrl'],
      ['http://10.0.0.5/hook', 'webhook.url'],
      ['http://169.254.169.254/latest/meta-data', 'webhook.url'],
    ];
    const result = await fc.check(property, { seed: ctx.seed, numRuns: Math.max(1, Math.min(ctx.runs, 10)), examples });
    if (result.failed) {
      const counterexample = result.counterexample as [string, Form] | null;
      const found = counterexample ? problems.get(keyOf(counterexample)) : undefined;
      const message = found?.message ?? `the property failed: ${String(result.errorInstance ?? 'unknown error')}`;
      ctx.fail('webhook-ssrf-refused', `${message} (spec 6 rule 4, decision 10)`, found?.exchange, {
        seed: ctx.seed,
        counterexample: JSON.stringify(counterexample),
        replay: replayOf(ctx, 'webhooks.ssrf-refused-at-enqueue'),
      });
    }
    // No job was created by any refused request.
    const after = await jobSnapshot(ctx, client);
    const created = [...after.ids].filter((id) => !before.ids.has(id));
    const grew = before.count !== undefined && after.count !== undefined && after.count > before.count;
    if (created.length || grew || (fresh && after.count !== undefined && after.count > 0)) {
      ctx.fail('webhook-ssrf-no-job', `refused enqueues created jobs: the job list count went from ${before.count} to ${after.count}${created.length ? `, new jobs ${created.slice(0, 5).join(', ')}` : ''}${fresh ? ' on a fresh tenant' : ''}`, after.exchange);
    }
  },
});

// spec 6 (HTTPS required when a secret is set), decision 10a: a server rule, 400 INVALID_REQUEST.
export const webhookHttpsRequiredWithSecret = defineCheck({
  id: 'webhooks.https-required-with-secret',
  title: 'A plain-HTTP webhook URL with a secret is refused with 400 INVALID_REQUEST',
  area: 'webhooks',
  needs: ['writes'],
  async run(ctx) {
    const { secret } = seeded(ctx, 'webhooks.https-required-with-secret');
    const url = 'http://hooks.example.com/x';
    for (const form of ['webhookUrl', 'webhook.url'] as const) {
      const exchange = await postProbeBatch(ctx, configure(form, url, secret));
      const problem = refusalProblem(exchange, form, true);
      if (problem) ctx.fail('webhook-https-with-secret', `a webhook to ${url} with a secret (${form === 'webhookUrl' ? 'top-level' : 'nested'} form) ${problem} (spec 6: HTTPS required when a secret is set)`, exchange);
    }
  },
});
