// SSRF rules for webhook targets (spec 6.4, contracts decision 10): the blocked ranges and names, checked
// on the URL at enqueue and on every resolved address at delivery, plus the local-testing allow list.
import { isIPv4, isIPv6 } from 'node:net';

/** spec 6.4's ranges; 0.0.0.0/8 added because connecting to 0.0.0.0 reaches the local host. */
const BLOCKED_V4: ReadonlyArray<{ range: string; base: number; bits: number }> = [
  { range: '0.0.0.0/8', base: 0x00000000, bits: 8 },
  { range: '127.0.0.0/8', base: 0x7f000000, bits: 8 },
  { range: '10.0.0.0/8', base: 0x0a000000, bits: 8 },
  { range: '172.16.0.0/12', base: 0xac100000, bits: 12 },
  { range: '192.168.0.0/16', base: 0xc0a80000, bits: 16 },
  { range: '169.254.0.0/16', base: 0xa9fe0000, bits: 16 },
];

function ipv4Number(ip: string): number | null {
  if (!isIPv4(ip)) return null;
  return ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

function blockedV4(value: number): string | null {
  for (const { range, base, bits } of BLOCKED_V4) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((value & mask) >>> 0 === base) return range;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail and a zone id allowed), or null. */
export function ipv6Groups(ip: string): number[] | null {
  let text = ip.split('%')[0];
  if (!isIPv6(text)) return null;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = ipv4Number(tail);
    if (v4 === null) return null;
    text = `${text.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const groups = rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** Why an IP address may not be a webhook target, or null when it may. Non-IP input is not an address: null. */
export function blockedAddress(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  const v4 = ipv4Number(bare);
  if (v4 !== null) return blockedV4(v4);
  const groups = ipv6Groups(bare);
  if (!groups) return null;
  if (groups.every((g) => g === 0)) return ':: (unspecified)';
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return '::1 (loopback)';
  const embedded = ((groups[6] << 16) >>> 0) + groups[7];
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) addresses reach the IPv4 address they embed.
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  const compatible = groups.slice(0, 6).every((g) => g === 0);
  if (mapped || compatible) {
    const range = blockedV4(embedded);
    return range ? `IPv4-mapped ${range}` : null;
  }
  return null;
}

/** Why a URL host may not be a webhook target (a blocked name or a literal blocked address), or null. */
export function blockedHost(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  // spec 6.4 names `localhost`; its subdomains resolve to loopback too (RFC 6761).
  if (host === 'localhost' || host.endsWith('.localhost')) return 'localhost';
  return blockedAddress(host);
}

/** Local testing only (SIM_WEBHOOK_ALLOW_TARGETS): whether the URL's host or host:port is listed. */
export function isAllowedTarget(url: URL, allowList: readonly string[]): boolean {
  if (allowList.length === 0) return false;
  const bare = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const candidates = new Set([bare, `[${bare}]`, url.hostname.toLowerCase()].flatMap((h) => [h, `${h}:${port}`]));
  return allowList.some((entry) => candidates.has(entry.trim().toLowerCase()));
}
