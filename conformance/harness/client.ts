// The suite's HTTP client. Every response it receives is checked against the contract (status documented,
// content type, headers, body schema) and each problem is reported to the check that sent the request, so
// every check also certifies the responses it happens to see.
import { matchOperation } from '../../contracts/lib/operations.js';
import { responseProblems } from '../../contracts/lib/response-check.js';
import type { LoadedContract } from './contract.js';
import {
  backoffWithJitter,
  bucketOf,
  MAX_429_RETRIES,
  PERSISTENT_429_BOUND_MS,
  retryMetadataOf,
  TOKEN_EXCHANGE_BACKOFF_MS,
  TokenCache,
  Transport,
} from './transport.js';
import type { Exchange, Failure } from './types.js';

const TOKEN_PATH = '/api/auth/token/integration';

export type Auth = 'bearer' | 'none' | { bearer: string } | { apiKey: string } | { apiKey: string; orgId: string };

export interface RequestOptions {
  auth?: Auth;
  headers?: Record<string, string>;
  json?: unknown;
  /** A raw body (with its content-type in `headers`), for malformed-body checks. */
  raw?: string;
  form?: FormData;
  /** Do not check the response against the contract (a route the contract does not have). */
  unchecked?: boolean;
  /** `provoke`: neither paced nor retried on 429 (a check provoking the limit on purpose, limits.ts). */
  limits?: 'provoke';
}

export type FailureSink = (failure: Failure) => void;

/** Requests sent, shared by every client derived for one check (other tenants included). */
export interface RequestCounter {
  count: number;
}

export { TokenCache };

/** The keys a spreading client may send as besides its own, and those refused for scope (shared by its copies). */
interface Alternates {
  keys: string[];
  refused?: Set<string>;
  /** The keys are used only for a request the own key was refused for scope (fallingBackTo), not to spread. */
  fallbackOnly?: boolean;
}

/**
 * The one transport of the suite (transport.ts): every request of every check goes through `call`, which
 * paces it within the limits known for its key and bucket (spec 8.1), waits out a 429 as its retry metadata
 * asks and sends again (spec 7), and re-exchanges the key once on 401 INVALID_TOKEN (spec 5.2). A 429 that
 * gives no retry metadata, or one that persists past what it asked for plus a bound, is reported as the
 * server's failure (rules `rate-limit-retry-metadata`, `rate-limit-persists`) and handed to the check.
 */
/** What a client is made of. The clients derived for one check share its tokens, counter and transport. */
export interface ClientParts {
  baseUrl: string;
  apiKey: string;
  contract: LoadedContract;
  sink: FailureSink;
  tokens?: TokenCache;
  timeoutMs?: number;
  counter?: RequestCounter;
  transport?: Transport;
  /** Other integration keys this client's bearer requests may go out as (see spreadOver). */
  alternates?: Alternates;
}

export class ConformanceClient {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly contract: LoadedContract;
  readonly transport: Transport;
  private readonly sink: FailureSink;
  private readonly tokens: TokenCache;
  private readonly timeoutMs: number;
  private readonly counter: RequestCounter;
  private readonly alternates: Alternates;

  constructor(parts: ClientParts) {
    this.baseUrl = parts.baseUrl;
    this.apiKey = parts.apiKey;
    this.contract = parts.contract;
    this.sink = parts.sink;
    this.tokens = parts.tokens ?? new TokenCache();
    this.timeoutMs = parts.timeoutMs ?? 30_000;
    this.counter = parts.counter ?? { count: 0 };
    this.transport = parts.transport ?? new Transport();
    this.alternates = parts.alternates ?? { keys: [] };
  }

  /** This client with `changes`; a derived client spreads over no other key unless `changes` says so. */
  private derive(changes: Partial<ClientParts>): ConformanceClient {
    const { baseUrl, apiKey, contract, sink, tokens, timeoutMs, counter, transport } = this;
    return new ConformanceClient({ baseUrl, apiKey, contract, sink, tokens, timeoutMs, counter, transport, ...changes });
  }

  get requests(): number {
    return this.counter.count;
  }

  /** The same client for another integration key (a second tenant); requests count for the same check. */
  withApiKey(apiKey: string): ConformanceClient {
    return this.derive({ apiKey });
  }

  /** A client reporting to another sink, counting into `counter` (the runner gives each check both; a model's probe keeps the check's). */
  withSink(sink: FailureSink, counter: RequestCounter = this.counter): ConformanceClient {
    return this.derive({ sink, counter });
  }

  /**
   * The same client, whose bearer requests each go out as whichever of its key and `other`'s is served
   * soonest in the request's bucket (`other`'s on a tie), once the run has learned that the bucket is counted per key (a 429 naming
   * the key, transport.ts BucketScope); until then, and for a bucket learned shared, as its own key. For checks
   * whose requests are independent of the tenant that answers them (input validation): the same requests and
   * assertions, the limits of two keys. A key refused for scope (403 SCOPE_DENIED) where the own key is not
   * is not the same kind of key: the request goes again as the own key, and this client (one check) uses that key no more.
   */
  spreadOver(other: ConformanceClient | undefined): ConformanceClient {
    if (!other || !other.apiKey || other.apiKey === this.apiKey) return this;
    return this.derive({ alternates: { keys: [...this.alternates.keys, other.apiKey], refused: this.alternates.refused ?? new Set() } });
  }

  /**
   * The same client, sending a request its key was refused for scope (403 SCOPE_DENIED) again as `other`'s
   * key: a check run as the second tenant (runner.ts lanes) whose key the operator gave fewer scopes.
   */
  fallingBackTo(other: ConformanceClient): ConformanceClient {
    if (other.apiKey === this.apiKey) return this;
    return this.derive({ alternates: { keys: [other.apiKey], fallbackOnly: true } });
  }

  /** The tenant's clock was moved past its rate windows (control API): what the transport held for it is gone. */
  windowsMoved() {
    if (this.apiKey) this.transport.windowsMoved(this.apiKey);
  }

  /**
   * A bearer token for the key (spec 5.1), reused until shortly before its `expires_in` runs out; `fresh`
   * forces a new exchange. Spec 7: the exchange is retried up to 3 times on 429 or 5xx, after 1 s, 2 s and
   * 4 s plus jitter, and never sooner than a 429's `retryAfterSeconds`.
   */
  async token(fresh = false): Promise<string> {
    const cached = this.tokens.get(this.apiKey);
    if (cached && !fresh) return cached;
    const clock = this.transport.clock;
    let exchange: Exchange;
    for (let attempt = 0; ; attempt++) {
      exchange = await this.paced('POST', TOKEN_PATH, { auth: { apiKey: this.apiKey } }, undefined, true);
      const status = exchange.response.status;
      if (!(status === 429 || status >= 500) || attempt >= TOKEN_EXCHANGE_BACKOFF_MS.length) break;
      const asked = status === 429 ? (retryMetadataOf(exchange).retryAfterSeconds ?? 0) * 1000 : 0;
      await clock.sleep(Math.max(backoffWithJitter(attempt, clock.random()), asked));
    }
    const body = exchange.response.body as { access_token?: unknown; expires_in?: unknown } | null;
    const token = typeof body?.access_token === 'string' ? body.access_token : undefined;
    if (exchange.response.status !== 200 || !token) {
      throw new Error(`the token exchange answered ${exchange.response.status}: ${exchange.response.text.slice(0, 300)}`);
    }
    this.tokens.set(this.apiKey, token, typeof body?.expires_in === 'number' ? body.expires_in : undefined);
    return token;
  }

  async call(method: string, path: string, options: RequestOptions = {}): Promise<Exchange> {
    const alternate = this.alternateFor(method, path, options);
    const elsewhere = alternate ? await this.callAs(alternate, method, path, options) : undefined;
    const exchange = elsewhere ?? (await this.callAsOwnKey(method, path, options));
    const fallback = this.alternates.fallbackOnly && scopeDenied(exchange) && (options.auth ?? 'bearer') === 'bearer' ? this.alternates.keys[0] : undefined;
    return fallback ? this.withApiKey(fallback).call(method, path, options) : exchange;
  }

  /** The request sent as another key (spreadOver); undefined when that key was refused for scope. */
  private async callAs(key: string, method: string, path: string, options: RequestOptions): Promise<Exchange | undefined> {
    const exchange = await this.derive({ apiKey: key }).call(method, path, options);
    if (!scopeDenied(exchange)) return exchange;
    this.alternates.refused?.add(key);
    return undefined;
  }

  /** The key to send a spread request as, when it is not this client's own (spreadOver). */
  private alternateFor(method: string, path: string, options: RequestOptions): string | undefined {
    if (!this.alternates.keys.length || this.alternates.fallbackOnly || (options.auth ?? 'bearer') !== 'bearer' || options.limits === 'provoke') return undefined;
    const bucket = bucketOf(method, matchOperation(this.contract.doc, method, path.split('?')[0]), options.form !== undefined);
    if (this.transport.scopeOf(bucket) !== 'per-key') return undefined;
    // On a tie the other key: the own key also carries every check that cannot spread (a resource of its
    // tenant, a model of its data), which then finds its windows the less used.
    const own = this.transport.waitOf(this.apiKey, bucket);
    let best: { key: string; wait: number } | undefined;
    for (const key of this.alternates.keys) {
      if (this.alternates.refused?.has(key)) continue;
      const wait = this.transport.waitOf(key, bucket);
      if (wait <= own && (!best || wait < best.wait)) best = { key, wait };
    }
    return best?.key;
  }

  private async callAsOwnKey(method: string, path: string, options: RequestOptions): Promise<Exchange> {
    const auth = options.auth ?? 'bearer';
    const first = await this.sendHonouringLimits(method, path, options, auth === 'bearer' ? await this.token() : undefined);
    // Spec 5.2: on 401 INVALID_TOKEN, re-exchange the key and retry the request once.
    if (auth === 'bearer' && first.response.status === 401 && (first.response.body as { code?: string })?.code === 'INVALID_TOKEN') {
      this.tokens.drop(this.apiKey);
      return this.sendHonouringLimits(method, path, options, await this.token(true));
    }
    return first;
  }

  /**
   * Sends, and while the answer is 429 waits what it asks (`details.retryAfterSeconds`, else Retry-After)
   * and sends again (spec 7, 8.1, 8.2), up to {@link PERSISTENT_429_BOUND_MS} past the first wait asked.
   * With `limits: 'provoke'` the 429 is returned as it came (the check provoking the limit judges it).
   */
  private async sendHonouringLimits(method: string, path: string, options: RequestOptions, bearer: string | undefined): Promise<Exchange> {
    const provoking = options.limits === 'provoke';
    let exchange = await this.paced(method, path, options, bearer, !provoking);
    if (provoking) return exchange;
    let deadline: number | undefined;
    for (let retry = 0; exchange.response.status === 429; retry++) {
      const { retryAfterSeconds } = retryMetadataOf(exchange);
      if (retryAfterSeconds === undefined) {
        this.sink({ rule: 'rate-limit-retry-metadata', message: `${method} ${path} answered 429 without retry metadata: no details.retryAfterSeconds and no Retry-After (spec 7: on 429 wait details.retryAfterSeconds)`, exchange });
        return exchange;
      }
      const now = this.transport.clock.now();
      deadline ??= now + retryAfterSeconds * 1000 + PERSISTENT_429_BOUND_MS;
      if (retry >= MAX_429_RETRIES || now + retryAfterSeconds * 1000 > deadline) {
        this.sink({ rule: 'rate-limit-persists', message: `${method} ${path} was still answered 429 after ${retry + 1} sends, each after waiting what the previous 429 asked; the first asked ${retryAfterSeconds} s and ${Math.round(PERSISTENT_429_BOUND_MS / 1000)} s more were allowed (spec 7, 8)`, exchange });
        return exchange;
      }
      // The hold the transport learned from the 429 makes the next send of the bucket wait; a 429 that held
      // nothing this request is paced by (a queue-admission cap, another bucket, no key of ours) is waited here.
      const named = retryMetadataOf(exchange).bucket;
      const held = this.keyOf(options, bearer) !== undefined && (named === undefined || named === bucketOf(method, exchange.operation, options.form !== undefined));
      // A spreading client sends the refused request as another key when that one is served sooner (the 429
      // may just have taught the run that the bucket is counted per key).
      const elsewhere = bearer !== undefined ? this.alternateFor(method, path, options) : undefined;
      const moved = elsewhere ? await this.callAs(elsewhere, method, path, options) : undefined;
      if (moved) return moved;
      if (!held) await this.transport.clock.sleep(retryAfterSeconds * 1000);
      exchange = await this.paced(method, path, options, bearer, true);
    }
    return exchange;
  }

  /** One send, paced within its key's bucket; a 429 teaches the transport the bucket's limit and hold. */
  private async paced(method: string, path: string, options: RequestOptions, bearer: string | undefined, paced: boolean): Promise<Exchange> {
    const operation = matchOperation(this.contract.doc, method, path.split('?')[0]);
    const bucket = bucketOf(method, operation, options.form !== undefined);
    // Only the key's own traffic is the key's (spec 8.1: buckets of integration-key traffic); a forged or
    // foreign bearer, or no credential, is not paced.
    const key = this.keyOf(options, bearer);
    if (key) await this.transport.admit(key, bucket, paced);
    const exchange = await this.send(method, path, options, bearer);
    if (exchange.response.status === 429 && key) this.transport.learn(key, bucket, retryMetadataOf(exchange));
    return exchange;
  }

  /** The integration key a request is sent as: this client's, with its own bearer or the key itself. */
  private keyOf(options: RequestOptions, bearer: string | undefined): string | undefined {
    const auth = options.auth;
    const ownKey = typeof auth === 'object' && 'apiKey' in auth && auth.apiKey === this.apiKey;
    return this.apiKey && (bearer !== undefined || ownKey) ? this.apiKey : undefined;
  }

  private async send(method: string, path: string, options: RequestOptions, bearer: string | undefined): Promise<Exchange> {
    const auth = options.auth ?? 'bearer';
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    else if (typeof auth === 'object' && 'bearer' in auth) headers.authorization = `Bearer ${auth.bearer}`;
    else if (typeof auth === 'object' && 'apiKey' in auth) {
      headers['x-api-key'] = auth.apiKey;
      if ('orgId' in auth) headers['x-org-id'] = auth.orgId;
    }
    let body: string | FormData | undefined;
    let described: string | undefined;
    if (options.form) {
      body = options.form;
      described = describeForm(options.form);
    } else if (options.raw !== undefined) {
      body = options.raw;
      described = options.raw;
    } else if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
      described = body;
    }
    const url = this.baseUrl + path;
    const started = performance.now();
    this.counter.count++;
    const res = await fetchOnce(url, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs + sendingTimeMs(options.form)) });
    const text = await res.text();
    const responseHeaders = Object.fromEntries(res.headers.entries());
    let parsed: unknown = text;
    if ((responseHeaders['content-type'] ?? '').includes('json')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    const exchange: Exchange = {
      request: { method, url, headers: redact(headers), body: described },
      response: { status: res.status, headers: responseHeaders, body: parsed, text },
      operation: matchOperation(this.contract.doc, method, path),
      durationMs: performance.now() - started,
    };
    if (!options.unchecked && exchange.operation) {
      for (const problem of responseProblems(this.contract.doc, this.contract.schemas, exchange.operation, exchange.response, this.contract.responseCheck)) {
        this.sink({ rule: 'response-conformance', message: `${exchange.operation.operationId}: ${problem}`, exchange });
      }
    }
    return exchange;
  }
}

/**
 * Connection-level failures that say the server closed the socket without answering: a kept-alive
 * connection closed while idle, reused at the same moment (HTTP/1.1 lets a server close an idle connection
 * at any time, RFC 9112 9.6; under load the client's own idle timer can fire too late to avoid it).
 */
const CLOSED_UNANSWERED = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * fetch, sent once more when the socket was closed before any answer came (CLOSED_UNANSWERED): the request
 * is then sent on a new connection. A server that closes every such request fails the second send too, and
 * the check that sent it fails as before.
 */
async function fetchOnce(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = ((error as { cause?: { code?: unknown } }).cause?.code ?? '') as string;
    if (!CLOSED_UNANSWERED.has(code) || init.signal?.aborted) throw error;
    return fetch(url, init);
  }
}

function redact(headers: Record<string, string>): Record<string, string> {
  const out = { ...headers };
  if (out.authorization) out.authorization = out.authorization.replace(/^(Bearer\s+)(.{8}).*$/i, '$1$2…');
  if (out['x-api-key']) out['x-api-key'] = `${out['x-api-key'].slice(0, 8)}…`;
  return out;
}

function describeForm(form: FormData): string {
  return [...form.entries()]
    .map(([name, value]) => (typeof value === 'string' ? `${name}=${value}` : `${name}=<file ${(value as File).name}, ${(value as File).size} bytes>`))
    .join('&');
}

/** Spec 7: 403 SCOPE_DENIED, the key lacks the scope the route needs. */
const scopeDenied = (exchange: Exchange) => exchange.response.status === 403 && (exchange.response.body as { code?: string } | null)?.code === 'SCOPE_DENIED';

/** The time a form's files take on the wire at 1 MB/s, beside the request timeout: a 50 MB upload (spec 8.3) is not cut short. */
function sendingTimeMs(form: FormData | undefined): number {
  let bytes = 0;
  for (const [, value] of form?.entries() ?? []) if (typeof value !== 'string') bytes += value.size;
  return Math.round(bytes / 1000);
}
