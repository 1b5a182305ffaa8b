// The SSRF blocklist (spec 6.4): every listed range and name, the other spellings of them (IPv6 forms,
// decimal / octal / hex / short IPv4, trailing dots, case), and nothing else.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockedAddress, blockedHost, canonicalHost, isAllowedTarget } from './ssrf.js';

const SEED = 0x5eed_6004;
const replay = `replay: npx vitest run simulator/domains/webhooks/ssrf.test.ts (fast-check seed ${SEED})`;

describe('blockedAddress', () => {
  it.each([
    ['127.0.0.1', '127.0.0.0/8'],
    ['127.255.255.255', '127.0.0.0/8'],
    ['10.1.2.3', '10.0.0.0/8'],
    ['172.16.0.0', '172.16.0.0/12'],
    ['172.31.255.255', '172.16.0.0/12'],
    ['192.168.0.1', '192.168.0.0/16'],
    ['169.254.169.254', '169.254.0.0/16'],
    ['0.0.0.0', '0.0.0.0/8'],
  ])('blocks %s (%s)', (address, range) => {
    expect(blockedAddress(address)).toBe(range);
  });

  it('blocks the IPv6 loopback, the unspecified address and the IPv4-mapped and -compatible forms of blocked addresses', () => {
    expect(blockedAddress('::1')).toMatch(/loopback/);
    expect(blockedAddress('[::1]')).toMatch(/loopback/);
    expect(blockedAddress('0:0:0:0:0:0:0:1')).toMatch(/loopback/);
    expect(blockedAddress('::')).toMatch(/unspecified/);
    expect(blockedAddress('::ffff:127.0.0.1')).toBe('IPv4-mapped 127.0.0.0/8');
    expect(blockedAddress('::ffff:7f00:1')).toBe('IPv4-mapped 127.0.0.0/8');
    expect(blockedAddress('0:0:0:0:0:ffff:a9fe:a9fe')).toBe('IPv4-mapped 169.254.0.0/16');
    expect(blockedAddress('::7f00:1')).toBe('IPv4-mapped 127.0.0.0/8');
    // NAT64's well-known prefix (RFC 6052) reaches the embedded IPv4 address through the gateway.
    expect(blockedAddress('64:ff9b::7f00:1')).toBe('IPv4-mapped 127.0.0.0/8');
    expect(blockedAddress('64:ff9b::169.254.169.254')).toBe('IPv4-mapped 169.254.0.0/16');
    expect(blockedAddress('64:ff9b::808:808')).toBeNull(); // 8.8.8.8: public through NAT64 too
    expect(blockedAddress('::ffff:8.8.8.8')).toBeNull();
  });

  it('lets public addresses through, and answers null for what is not an address', () => {
    for (const address of ['8.8.8.8', '172.15.255.255', '172.32.0.0', '192.169.0.0', '169.253.255.255', '11.0.0.0', '2001:db8::1', '2606:4700::1111', 'fe80::1%eth0']) {
      expect(blockedAddress(address), address).toBeNull();
    }
    expect(blockedAddress('example.com')).toBeNull();
    expect(blockedAddress('127.1')).toBeNull(); // not an address in resolver output: hosts go through blockedHost
  });

  it('judges an IPv4 address and its IPv4-mapped IPv6 forms alike', () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        const blocked = blockedAddress(v4) !== null;
        expect(blockedAddress(`::ffff:${v4}`) !== null, `::ffff:${v4} ${replay}`).toBe(blocked);
        const [a, b, c, d] = v4.split('.').map(Number);
        const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        expect(blockedAddress(`::ffff:${hex}`) !== null, `::ffff:${hex} ${replay}`).toBe(blocked);
      }),
      { seed: SEED, numRuns: 500 },
    );
  }, 20_000);
});

describe('blockedHost: every spelling of a blocked target (issue 15 item 6)', () => {
  // What a URL host can say for a blocked address; `new URL()` writes each one as the address it denotes.
  it.each([
    ['2130706433', '127.0.0.0/8'], // decimal
    ['0x7f000001', '127.0.0.0/8'], // hex
    ['0x7f.0x0.0x0.0x1', '127.0.0.0/8'], // hex parts
    ['0177.0.0.1', '127.0.0.0/8'], // octal
    ['017700000001', '127.0.0.0/8'], // octal, one number
    ['127.1', '127.0.0.0/8'], // short form
    ['127.0.1', '127.0.0.0/8'],
    ['10.1', '10.0.0.0/8'],
    ['0', '0.0.0.0/8'],
    ['127.0.0.1.', '127.0.0.0/8'], // trailing dot
    ['0xa9.0xfe.0xa9.0xfe', '169.254.0.0/16'], // cloud metadata, hex
    ['2852039166', '169.254.0.0/16'], // cloud metadata, decimal
    ['0300.0250.0.1', '192.168.0.0/16'],
    ['[::ffff:127.0.0.1]', 'IPv4-mapped 127.0.0.0/8'],
    ['[::ffff:a9fe:a9fe]', 'IPv4-mapped 169.254.0.0/16'],
    ['[0:0:0:0:0:0:0:1]', '::1 (loopback)'],
    ['::1', '::1 (loopback)'],
    ['[::]', ':: (unspecified)'],
    ['localhost', 'localhost'],
    ['LOCALHOST', 'localhost'],
    ['localhost.', 'localhost'],
    ['localhost..', 'localhost'],
    ['api.localhost', 'localhost'],
    ['Api.LocalHost.', 'localhost'],
  ])('blocks %s (%s)', (host, reason) => {
    expect(blockedHost(host)).toBe(reason);
  });

  it('judges the host the URL parser produced exactly as the raw host', () => {
    for (const raw of ['2130706433', '0x7f.1', '127.1', '127.0.0.1.', '[::ffff:127.0.0.1]', 'LOCALHOST.', '8.8.8.8', '0x08080808']) {
      expect(blockedHost(new URL(`http://${raw}/`).hostname), raw).toBe(blockedHost(raw));
    }
  });

  it('lets public addresses and other names through', () => {
    for (const host of ['hooks.example.com', 'localhost.example.com', 'mylocalhost', '8.8.8.8', '134744072', '0x08080808', '[2606:4700::1111]', '172.32.0.1']) {
      expect(blockedHost(host), host).toBeNull();
    }
  });

  it('writes hosts in the canonical form of the URL parser', () => {
    expect(canonicalHost('0x7f.1')).toBe('127.0.0.1');
    expect(canonicalHost('::FFFF:127.0.0.1')).toBe('::ffff:7f00:1');
    expect(canonicalHost('Hooks.Example.COM.')).toBe('hooks.example.com');
    expect(canonicalHost('not a host')).toBe('not a host');
  });

  it('blocks every address of a blocked range in any of its spellings, and no public one', () => {
    const spellings = (v4: string) => {
      const n = v4.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
      return [v4, String(n), `0x${n.toString(16)}`, `0${n.toString(8)}`, `${v4}.`, `[::ffff:${v4}]`];
    };
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        const expected = blockedAddress(v4);
        for (const spelling of spellings(v4)) {
          const got = blockedHost(spelling);
          expect(got === null, `${spelling} (${v4}) ${replay}`).toBe(expected === null);
        }
      }),
      { seed: SEED, numRuns: 500 },
    );
  }, 20_000);
});

describe('the local allow list', () => {
  it('matches a listed host or host:port, with the default port of the scheme', () => {
    expect(isAllowedTarget(new URL('http://127.0.0.1:45123/x'), ['127.0.0.1:45123'])).toBe(true);
    expect(isAllowedTarget(new URL('http://127.0.0.1:45124/x'), ['127.0.0.1:45123'])).toBe(false);
    expect(isAllowedTarget(new URL('http://localhost/x'), ['localhost:80'])).toBe(true);
    expect(isAllowedTarget(new URL('https://localhost/x'), ['localhost:80'])).toBe(false);
    expect(isAllowedTarget(new URL('http://[::1]:8080/x'), ['[::1]:8080'])).toBe(true);
    expect(isAllowedTarget(new URL('http://LocalHost:1/x'), ['localhost'])).toBe(true);
    expect(isAllowedTarget(new URL('http://127.0.0.1/x'), [])).toBe(false);
  });
});
