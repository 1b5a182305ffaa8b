// The webhook resolver's host table (sandbox-defined, local testing only): names the dispatcher resolves to
// the address given here before asking DNS, like a hosts file for deliveries. A client check of spec 6 rule 4
// ("The hostname is resolved before the request, the resolved address is pinned for the delivery and checked
// against the same blocklist") needs a name that resolves into a blocked range, and a machine without public
// DNS has none; PUT /_sim/webhooks/resolver-hosts sets them at run time. Only delivery resolution reads the
// table: the SSRF rules judge the address it gives exactly as one DNS gave (a listed name is not allowed by
// being listed; the allow list is separate). Kept in memory only, like the allow list: a restart starts empty.
import { isIP } from 'node:net';
import { invalidRequest } from '../../kernel/errors.js';
import type { Resolve } from './transport.js';

export interface ResolverHosts {
  /** The table in force: lower-case host name to IP address. */
  list(): Readonly<Record<string, string>>;
  /** Replaces the table (400 naming the entry when a name is an IP or a value is not one). Returns the table now in force. */
  replace(hosts: Readonly<Record<string, string>>): Readonly<Record<string, string>>;
  /** `base` with the table in front: a listed name resolves to its address alone, any other host through `base`. */
  resolveWith(base: Resolve): Resolve;
}

const nameOf = (host: string) => host.trim().toLowerCase().replace(/\.+$/, '');

export function resolverHosts(): ResolverHosts {
  let current: Readonly<Record<string, string>> = Object.freeze({});
  return {
    list: () => current,
    replace(hosts) {
      const next: Record<string, string> = {};
      for (const [host, address] of Object.entries(hosts)) {
        const name = nameOf(host);
        if (!name || isIP(name.replace(/^\[|\]$/g, '')) !== 0) throw invalidRequest(`hosts: ${JSON.stringify(host)} is not a host name`, `hosts.${host}`);
        if (isIP(address.trim()) === 0) throw invalidRequest(`hosts.${host}: ${JSON.stringify(address)} is not an IP address`, `hosts.${host}`);
        next[name] = address.trim();
      }
      current = Object.freeze(next);
      return current;
    },
    resolveWith: (base) => async (host) => {
      const address = current[nameOf(host)];
      return address === undefined ? base(host) : [{ address, family: isIP(address) }];
    },
  };
}
