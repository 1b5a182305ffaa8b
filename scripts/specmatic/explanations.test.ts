import { describe, expect, it } from 'vitest';
import { EXPLANATIONS, explain, explainFailure, missedExpectation } from './explanations.js';
import { readJunit } from './junit.js';
import type { RecordedExchange } from './recording-proxy.js';
import { renderSummary } from './summary.js';

const exchange = (over: Partial<RecordedExchange>): RecordedExchange => ({ method: 'GET', url: '/api/jobs', expected: 200, status: 400, requestBody: '', ...over });

/** One answer per family, as the simulator gives it to Specmatic's requests. */
const FAMILY_EXAMPLES: Record<string, RecordedExchange> = {
  'unknown-resource': exchange({ url: '/api/jobs/0b6f…', status: 404, code: 'NOT_FOUND', message: 'job not found' }),
  'unknown-integration-key': exchange({ method: 'POST', url: '/api/auth/token/integration', status: 401, code: 'INVALID_API_KEY' }),
  'legacy-fallback-disabled': exchange({ method: 'POST', url: '/api/trade/landed-cost', status: 401, code: 'INVALID_TOKEN', message: 'Authorization: Bearer <access_token> is required (the x-api-key + x-org-id fallback is disabled)' }),
  'opaque-cursor': exchange({ url: '/api/sima/results?cursor=D', code: 'INVALID_REQUEST', field: 'cursor', message: 'cursor is not one this service issued' }),
  'state-conflict': exchange({ method: 'POST', url: '/api/ship/findings/x/submit', expected: 200, status: 409, code: 'ACTION_NOT_ALLOWED' }),
  'contract-invalid-request': exchange({ method: 'POST', url: '/api/sima/batch', expected: 202, code: 'INVALID_REQUEST', field: 'webhookUrl', message: 'webhookUrl must be an absolute URI' }),
  'multipart-without-file': exchange({ method: 'POST', url: '/api/upload', expected: 202, code: 'INVALID_REQUEST', message: 'a request body is required' }),
  'provider-with-quantity': exchange({ method: 'POST', url: '/api/trade/landed-cost', code: 'INVALID_REQUEST', field: 'provider', message: 'provider may not be sent together with quantity' }),
  'body-not-json': exchange({ method: 'POST', url: '/api/trade/classify/apply', requestBody: 'KTGXEJOWSQ', code: 'INVALID_REQUEST', message: 'the request body could not be parsed' }),
  'webhook-https-with-secret': exchange({ method: 'POST', url: '/api/sima/batch', expected: 202, code: 'INVALID_REQUEST', field: 'webhookUrl', message: 'webhookUrl must use https when a webhook secret is set' }),
  'webhook-blocked-target': exchange({ method: 'POST', url: '/api/sima/batch', expected: 202, code: 'INVALID_REQUEST', field: 'webhookUrl', message: 'webhookUrl targets a blocked host (loopback)' }),
  'batch-credit-disabled': exchange({ method: 'POST', url: '/api/ship/findings/batch', code: 'INVALID_REQUEST', field: 'action', message: 'batch action credit is disabled; record each credit on its finding' }),
  'webhook-host-not-a-host': exchange({ method: 'POST', url: '/api/trade/classify/batch', expected: 202, requestBody: '{"webhook":{"url":"http://.2"}}', code: 'INVALID_REQUEST', field: 'webhook.url', message: 'webhook.url must be an absolute http or https URL' }),
  'webhook-configured-twice': exchange({ method: 'POST', url: '/api/sima/batch', expected: 202, code: 'INVALID_REQUEST', field: 'webhook', message: 'the webhook is configured twice (top-level fields and a nested webhook object) with different values' }),
  'report-status-unknown': exchange({ url: '/api/sima/report?status=PNHMW', code: 'INVALID_REQUEST', field: 'status', message: 'status must be one of AT_RISK, NEEDS_REVIEW, CLEARED' }),
};

describe('the explanations of failed Specmatic tests', () => {
  it('has an example answer for every family, and each example is explained by its own family', () => {
    expect(Object.keys(FAMILY_EXAMPLES).sort()).toEqual(EXPLANATIONS.map((e) => e.id).sort());
    for (const [id, example] of Object.entries(FAMILY_EXAMPLES)) expect(explain(example)?.id, id).toBe(id);
  });

  it('leaves a server error, an undocumented answer and a refusal of a valid value unexplained', () => {
    expect(explain(exchange({ status: 500, code: 'INTERNAL_ERROR' }))).toBeUndefined();
    expect(explain(exchange({ status: 501 }))).toBeUndefined();
    // The host-less webhook URL the contract allowed and the server refused: a deviation, not a tool limit.
    expect(explain(exchange({ method: 'POST', url: '/api/sima/batch', code: 'INVALID_REQUEST', field: 'webhookUrl', message: 'webhookUrl must be an absolute http or https URL' }))).toBeUndefined();
    for (const url of ['HttPS://', 'htTP://2@', 'https://example.com/x'])
      expect(explain(exchange({ method: 'POST', url: '/api/sima/batch', requestBody: JSON.stringify({ webhookUrl: url }), code: 'INVALID_REQUEST', field: 'webhookUrl', message: 'webhookUrl must be an absolute http or https URL' })), url).toBeUndefined();
    // A JSON body the server cannot parse is the server's problem.
    expect(explain(exchange({ method: 'POST', url: '/api/trade/classify/apply', requestBody: '{"sku":"A"}', code: 'INVALID_REQUEST', message: 'the request body could not be parsed' }))).toBeUndefined();
    // A cursor family needs the field; a 400 on the report elsewhere than `status` stays open.
    expect(explain(exchange({ url: '/api/sima/report?format=xml', code: 'INVALID_REQUEST', field: 'format' }))).toBeUndefined();
  });

  it('counts only answers whose status is not the one the test expected', () => {
    expect(missedExpectation(exchange({ expected: 200, status: 200 }))).toBe(false);
    expect(missedExpectation(exchange({ expected: 202, status: 400 }))).toBe(true);
    expect(missedExpectation(exchange({ expected: undefined, status: 400 }))).toBe(false);
  });
});

describe("the reading of Specmatic's JUnit report", () => {
  const xml = `<testsuite errors="1" failures="2" hostname="vm" name="Contract Tests" skipped="0" tests="5" time="1.2">
<testcase name="a"><failure message="Testing scenario &quot;x&quot;&#10;API: POST /api/sima/batch -&gt; 202&#10;&#10;  &gt;&gt; RESPONSE.STATUS&#10;  status mismatch" type="java.lang.AssertionError"/></testcase>
<testcase name="b"><failure message="API: GET /api/jobs/(id:uuid) -&gt; 200&#10;  &gt;&gt; RESPONSE.BODY.status&#10;  enum mismatch" type="java.lang.AssertionError"/></testcase>
<testcase name="c"><failure message="API: GET /api/sima/report -&gt; 200&#10;  &gt;&gt; RESPONSE.HEADER.Content-Type&#10;  Specification expected text/csv but response contained application/json; charset=utf-8" type="java.lang.AssertionError"/></testcase>
<testcase classname="x" name="Contract Tests &gt; contractTest() &gt; Scenario: GET /api/sima/report -&gt; 200" time="0.025">
<error message="Conversion = '&quot;'" type="java.util.UnknownFormatConversionException"><![CDATA[trace]]></error></testcase>
</testsuite>`;

  it('reads the totals and, for each failure, its operation and what did not match', () => {
    const junit = readJunit(xml);
    expect(junit).toMatchObject({ tests: 5, failures: 2, errors: 1, skipped: 0 });
    expect(junit.failed.map((f) => [f.api, f.breadcrumb])).toEqual([
      ['POST /api/sima/batch -> 202', 'RESPONSE.STATUS'],
      ['GET /api/jobs/(id:uuid) -> 200', 'RESPONSE.BODY.status'],
      ['GET /api/sima/report -> 200', 'RESPONSE.HEADER.Content-Type'],
    ]);
    expect(junit.errorDetails).toEqual([{ api: 'GET /api/sima/report -> 200', message: `java.util.UnknownFormatConversionException: Conversion = '"'` }]);
  });

  it('explains the report media type Specmatic expects without asking for it, and no other header mismatch', () => {
    const [, body, mediaType] = readJunit(xml).failed;
    expect(explainFailure(mediaType!)?.id).toBe('media-type-chosen-by-query');
    expect(explainFailure(body!)).toBeUndefined();
    expect(explainFailure({ ...mediaType!, api: 'GET /api/jobs/(id:uuid) -> 200' })).toBeUndefined();
  });

  it('counts body mismatches and unexplained answers as unexplained in the summary, and Specmatic errors as inconclusive', () => {
    const junit = readJunit(xml);
    const group = { operation: 'POST /api/sima/batch', expected: 202, status: 500, cause: 'INTERNAL_ERROR', count: 3, example: exchange({ status: 500 }) };
    const summary = renderSummary({ generative: false, seconds: 1, exit: 1, junit, exchanges: 5, groups: [group], otherFailures: junit.failed.filter((f) => f.breadcrumb !== 'RESPONSE.STATUS') });
    expect(summary.json.unexplained).toBe(4);
    expect(summary.markdown).toContain('GET /api/jobs/(id:uuid) -> 200 | RESPONSE.BODY.status (1)');
    expect(summary.markdown).toContain('## Inconclusive: 1');
    expect(summary.markdown).toContain('| `media-type-chosen-by-query` | tool | 1 |');
  });
});
