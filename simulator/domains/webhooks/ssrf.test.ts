// The SSRF blocklist (spec 6.4): every listed range and name, the IPv6 spellings of them, and nothing else.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockedAddress, blockedHost, ipv6Groups, isAllowedTarget } from './ssrf.js';

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

  it('blocks the IPv6 loopback, the unspecified address and IPv4-mapped blocked addresses', () => {
    expect(blockedAddress('::1')).toMatch(/loopback/);
    expect(blockedAddress('[::1]')).toMatch(/loopback/);
    expect(blockedAddress('0:0:0:0:0:0:0:1')).toMatch(/loopback/);
    expect(blockedAddress('::')).toMatch(/unspecified/);
    expect(blockedAddress('::ffff:127.0.0.1')).toMatch(/127\.0\.0\.0\/8/);
    expect(blockedAddress('::ffff:7f00:1')).toMatch(/127\.0\.0\.0\/8/);
    expect(blockedAddress('::ffff:a9fe:a9fe')).toMatch(/169\.254/);
    expect(blockedAddress('::ffff:8.8.8.8')).toBeNull();
  });

  it('lets public addresses through', () => {
    for (const address of ['8.8.8.8', '172.15.255.255', '172.32.0.0', '192.169.0.0', '169.253.255.255', '11.0.0.0', '2001:db8::1', '2606:4700::1111']) {
      expect(blockedAddress(address), address).toBeNull();
    }
  });

  it('judges an IPv4 address and its IPv4-mapped IPv6 form alike', () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        const mapped = blockedAddress(`::ffff:${v4}`);
        expect(mapped === null).toBe(blockedAddress(v4) === null);
      }),
    );
  });

  it('parses IPv6 text into eight groups', () => {
    expect(ipv6Groups('2001:db8::1')).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    expect(ipv6Groups('fe80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups('example.com')).toBeNull();
  });
});

describe('blockedHost and the local allow list', () => {
  it('blocks localhost names and literal blocked addresses, not other names', () => {
    expect(blockedHost('localhost')).toBe('localhost');
    expect(blockedHost('api.localhost')).toBe('localhost');
    expect(blockedHost('[::1]')).toMatch(/loopback/);
    expect(blockedHost('hooks.example.com')).toBeNull();
    expect(blockedHost('localhost.example.com')).toBeNull();
  });

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
