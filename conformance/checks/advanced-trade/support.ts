// What the advanced trade checks share (spec 4.6; the payload shapes are sandbox-defined, see
// contracts/components/schemas/advanced-trade.yaml): the paths, a tenant to write in, a classification that
// opens a review (a description too vague to tell two subheadings apart), and deciding a review.
import type { CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import type { Exchange } from '../../harness/types.js';
import { writeTenant } from '../jobs-support.js';

const CLASSIFY_PATH = '/api/trade/classify';
export const BATCH_PATH = '/api/trade/classify/batch';
export const APPLY_PATH = '/api/trade/classify/apply';
export const REVIEWS_PATH = '/api/trade/classify/reviews';
export const COMPLIANCE_PATH = '/api/compliance/check';
export const reviewPath = (reviewId: string) => `${REVIEWS_PATH}/${encodeURIComponent(reviewId)}`;
const decisionPath = (reviewId: string) => `${reviewPath(reviewId)}/decision`;

/** Vague enough that a classifier cannot be sure (the material of a T-shirt decides its subheading). */
export const VAGUE_PRODUCT = { description: 'Knitted T-shirt', productName: 'Basic tee' };
/** Clear enough for a confident answer (HS 2022 6109.10). */
export const CLEAR_PRODUCT = { description: "Men's crew-neck T-shirt, knitted jersey, 100% cotton", productName: 'Classic crew tee' };

export interface Classified {
  exchange: Exchange;
  classificationId?: string;
  reviewId?: string;
  requiresReview?: boolean;
}

export const bodyOf = (exchange: Exchange) => (exchange.response.body ?? {}) as Record<string, unknown>;
export const codeOf = (exchange: Exchange) => bodyOf(exchange).code;
const str = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

async function classify(client: ConformanceClient, body: Record<string, unknown>): Promise<Classified> {
  const exchange = await client.call('POST', CLASSIFY_PATH, { json: body });
  const b = bodyOf(exchange);
  return { exchange, classificationId: str(b.classificationId), reviewId: str(b.reviewId), requiresReview: typeof b.requiresReview === 'boolean' ? b.requiresReview : undefined };
}

/**
 * Classification reviews, their states and decisions are the sandbox's (spec 2.10: the records are only named;
 * 4.6: payload shapes not shown): a check of them holds the contract, which a server that chose other shapes,
 * states or decision rules does not break. So such checks run in the simulator profile only.
 */
export function reviewsAreSandboxDefined(ctx: CheckContext): void {
  if (ctx.options.profile !== 'simulator') ctx.skip('classification reviews, their states and decisions are sandbox-defined (spec 2.10: fields not shown; 4.6: payload shapes not shown): the simulator profile only');
}

/**
 * Spec 4.6 shows no request payload of the advanced trade path, so the suite's (the sandbox's) may not be the
 * server's: outside the simulator profile a 400 or 422 to it says only that, and the check stops saying so.
 */
export function refusedOurShape(ctx: CheckContext, exchange: Exchange, what: string): void {
  const status = exchange.response.status;
  if (ctx.options.profile !== 'simulator' && (status === 400 || status === 422)) {
    ctx.skip(`${what} answered ${status} to the sandbox's request shape; spec 4.6 shows no payload, so the server may take another`);
  }
}

/** A tenant to write in: a fresh one (control API) or the primary tenant; skips in the readonly profile. */
export async function tradeTenant(ctx: CheckContext, name: string) {
  if (ctx.options.profile === 'readonly') ctx.skip('the advanced trade path writes (classifications, reviews): not in the readonly profile');
  return writeTenant(ctx, name);
}

/**
 * A classification with a PENDING review, from a vague description: fails the check when classify is not
 * served, skips it when the server is sure of the vague product (the review threshold is the deployment's).
 */
export async function classificationWithReview(ctx: CheckContext, client: ConformanceClient, sku?: string): Promise<Required<Pick<Classified, 'classificationId' | 'reviewId'>> & Classified | undefined> {
  const classified = await classify(client, { ...VAGUE_PRODUCT, ...(sku ? { sku } : {}) });
  if (classified.exchange.response.status !== 200 || !classified.classificationId) {
    ctx.fail('classify-served', `POST ${CLASSIFY_PATH} answered ${classified.exchange.response.status}, not 200 with a classificationId (spec 4.6)`, classified.exchange);
    return undefined;
  }
  if (!classified.requiresReview || !classified.reviewId) ctx.skip(`the server is confident enough about "${VAGUE_PRODUCT.description}" to open no review: nothing to decide`);
  return classified as Required<Pick<Classified, 'classificationId' | 'reviewId'>> & Classified;
}

export const decide = (client: ConformanceClient, reviewId: string, body: Record<string, unknown>) => client.call('POST', decisionPath(reviewId), { json: body });
