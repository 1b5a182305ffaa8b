// Request validation beyond one operation's schema (spec 2.9, 7): a body that is not JSON at all is a
// validation failure (400 INVALID_REQUEST), never a crash, and an unknown route answers 404 in the error
// envelope like everything else.
import { isObject } from '../../contracts/lib/bundle.js';
import { defineCheck, type Check } from '../harness/check.js';
import { replayOf } from '../harness/runner.js';

/** POST /api/sima/batch exists in every version of the contract (contracts/README.md, surfaces). */
const JSON_ENDPOINT = '/api/sima/batch';

/** Bodies that are not JSON, each sent as application/json. */
const MALFORMED_BODIES: Array<[string, string]> = [
  ['a truncated object', '{"skus": ["SKU-1", '],
  ['a trailing comma', '{"skus": null,}'],
  ['single quotes', "{'skus': null}"],
];

const malformedJson = defineCheck({
  id: 'validation.malformed-json',
  title: 'A body that is not valid JSON is refused with 400 INVALID_REQUEST, never a server error',
  area: 'validation',
  needs: ['writes'],
  async run(ctx) {
    for (const [what, raw] of MALFORMED_BODIES) {
      const exchange = await ctx.client.call('POST', JSON_ENDPOINT, { raw, headers: { 'content-type': 'application/json' } });
      if (exchange.response.status === 429) continue;
      const body = exchange.response.body;
      const code = isObject(body) ? body.code : undefined;
      const extra = { seed: ctx.seed, counterexample: `${what}: ${raw}`, replay: replayOf(ctx, 'validation.malformed-json') };
      if (exchange.response.status >= 500) {
        ctx.fail('malformed-json-rejected', `POST ${JSON_ENDPOINT} with ${what} (${raw}) crashed the server: ${exchange.response.status}${code ? ` ${String(code)}` : ''}; a body that is not JSON is a validation failure (spec 7: 400 INVALID_REQUEST)`, exchange, extra);
      } else if (exchange.response.status !== 400 || code !== 'INVALID_REQUEST') {
        ctx.fail('malformed-json-rejected', `POST ${JSON_ENDPOINT} with ${what} (${raw}) was answered ${exchange.response.status}${code ? ` ${String(code)}` : ''}, not 400 INVALID_REQUEST (spec 7)`, exchange, extra);
      }
    }
  },
});

const UNKNOWN_ROUTE = '/api/definitely-not-a-route';

const unknownRouteEnvelope = defineCheck({
  id: 'validation.unknown-route-envelope',
  title: 'An unknown route answers 404 NOT_FOUND in the error envelope',
  area: 'validation',
  needs: [],
  async run(ctx) {
    // Not a route of the contract: nothing to check it against, so the envelope is checked here.
    const exchange = await ctx.client.call('GET', UNKNOWN_ROUTE, { unchecked: true });
    const { status, body, headers } = exchange.response;
    if (!ctx.expect(status === 404, 'unknown-route-404', `GET ${UNKNOWN_ROUTE} answered ${status}, not 404 (spec 7: NOT_FOUND)`, exchange)) return;
    const contentType = String(headers['content-type'] ?? '');
    if (!ctx.expect(contentType.includes('json') && isObject(body), 'error-envelope', `the 404 is not a JSON error envelope (content type ${contentType || 'none'}): ${exchange.response.text.slice(0, 200)}`, exchange)) return;
    const envelope = body as Record<string, unknown>;
    const validate = ctx.contract.schemas.component('ErrorEnvelope');
    if (!validate(envelope) || typeof envelope.message !== 'string') {
      ctx.fail('error-envelope', `the 404 body is not the error envelope { code, message, details? } (spec 2.9): ${exchange.response.text.slice(0, 200)}`, exchange);
      return;
    }
    ctx.expect(envelope.code === 'NOT_FOUND', 'error-code', `the 404 carries code ${String(envelope.code)}, not NOT_FOUND (spec 7)`, exchange);
  },
});

export const validationChecks: Check[] = [malformedJson, unknownRouteEnvelope];
