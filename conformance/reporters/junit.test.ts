import { describe, expect, it } from 'vitest';
import { renderJUnit } from './junit.js';
import { ACCESS_TOKEN, API_KEY, HOSTILE, childElements, parseXml, syntheticReport, textOf } from './reports.testing.js';

describe('JUnit reporter', () => {
  const xml = renderJUnit(syntheticReport(), { only: ['auth', 'jobs'] });
  const root = parseXml(xml);

  it('is well-formed XML with one testsuite per area and one testcase per check', () => {
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({ tests: '6', failures: '2', skipped: '2', errors: '0', time: '65.500' });
    const suites = childElements(root, 'testsuite');
    expect(suites.map((suite) => suite.attributes.name)).toEqual(['auth', 'jobs', 'webhooks', 'isolation']);
    expect(suites[1]!.attributes).toMatchObject({ tests: '2', failures: '1', skipped: '0' });
    const cases = suites.flatMap((suite) => childElements(suite, 'testcase'));
    expect(cases.map((c) => `${c.attributes.classname}/${c.attributes.name}`)).toEqual([
      'auth/auth.token-exchange',
      'auth/auth.token-type',
      'jobs/jobs.state-machine',
      'jobs/jobs.list',
      'webhooks/webhooks.signature',
      'isolation/isolation.cross-tenant',
    ]);
    expect(cases[2]!.attributes.time).toBe('61.000');
  });

  it('reports failures with the rule as type, the message, and request/response excerpts, escaped', () => {
    const cases = childElements(root, 'testsuite').flatMap((suite) => childElements(suite, 'testcase'));
    const tokenType = childElements(cases[1]!, 'failure')[0]!;
    expect(tokenType.attributes.type).toBe('token-type');
    expect(tokenType.attributes.message).toBe(`token_type is "bearer", not "Bearer" ${HOSTILE}`);
    const machine = childElements(cases[2]!, 'failure')[0]!;
    expect(machine.attributes.type).toBe('illegal-transition-rejected');
    expect(machine.attributes.message).toBe('after enqueue, cancel answered 500 second line (+1 more)');
    const text = textOf(machine);
    expect(text).toContain('POST https://staging.example.test/api/sima/batch?x=1&y=<2>');
    expect(text).toContain('response: 500 (application/json)');
    expect(text).toContain('[response-conformance] enqueueSimaBatch: status 500 is not documented');
    expect(text).toContain('counterexample: [Enqueue({"skus":["A&B"]}), Cancel(), Poll()]');
    expect(text).toContain('replay: CONFORM_API_KEY="$CONFORM_API_KEY" npm run conform --');
    expect(text).toContain('more characters'); // the 20,000-character body is cut
    expect(xml).not.toContain('<script>');
  });

  it('marks skipped checks with their reason', () => {
    const webhooks = childElements(root, 'testsuite')[2]!;
    const skipped = childElements(childElements(webhooks, 'testcase')[0]!, 'skipped')[0]!;
    expect(skipped.attributes.message).toBe('needs --webhook-url: a public URL <that> forwards & more');
  });

  it('carries the run as properties and masks secrets', () => {
    const properties = childElements(childElements(childElements(root, 'testsuite')[0]!, 'properties')[0]!, 'property');
    const byName = Object.fromEntries(properties.map((p) => [p.attributes.name, p.attributes.value]));
    expect(byName).toMatchObject({ baseUrl: 'https://staging.example.test', contract: 'v1.3.0', profile: 'sandbox', seed: '424242', runs: '50', only: 'auth,jobs' });
    expect(xml).not.toContain(ACCESS_TOKEN);
    expect(xml).not.toContain(API_KEY);
    expect(xml).not.toContain('whsec_very_secret_value');
  });

  it('stays well-formed with control characters and lone surrogates in messages', () => {
    const report = syntheticReport();
    report.results[1]!.failures[0]!.message = 'bad \u0001\u0008 bytes \uD800 and \r\n lines\t"quoted"';
    const parsed = parseXml(renderJUnit(report));
    const failure = childElements(childElements(childElements(parsed, 'testsuite')[0]!, 'testcase')[1]!, 'failure')[0]!;
    expect(failure.attributes.message).toContain('"quoted"');
  });

  it('rejects a broken document (the parser is strict)', () => {
    expect(() => parseXml('<a><b></a>')).toThrow(/closes/);
    expect(() => parseXml('<a x="1 & 2"/>')).toThrow();
    expect(() => parseXml('<a>1 < 2</a>')).toThrow();
  });
});

describe('JUnit of a run ended by --max-duration', () => {
  it('reports a check not run as skipped, its message saying it was not run, and counts it among the skipped', () => {
    const report = syntheticReport();
    report.results.push({ id: 'jobs.late', title: 'late', area: 'jobs', verdict: 'not run', reason: 'not run: --max-duration 90s reached', failures: [], durationMs: 0, requests: 0 });
    report.totals = { ...report.totals, notRun: 1 };
    const xml = renderJUnit(report);
    expect(xml).toContain('<skipped message="not run: --max-duration 90s reached"/>');
    expect(xml).toMatch(/<testsuites [^>]*skipped="3"/);
  });
});
