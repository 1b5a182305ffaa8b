// SSRF over HTTP and on the wire (spec 6.4; decision 10; issue 15 item 6). At enqueue, every spelling of a
// blocked target (ranges, IPv4-mapped IPv6, decimal / octal / hex / short IPv4, trailing dots, case,
// userinfo tricks) is 400 INVALID_REQUEST naming the URL field, and creates no job. At delivery, a name that
// resolves into a blocked range (DNS answers injected through the transport's resolver seam) is refused
// before any connection, while the same resolution through the local allow list reaches the pinned address.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../testing/contract-client.js';
import { unthrottled } from '../domains/ship/ship.testing.js';
import { sendAttempt, type ResolvedAddress } from '../domains/webhooks/transport.js';
import { startReceiver, type Receiver } from '../domains/webhooks/webhook.testing.js';

/** URLs whose host is, or denotes, a blocked address or name (spec 6.4's list, 0.0.0.0/8 added by the sandbox). */
const BLOCKED_URLS = [
  'http://127.0.0.1/hook',
  'https://127.255.255.254:8443/hook',
  'http://10.0.0.1/hook',
  'http://172.16.5.4/hook',
  'http://172.31.255.255/hook',
  'http://192.168.1.1/hook',
  'http://169.254.169.254/latest/meta-data/',
  'http://0.0.0.0/hook',
  'http://2130706433/hook', // 127.0.0.1 in decimal
  'http://0x7f000001/hook', // in hex
  'http://0x7f.0.0.1/hook',
  'http://0177.0.0.1/hook', // in octal
  'http://0251.0376.0251.0376/hook', // 169.254.169.254 in octal
  'http://2852039166/hook', // 169.254.169.254 in decimal
  'http://127.1/hook', // short forms
  'http://10.1/hook',
  'http://0/hook',
  'http://127.0.0.1./hook', // trailing dot
  'http://127。0。0。1/hook', // ideographic full stops, mapped to dots by the URL parser
  'http://[::1]/hook',
  'http://[0:0:0:0:0:0:0:1]/hook',
  'http://[::]/hook',
  'http://[::ffff:127.0.0.1]/hook', // IPv4-mapped
  'http://[::ffff:a9fe:a9fe]/hook',
  'http://[::ffff:10.0.0.1]:8080/hook',
  'http://[::127.0.0.1]/hook', // IPv4-compatible
  'http://[64:ff9b::a9fe:a9fe]/hook', // NAT64 well-known prefix (sandbox-defined)
  'http://localhost/hook',
  'http://LOCALHOST:3000/hook',
  'http://localhost./hook',
  'http://hooks.localhost/hook',
  'https://user:pass@127.0.0.1/hook',
  'http://hooks.example.com@127.0.0.1/hook', // the host is what follows the @
];

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
  await unthrottled(sandbox); // two enqueues per form, more than a minute's write bucket
});
afterAll(async () => sandbox?.close());

const jobCount = async () => (await sandbox.call('GET', '/api/jobs?limit=1')).body.count as number;

describe('webhook targets refused at enqueue (spec 6.4)', () => {
  it.each(BLOCKED_URLS)('refuses %s with 400 naming webhookUrl, and as webhook.url in the nested form', async (url) => {
    const before = await jobCount();
    const top = await sandbox.call('POST', '/api/sima/batch', { body: { skus: null, webhookUrl: url } });
    expect({ status: top.status, code: top.body.code, field: top.body.details?.field }).toEqual({ status: 400, code: 'INVALID_REQUEST', field: 'webhookUrl' });
    const nested = await sandbox.call('POST', '/api/sima/batch', { body: { skus: null, webhook: { url } } });
    expect({ status: nested.status, code: nested.body.code, field: nested.body.details?.field }).toEqual({ status: 400, code: 'INVALID_REQUEST', field: 'webhook.url' });
    expect(await jobCount()).toBe(before);
  });

  it('accepts public targets in the same forms, so the refusals are about the address', async () => {
    for (const url of ['https://hooks.example.com/hook', 'http://134744072/hook', 'http://[2606:4700::1111]/hook', 'https://localhost.example.com/hook', 'http://172.32.0.1/hook']) {
      const res = await sandbox.call('POST', '/api/sima/batch', { body: { skus: null, webhookUrl: url } });
      expect(res.status, `${url}: ${res.text}`).toBe(202);
    }
  });
});

describe('names resolving into blocked ranges, refused at delivery (spec 6.4)', () => {
  let receiver: Receiver | undefined;
  afterEach(async () => receiver?.close());

  /** One delivery attempt to http://<name>:<receiver port>/, with DNS answering `addresses` for the name. */
  const attempt = (name: string, addresses: ResolvedAddress[], allowed = false) =>
    sendAttempt({
      url: `http://${name}:${receiver!.port}/hook`,
      headers: { 'content-type': 'application/json' },
      body: '{}',
      resolve: async (host) => (host === name ? addresses : []),
      allowed,
      timeoutMs: 2_000,
      signal: new AbortController().signal,
    });

  it.each<[string, ResolvedAddress[]]>([
    ['loopback', [{ address: '127.0.0.1', family: 4 }]],
    ['loopback, another address of the range', [{ address: '127.8.9.10', family: 4 }]],
    ['cloud metadata', [{ address: '169.254.169.254', family: 4 }]],
    ['private 10/8', [{ address: '10.20.30.40', family: 4 }]],
    ['private 172.16/12', [{ address: '172.20.0.1', family: 4 }]],
    ['private 192.168/16', [{ address: '192.168.0.10', family: 4 }]],
    ['IPv6 loopback', [{ address: '::1', family: 6 }]],
    ['IPv4-mapped loopback', [{ address: '::ffff:127.0.0.1', family: 6 }]],
    ['IPv4-mapped metadata in hex', [{ address: '::ffff:a9fe:a9fe', family: 6 }]],
    ['NAT64 loopback', [{ address: '64:ff9b::7f00:1', family: 6 }]],
    ['a public address first, a blocked one after', [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }]],
  ])('refuses a name resolving to %s, and never connects', async (_, addresses) => {
    receiver = await startReceiver();
    const result = await attempt('hooks.rebind.test', addresses);
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/^refused: hooks\.rebind\.test resolves to blocked address/);
    expect(receiver.requests).toEqual([]);
  });

  it('reaches the pinned address when the name is on the local allow list, so the refusals are the blocklist', async () => {
    receiver = await startReceiver();
    const result = await attempt('hooks.rebind.test', [{ address: '127.0.0.1', family: 4 }], true);
    expect(result).toEqual({ statusCode: 200, error: null });
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0].headers.host).toBe(`hooks.rebind.test:${receiver.port}`);
  });

  it.each(['localhost', 'localhost.', 'hooks.localhost', '127.1', '2130706433'])('refuses %s by its name, before asking DNS', async (name) => {
    receiver = await startReceiver();
    let asked = false;
    const result = await sendAttempt({
      url: `http://${name}:${receiver.port}/hook`,
      headers: {},
      body: '{}',
      resolve: async () => ((asked = true), [{ address: '93.184.216.34', family: 4 }]),
      allowed: false,
      timeoutMs: 2_000,
      signal: new AbortController().signal,
    });
    expect(result.error).toMatch(/^refused: .* is a blocked target/);
    expect(asked).toBe(false);
    expect(receiver.requests).toEqual([]);
  });
});
