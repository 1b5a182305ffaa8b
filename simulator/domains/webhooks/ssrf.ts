// SSRF rules for webhook targets (spec 6.4, contracts decision 10): the blocked ranges and names, checked
// on the URL at enqueue and on every resolved address at delivery, plus the local-testing allow list.
// Addresses are matched by Node's `net.BlockList` (which also matches IPv4-mapped IPv6 addresses against
// IPv4 rules); a host is put in canonical form by the WHATWG URL host parser, the one `new URL()` applied to
// the webhook URL, so decimal, octal, hex and short IPv4 forms (`2130706433`, `0x7f.1`, `127.1`) and a
// trailing dot are judged as the address they denote. No IP text is parsed by hand here.
import { BlockList, isIP } from 'node:net';

/** spec 6.4's ranges; 0.0.0.0/8 added because connecting to 0.0.0.0 reaches the local host. */
const BLOCKED_V4: ReadonlyArray<readonly [network: string, prefix: number]> = [
  ['0.0.0.0', 8],
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
];

interface BlockedRange {
  label: string;
  list: BlockList;
}

function v4Range(network: string, prefix: number): BlockedRange {
  const list = new BlockList();
  // The IPv4 rule also matches the IPv4-mapped form (::ffff:a.b.c.d); the deprecated IPv4-compatible form
  // (::a.b.c.d) reaches the same address on some stacks, and on a network with NAT64 (a hosted sandbox on
  // IPv6-only hosts) the well-known prefix form (64:ff9b::a.b.c.d, RFC 6052) does: both blocked too.
  list.addSubnet(network, prefix, 'ipv4');
  list.addSubnet(`::${network}`, 96 + prefix, 'ipv6');
  list.addSubnet(`64:ff9b::${network}`, 96 + prefix, 'ipv6');
  return { label: `${network}/${prefix}`, list };
}

function v6Address(address: string, label: string): BlockedRange {
  const list = new BlockList();
  list.addAddress(address, 'ipv6');
  return { label, list };
}

// The IPv6 names first: `::1` and `::` also fall in the IPv4-compatible form of 0.0.0.0/8.
const BLOCKED: readonly BlockedRange[] = [
  v6Address('::1', '::1 (loopback)'),
  v6Address('::', ':: (unspecified)'),
  ...BLOCKED_V4.map(([network, prefix]) => v4Range(network, prefix)),
];

/** Why an IP address may not be a webhook target (the blocked range), or null when it may. Non-IP input: null. */
export function blockedAddress(address: string): string | null {
  // A zone id (fe80::1%eth0) names an interface, not another address: the address is what is judged.
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0];
  const family = isIP(bare);
  if (family === 0) return null;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const range = BLOCKED.find(({ list }) => list.check(bare, type));
  if (!range) return null;
  const mapped = family === 6 && !range.label.includes(':');
  return mapped ? `IPv4-mapped ${range.label}` : range.label;
}

/**
 * The host as the WHATWG URL parser writes it (lower case, IPv4 in dotted decimal, IPv6 compressed), without
 * brackets and without trailing dots; a host the parser refuses stays as it was, lower-cased.
 */
export function canonicalHost(hostname: string): string {
  const raw = hostname.trim().toLowerCase();
  const bracketed = isIP(raw.replace(/^\[|\]$/g, '')) === 6 && !raw.startsWith('[') ? `[${raw}]` : raw;
  let host = raw;
  try {
    host = new URL(`http://${bracketed}/`).hostname;
  } catch {
    // Not a host a URL can carry: judged by name below, never as an address.
  }
  return host.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
}

/** Why a URL host may not be a webhook target (a blocked name or a literal blocked address), or null. */
export function blockedHost(hostname: string): string | null {
  const host = canonicalHost(hostname);
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
