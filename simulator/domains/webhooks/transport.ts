// One delivery attempt on the wire (spec 6 rules 1, 2 and 4): resolve the host, refuse if any address is
// blocked, pin the checked address for the connection, POST the exact body, and give up after the timeout.
import http from 'node:http';
import https from 'node:https';
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { blockedAddress, blockedHost } from './ssrf.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address (injectable: tests simulate DNS answers). */
export type Resolve = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = (host) => lookup(host, { all: true, verbatim: true });

export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
}

/** Thrown when the attempt was cut off by a shutdown: it is not recorded, and is retried on restart. */
export class AttemptInterrupted extends Error {}

export interface SendOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  resolve: Resolve;
  /** Local testing allow list matched: skip the blocklist (the address is still resolved and pinned). */
  allowed: boolean;
  /** Whether the resolved addresses are checked against the blocklist (spec 6 rule 4); default true. */
  checkResolved?: boolean;
  timeoutMs: number;
  /** Aborted on shutdown. */
  signal: AbortSignal;
}

export async function sendAttempt(options: SendOptions): Promise<AttemptResult> {
  const url = new URL(options.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort('timeout'), options.timeoutMs);
  const onStop = () => controller.abort('stopped');
  options.signal.addEventListener('abort', onStop, { once: true });
  if (options.signal.aborted) controller.abort('stopped');
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(controller.signal.reason === 'stopped' ? new AttemptInterrupted('shutdown') : new Error('timeout'));
    if (controller.signal.aborted) fail();
    else controller.signal.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => {});
  try {
    if (!options.allowed) {
      const blocked = blockedHost(host);
      if (blocked) return { statusCode: null, error: `refused: ${host} is a blocked target (${blocked})` };
    }
    let addresses: ResolvedAddress[];
    try {
      addresses = await Promise.race([options.resolve(host), aborted]);
    } catch (error) {
      if (error instanceof AttemptInterrupted || controller.signal.aborted) throw error;
      return { statusCode: null, error: `could not resolve ${host}: ${(error as Error).message}` };
    }
    if (addresses.length === 0) return { statusCode: null, error: `could not resolve ${host}: no address` };
    if (!options.allowed && options.checkResolved !== false) {
      // spec 6.4: every resolved address is checked; one blocked address refuses the attempt (no connection).
      for (const { address } of addresses) {
        const blocked = blockedAddress(address);
        if (blocked) return { statusCode: null, error: `refused: ${host} resolves to blocked address ${address} (${blocked})` };
      }
    }
    const statusCode = await Promise.race([post(url, host, addresses[0], options, controller.signal), aborted]);
    return { statusCode, error: statusCode >= 200 && statusCode < 300 ? null : `unexpected status ${statusCode}` };
  } catch (error) {
    if (controller.signal.reason === 'stopped') throw new AttemptInterrupted('shutdown');
    if (controller.signal.reason === 'timeout') return { statusCode: null, error: `timed out after ${options.timeoutMs} ms` };
    return { statusCode: null, error: (error as Error).message || String(error) };
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', onStop);
  }
}

/** POSTs to the pinned address; resolves with the status code once the response head arrives. */
function post(url: URL, host: string, pinned: ResolvedAddress, options: SendOptions, signal: AbortSignal): Promise<number> {
  // The connection goes to the checked address whatever DNS answers now (no rebinding between check and use).
  const pinnedLookup = ((_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (lookupOptions?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
  const secure = url.protocol === 'https:';
  return new Promise<number>((resolve, reject) => {
    const request = (secure ? https : http).request(
      {
        method: 'POST',
        host,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        // Host header and TLS server name stay the original host, whatever address was pinned.
        headers: { ...options.headers, Host: url.host, 'Content-Length': String(Buffer.byteLength(options.body)) },
        ...(secure && isIP(host) === 0 ? { servername: host } : {}),
        ...(url.username ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` } : {}),
        lookup: pinnedLookup,
        agent: false,
        signal,
      },
      (response) => {
        // spec 6 rule 1: the body is ignored.
        resolve(response.statusCode ?? 0);
        response.resume();
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
