// Waiting out a 429 (spec 8: rate buckets, queue caps) before judging an answer.
import type { CheckContext } from '../../harness/check.js';
import type { Exchange } from '../../harness/types.js';
import { sleep } from '../jobs-support.js';

/**
 * Calls, and while the answer is 429 waits as it asks (Retry-After, else details.retryAfterSeconds) and calls
 * again, three times at most: against the simulator by moving its virtual clock past the wait, elsewhere by
 * sleeping when the wait is short. Returns the last exchange (still 429 when the wait was too long).
 */
export async function withRateLimitRetry(ctx: CheckContext, call: () => Promise<Exchange>): Promise<Exchange> {
  let exchange = await call();
  for (let attempt = 0; attempt < 3 && exchange.response.status === 429; attempt++) {
    const header = Number(exchange.response.headers['retry-after']);
    const detail = Number((exchange.response.body as { details?: { retryAfterSeconds?: unknown } })?.details?.retryAfterSeconds);
    const wait = Math.max(1, Math.ceil(Number.isFinite(header) && header > 0 ? header : Number.isFinite(detail) && detail > 0 ? detail : 1));
    if (ctx.admin) await ctx.admin.advanceClock(wait + 1);
    else if (wait <= 5) await sleep(wait * 1000);
    else break;
    exchange = await call();
  }
  return exchange;
}
