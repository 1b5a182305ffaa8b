// For the reporters' tests: a synthetic RunReport with passes, failures (one a property failure, one with
// markup and secrets in it) and skips, and a small strict XML parser that rejects anything not well-formed.
import type { Exchange, RunReport } from '../harness/types.js';

export const HOSTILE = `<script>alert("x&y")</script>`;
export const ACCESS_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZW5hbnQifQ.c2lnbmF0dXJlLXNlY3JldA';
export const API_KEY = 'tfk_live_0123456789abcdefSECRET';

const tokenExchange: Exchange = {
  request: { method: 'POST', url: 'https://staging.example.test/api/auth/token/integration', headers: { accept: 'application/json', 'x-api-key': API_KEY } },
  response: {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'set-cookie': 'session=abcdefghijklmnop' },
    body: { access_token: ACCESS_TOKEN, token_type: 'bearer', expires_in: 3600 },
    text: JSON.stringify({ access_token: ACCESS_TOKEN, token_type: 'bearer', expires_in: 3600 }),
  },
  durationMs: 12.4,
};

const jobsExchange: Exchange = {
  request: {
    method: 'POST',
    url: 'https://staging.example.test/api/sima/batch?x=1&y=<2>',
    headers: { accept: 'application/json', authorization: `Bearer ${ACCESS_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ skus: ['A&B', HOSTILE], webhookSecret: 'whsec_very_secret_value' }),
  },
  response: {
    status: 500,
    headers: { 'content-type': 'application/json' },
    body: { code: 'INTERNAL_ERROR', message: `boom ${HOSTILE}`, details: { stack: 'x'.repeat(20_000) } },
    text: '{"code":"INTERNAL_ERROR"}',
  },
  durationMs: 40,
};

export function syntheticReport(): RunReport {
  return {
    target: { baseUrl: 'https://staging.example.test', contract: 'v1.3.0', profile: 'sandbox', seed: 424242, runs: 50 },
    startedAt: '2025-06-01T10:00:00.000Z',
    finishedAt: '2025-06-01T10:01:05.500Z',
    replay: 'CONFORM_API_KEY="$CONFORM_API_KEY" npm run conform -- --base-url https://staging.example.test --contract v1.3.0 --profile sandbox --seed 424242 --runs 50',
    totals: { passed: 2, failed: 2, skipped: 2 },
    results: [
      { id: 'auth.token-exchange', title: 'The integration key exchanges for a Bearer token', area: 'auth', verdict: 'passed', failures: [], durationMs: 120, requests: 2 },
      {
        id: 'auth.token-type',
        title: `token_type is "Bearer" & nothing else ${HOSTILE}`,
        area: 'auth',
        verdict: 'failed',
        failures: [{ rule: 'token-type', message: `token_type is "bearer", not "Bearer" ${HOSTILE}`, exchange: tokenExchange }],
        durationMs: 30,
        requests: 1,
      },
      {
        id: 'jobs.state-machine',
        title: 'Jobs move only through the documented transitions',
        area: 'jobs',
        verdict: 'failed',
        failures: [
          {
            rule: 'illegal-transition-rejected',
            message: 'after enqueue, cancel answered 500\nsecond line',
            exchange: jobsExchange,
            seed: 424242,
            counterexample: '[Enqueue({"skus":["A&B"]}), Cancel(), Poll()]',
            replay: 'CONFORM_API_KEY="$CONFORM_API_KEY" npm run conform -- --base-url https://staging.example.test --seed 424242 --only jobs.state-machine',
          },
          { rule: 'response-conformance', message: 'enqueueSimaBatch: status 500 is not documented', exchange: jobsExchange },
        ],
        durationMs: 61_000,
        requests: 140,
      },
      { id: 'jobs.list', title: 'Jobs list newest first', area: 'jobs', verdict: 'passed', failures: [], durationMs: 800, requests: 3 },
      { id: 'webhooks.signature', title: 'Deliveries are signed', area: 'webhooks', verdict: 'skipped', reason: 'needs --webhook-url: a public URL <that> forwards & more', failures: [], durationMs: 0, requests: 0 },
      { id: 'isolation.cross-tenant', title: 'A tenant cannot read another tenant’s job', area: 'isolation', verdict: 'skipped', reason: 'needs --second-api-key', failures: [], durationMs: 1, requests: 0 },
    ],
  };
}

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: Array<XmlElement | string>;
}

const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Parses a document strictly (well-formedness only, no DTD): throws on the first error. */
export function parseXml(text: string): XmlElement {
  let at = 0;
  const fail = (why: string): never => {
    throw new Error(`not well-formed at ${at}: ${why} (near ${JSON.stringify(text.slice(at, at + 40))})`);
  };
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(text)) fail('a control character');
  const decode = (raw: string): string => {
    if (raw.includes('<')) fail('"<" in character data');
    return raw.replace(/&([^;]*);?/g, (match, name: string) => {
      if (!match.endsWith(';')) fail(`a bare "&"`);
      if (name in ENTITY) return ENTITY[name]!;
      const code = /^#x([0-9a-f]+)$/i.exec(name)?.[1] ?? /^#(\d+)$/.exec(name)?.[1];
      if (code === undefined) fail(`an unknown entity &${name};`);
      return String.fromCodePoint(name.startsWith('#x') ? parseInt(code!, 16) : Number(code));
    });
  };
  const skipSpace = () => {
    while (/\s/.test(text[at] ?? '')) at++;
  };
  const name = (): string => {
    const match = /^[A-Za-z_:][\w.:-]*/.exec(text.slice(at));
    if (!match) fail('a name was expected');
    at += match![0].length;
    return match![0];
  };
  const element = (): XmlElement => {
    if (text[at] !== '<') fail('"<" expected');
    at++;
    const node: XmlElement = { name: name(), attributes: {}, children: [] };
    for (;;) {
      const before = at;
      skipSpace();
      if (text.startsWith('/>', at)) {
        at += 2;
        return node;
      }
      if (text[at] === '>') {
        at++;
        break;
      }
      if (at === before) fail('space expected before an attribute');
      const attribute = name();
      if (attribute in node.attributes) fail(`duplicate attribute ${attribute}`);
      skipSpace();
      if (text[at] !== '=') fail('"=" expected');
      at++;
      skipSpace();
      const quote = text[at];
      if (quote !== '"' && quote !== "'") fail('a quoted attribute value expected');
      const end = text.indexOf(quote!, at + 1);
      if (end < 0) fail('unterminated attribute value');
      node.attributes[attribute] = decode(text.slice(at + 1, end));
      at = end + 1;
    }
    for (;;) {
      const next = text.indexOf('<', at);
      if (next < 0) fail(`unclosed <${node.name}>`);
      if (next > at) node.children.push(decode(text.slice(at, next)));
      at = next;
      if (text.startsWith('</', at)) {
        at += 2;
        const closing = name();
        if (closing !== node.name) fail(`</${closing}> closes <${node.name}>`);
        skipSpace();
        if (text[at] !== '>') fail('">" expected');
        at++;
        return node;
      }
      if (text.startsWith('<!--', at)) {
        const end = text.indexOf('-->', at);
        if (end < 0) fail('unterminated comment');
        at = end + 3;
        continue;
      }
      if (text.startsWith('<![CDATA[', at)) {
        const end = text.indexOf(']]>', at);
        if (end < 0) fail('unterminated CDATA');
        node.children.push(text.slice(at + 9, end));
        at = end + 3;
        continue;
      }
      node.children.push(element());
    }
  };
  if (text.startsWith('<?xml')) {
    const end = text.indexOf('?>');
    if (end < 0) fail('unterminated XML declaration');
    at = end + 2;
  }
  skipSpace();
  const root = element();
  skipSpace();
  if (at !== text.length) fail('content after the root element');
  return root;
}

export const childElements = (node: XmlElement, name?: string): XmlElement[] => node.children.filter((child): child is XmlElement => typeof child !== 'string' && (!name || child.name === name));
export const textOf = (node: XmlElement): string => node.children.map((child) => (typeof child === 'string' ? child : textOf(child))).join('');

/** The areas of the suite, for synthetic runs as wide as a real one. */
const AREAS = ['auth', 'operations', 'validation', 'isolation', 'billing', 'jobs', 'pagination', 'sima', 'idempotency', 'webhooks', 'uploads', 'landed-cost', 'trade', 'ship', 'advanced-trade', 'journeys', 'signup', 'limits'];

/**
 * A run the size of issue 26's (four defects on): `failures` failures spread over `failedChecks` failed checks
 * of `failedChecks + passedChecks`, in every area. Each failure is one of a few rules broken the same way on
 * many operations (ids and times differing), as injected defects produce, with a request and an error
 * response of about 1.5 KB, as a real failure has.
 */
export function manyFailuresReport({ failedChecks = 133, failures = 1362, passedChecks = 45 } = {}): RunReport {
  const operations = Array.from({ length: 48 }, (_, n) => `getThing${n}`);
  const rules: Array<(operation: string, n: number) => { rule: string; message: string; status: number }> = [
    (operation) => ({ rule: 'response-conformance', message: `${operation}: status 500 is not documented`, status: 500 }),
    (operation, n) => ({ rule: 'response-conformance', message: `${operation}: body.items[${n % 7}].createdAt is not a date-time`, status: 200 }),
    (_operation, n) => ({ rule: 'error-code', message: `job 0b7e3c1a-5d2f-4e6a-8b9c-${String(n).padStart(12, '0')} answered INTERNAL_ERROR, not INVALID_REQUEST`, status: 500 }),
    (operation) => ({ rule: 'hasMore-consistent', message: `${operation}: hasMore is true on the last page`, status: 200 }),
  ];
  // A few causes of their own, as a real run has beside the defects' (one per tenth check).
  const odd = (check: number) => ({ rule: `rule-${check}`, message: `a failure only check ${check} has`, status: 409 });
  const results: RunReport['results'] = [];
  let left = failures;
  for (let check = 0; check < failedChecks; check++) {
    const count = Math.ceil(left / (failedChecks - check));
    left -= count;
    const list = Array.from({ length: count }, (_, n) => {
      const operation = operations[(check * 7 + n) % operations.length]!;
      const { rule, message, status } = check % 10 === 9 && n === 0 ? odd(check) : rules[(check + n) % rules.length]!(operation, check * 100 + n);
      const body = { code: status === 500 ? 'INTERNAL_ERROR' : 'OK', message, details: { trace: 'x'.repeat(1200), requestId: `req_${check}_${n}_0123456789abcdef` } };
      const exchange: Exchange = {
        request: { method: 'GET', url: `https://staging.example.test/api/things/${check}?limit=${n}`, headers: { accept: 'application/json', authorization: `Bearer ${ACCESS_TOKEN}` } },
        response: { status, headers: { 'content-type': 'application/json' }, body, text: JSON.stringify(body) },
        operation: { operationId: operation, method: 'get', path: '/api/things/{id}' } as Exchange['operation'],
        durationMs: 20,
      };
      return { rule, message, exchange };
    });
    results.push({ id: `${AREAS[check % AREAS.length]}.check-${check}`, title: `Synthetic check ${check}`, area: AREAS[check % AREAS.length]!, verdict: 'failed', failures: list, durationMs: 900, requests: 20 });
  }
  for (let check = 0; check < passedChecks; check++) {
    results.push({ id: `${AREAS[check % AREAS.length]}.passing-${check}`, title: `Passing check ${check}`, area: AREAS[check % AREAS.length]!, verdict: 'passed', failures: [], durationMs: 300, requests: 5 });
  }
  return {
    ...syntheticReport(),
    results,
    totals: { passed: passedChecks, failed: failedChecks, skipped: 0 },
    notes: undefined,
  };
}
