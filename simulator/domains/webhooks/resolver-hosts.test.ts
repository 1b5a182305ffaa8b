// The webhook resolver's host table (PUT /_sim/webhooks/resolver-hosts, local testing only): a listed name
// resolves to its address before DNS is asked, other hosts go to DNS, and the address is then judged by the
// SSRF rules like any DNS answer (spec 6 rule 4).
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../kernel/errors.js';
import { resolverHosts } from './resolver-hosts.js';
import { sendAttempt, type Resolve } from './transport.js';

const dns: Resolve = async (host) => [{ address: `203.0.113.${host.length}`, family: 4 }];

describe('the webhook resolver host table', () => {
  it('resolves a listed name (any case, trailing dot) to its address alone, and asks DNS for every other host', async () => {
    const hosts = resolverHosts();
    hosts.replace({ 'Hooks.Conformance.Invalid': '127.0.0.1' });
    const resolve = hosts.resolveWith(dns);
    expect(await resolve('hooks.conformance.invalid.')).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(await resolve('example.com')).toEqual([{ address: '203.0.113.11', family: 4 }]);
    expect(hosts.list()).toEqual({ 'hooks.conformance.invalid': '127.0.0.1' });
  });

  it('replaces the table as a whole, and refuses an IP literal as a name or a name as an address, keeping the table', () => {
    const hosts = resolverHosts();
    hosts.replace({ 'a.invalid': '::1' });
    expect(hosts.replace({ 'b.invalid': '10.0.0.5' })).toEqual({ 'b.invalid': '10.0.0.5' });
    expect(() => hosts.replace({ '127.0.0.1': '127.0.0.1' })).toThrow(ApiError);
    expect(() => hosts.replace({ 'c.invalid': 'localhost' })).toThrow(ApiError);
    expect(hosts.list()).toEqual({ 'b.invalid': '10.0.0.5' });
  });

  it('gives an address the SSRF rules refuse like a DNS answer: a listed name resolving to loopback is not delivered to', async () => {
    const hosts = resolverHosts();
    hosts.replace({ 'loop.conformance.invalid': '127.0.0.1' });
    const result = await sendAttempt({ url: 'http://loop.conformance.invalid:9/hook', headers: {}, body: '{}', resolve: hosts.resolveWith(dns), allowed: false, timeoutMs: 2_000, signal: new AbortController().signal });
    expect(result).toEqual({ statusCode: null, error: 'refused: loop.conformance.invalid resolves to blocked address 127.0.0.1 (127.0.0.0/8)' });
  });
});
