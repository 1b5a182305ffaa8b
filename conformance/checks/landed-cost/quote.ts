// The landed-cost operation as the contract describes it, the tenant a check quotes in, and sending quotes:
// 429s waited out as spec 7 asks, the request's failure extras, and the 200 result a rule is observed on.
import fc from 'fast-check';
import { isObject, type Json, type JsonObject } from '../../../contracts/lib/bundle.js';
import { mediaExample } from '../../../contracts/lib/example-request.js';
import { deref, type ContractOperation } from '../../../contracts/lib/operations.js';
import type { CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import { replayOf } from '../../harness/runner.js';
import { flatten } from '../../harness/schema-arbitraries.js';
import type { Exchange, Failure } from '../../harness/types.js';
import { isErrorEnvelope } from '../../harness/expect-error.js';
import { isRateLimited, seeded, sleep } from '../jobs-support.js';

// ---------------------------------------------------------------------------------------------------------
// The operation and its request.

const OPERATION_ID = 'calculateLandedCost';

export interface LandedCost {
  op: ContractOperation;
  /** The canonical required fields of the contract's first example (a product every deployment quotes). */
  base: { productValue: number; hsCode: string; originCountry: string; destinationCountry: string };
  /** The provider the contract's examples name (decision 11: a provider identifier). */
  provider: string;
  /** `quantityUnit` values of the request schema. */
  units: string[];
  /** Legacy aliases (`x-alias-of`, rule 7): alias -> canonical field. */
  aliases: Array<{ alias: string; canonical: string }>;
  required: string[];
}

/** The contract's landed-cost operation; skips the check when the contract has none. */
export function landedCost(ctx: CheckContext): LandedCost {
  const op = ctx.contract.operation(OPERATION_ID);
  if (!op) ctx.skip(`contract ${ctx.contract.version} has no ${OPERATION_ID}`);
  const doc = ctx.contract.doc;
  const body = deref(doc, op.operation.requestBody ?? null);
  const media = isObject(body) && isObject(body.content) ? body.content['application/json'] : undefined;
  const example = mediaExample(doc, media ?? null);
  const ex = (isObject(example) ? example : {}) as JsonObject;
  const schema = flatten(doc, (isObject(media) ? media.schema : {}) as Json);
  const properties = isObject(schema.properties) ? schema.properties : {};
  const units = flatten(doc, properties.quantityUnit).enum;
  const aliases = Object.entries(properties)
    .map(([alias, raw]) => ({ alias, target: flatten(doc, raw)['x-alias-of'] }))
    .filter((a): a is { alias: string; target: string } => typeof a.target === 'string')
    .map(({ alias, target }) => ({ alias, canonical: target }));
  return {
    op,
    base: {
      productValue: typeof ex.productValue === 'number' ? ex.productValue : 1200,
      hsCode: typeof ex.hsCode === 'string' ? ex.hsCode : '6109.10',
      originCountry: typeof ex.originCountry === 'string' ? ex.originCountry : 'IN',
      destinationCountry: typeof ex.destinationCountry === 'string' ? ex.destinationCountry : 'US',
    },
    provider: typeof ex.provider === 'string' ? ex.provider : 'conformance-provider',
    units: Array.isArray(units) && units.length ? units.map(String) : ['KGM'],
    aliases,
    required: Array.isArray(schema.required) ? schema.required.map(String) : [],
  };
}

/** A productValue drawn with the run's seed. */
export const productValue = (ctx: CheckContext, index: number, max = 5_000) => seeded(fc.integer({ min: 1, max }), ctx.seed, index);

// ---------------------------------------------------------------------------------------------------------
// The tenant and sending.

export interface QuoteTenant {
  client: ConformanceClient;
  /** Created for this check: no quote-corridor rows, so every corridor is quoted (rule 5: configured mode
   *  needs rows). */
  fresh: boolean;
  tenantId?: string;
}

/** With the control API a new tenant (no corridors, raised write bucket); else the primary tenant. */
export async function quoteTenant(ctx: CheckContext, name: string): Promise<QuoteTenant> {
  if (!ctx.admin) return { client: ctx.client, fresh: false };
  const created = await ctx.admin.createTenant({ name });
  await ctx.admin.updateSettings(created.tenantId, { rateLimits: { write: { limit: 100_000, windowMs: 60_000 } } });
  return { client: ctx.client.withApiKey(created.integrationKey), fresh: true, tenantId: created.tenantId };
}

/** Seed, drawn input and replay command for a failure whose input was drawn with the run's seed. */
const drawn = (ctx: CheckContext, id: string, input: unknown): Partial<Failure> => ({
  seed: ctx.seed,
  counterexample: JSON.stringify(input),
  replay: replayOf(ctx, id),
});

export interface QuoteRequest {
  body: Record<string, unknown>;
  /** What a failure reports as its drawn input: the body unless given (e.g. with the corridors it met). */
  input?: unknown;
  /** Names the request in the reason a 429 still there after waiting skips the check with. */
  what?: string;
}

/** A quote sent: the answer, the seed, drawn input and replay command for failures about it, its name. */
export interface SentQuote {
  exchange: Exchange;
  extra: Partial<Failure>;
  what: string;
}

/**
 * Sends the quotes of check `id` as `tenant` (429s are waited out by the client, harness/transport.ts).
 */
export function quoteSender(ctx: CheckContext, lc: LandedCost, tenant: QuoteTenant, id: string) {
  return async ({ body, input = body, what = 'the request' }: QuoteRequest): Promise<SentQuote> => {
    const extra = drawn(ctx, id, input);
    const exchange = await tenant.client.call('POST', lc.op.path, { json: body });
    return { exchange, extra, what };
  };
}

// ---------------------------------------------------------------------------------------------------------
// Reading answers.

export interface QuoteResult {
  status?: unknown;
  authority?: unknown;
  breakdown?: unknown;
  reason?: unknown;
  metadata?: Record<string, unknown> | null;
  providerSkipReason?: unknown;
  deMinimis?: { skipped?: unknown; exempt?: unknown } | null;
  trust?: { level?: unknown } | null;
}

/** A response value for messages: `absent` when the field is missing. */
export const shown = (value: unknown) => (value === undefined ? 'absent' : JSON.stringify(value));

/** Status and error code of an answer, for messages. */
export const describe = (exchange: Exchange) =>
  isErrorEnvelope(exchange.response.body) ? `${exchange.response.status} ${exchange.response.body.code}` : String(exchange.response.status);

/**
 * The 200 result of a quote the rule is about (named by its `what`), or undefined after failing the check.
 * A quote answered with the unconfigured-corridor outcome says nothing about rules 2-4: skipped on a shared
 * tenant (its corridors are its operator's), a failure on a tenant without corridors (rule 5: that outcome
 * needs configured mode).
 */
export function served(ctx: CheckContext, tenant: QuoteTenant, { exchange, extra, what }: SentQuote): QuoteResult | undefined {
  if (exchange.response.status !== 200 || !isObject(exchange.response.body as Json)) {
    ctx.fail('landed-cost-served', `${what} answered ${describe(exchange)}, not 200 with a landed-cost result (spec 4.6)`, exchange, extra);
    return undefined;
  }
  const result = exchange.response.body as QuoteResult;
  if (result.status === 'unconfigured_corridor') {
    const corridor = `${result.metadata?.originCountry ?? '?'} -> ${result.metadata?.destinationCountry ?? '?'}`;
    if (!tenant.fresh) ctx.skip(`${what}: the tenant's quote corridors do not cover ${corridor} (unconfigured_corridor), so the rule cannot be observed here`);
    ctx.fail('landed-cost-served', `${what} answered the unconfigured_corridor outcome for a tenant without quote-corridor rows (spec 4.6 rule 5: only in configured mode)`, exchange, extra);
    return undefined;
  }
  return result;
}
