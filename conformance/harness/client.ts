// The suite's HTTP client. Every response it receives is checked against the contract (status documented,
// content type, headers, body schema) and each problem is reported to the check that sent the request, so
// every check also certifies the responses it happens to see.
import { matchOperation } from '../../contracts/lib/operations.js';
import { responseProblems } from '../../contracts/lib/response-check.js';
import type { LoadedContract } from './contract.js';
import type { Exchange, Failure } from './types.js';

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
}

export type FailureSink = (failure: Failure) => void;

/** Bearer tokens per integration key, shared by every check of a run. */
export class TokenCache {
  private readonly tokens = new Map<string, string>();
  get(key: string) {
    return this.tokens.get(key);
  }
  set(key: string, token: string) {
    this.tokens.set(key, token);
  }
  drop(key: string) {
    this.tokens.delete(key);
  }
}

/** Requests sent, shared by every client derived for one check (other tenants included). */
export interface RequestCounter {
  count: number;
}

export class ConformanceClient {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string,
    readonly contract: LoadedContract,
    private readonly sink: FailureSink,
    private readonly tokens: TokenCache = new TokenCache(),
    private readonly timeoutMs = 30_000,
    private readonly counter: RequestCounter = { count: 0 },
  ) {}

  get requests(): number {
    return this.counter.count;
  }

  /** The same client for another integration key (a second tenant); requests count for the same check. */
  withApiKey(apiKey: string): ConformanceClient {
    return new ConformanceClient(this.baseUrl, apiKey, this.contract, this.sink, this.tokens, this.timeoutMs, this.counter);
  }

  /** A client reporting to another sink, counting into `counter` (the runner gives each check both). */
  withSink(sink: FailureSink, counter: RequestCounter = { count: 0 }): ConformanceClient {
    return new ConformanceClient(this.baseUrl, this.apiKey, this.contract, sink, this.tokens, this.timeoutMs, counter);
  }

  /** Exchanges the integration key (spec 5.1), cached; `fresh` forces a new exchange. */
  async token(fresh = false): Promise<string> {
    const cached = this.tokens.get(this.apiKey);
    if (cached && !fresh) return cached;
    const exchange = await this.call('POST', '/api/auth/token/integration', { auth: { apiKey: this.apiKey } });
    const token = (exchange.response.body as { access_token?: string })?.access_token;
    if (exchange.response.status !== 200 || !token) {
      throw new Error(`the token exchange answered ${exchange.response.status}: ${exchange.response.text.slice(0, 300)}`);
    }
    this.tokens.set(this.apiKey, token);
    return token;
  }

  async call(method: string, path: string, options: RequestOptions = {}): Promise<Exchange> {
    const auth = options.auth ?? 'bearer';
    const first = await this.send(method, path, options, auth === 'bearer' ? await this.token() : undefined);
    // Spec 5.2: on 401 INVALID_TOKEN, re-exchange the key and retry the request once.
    if (auth === 'bearer' && first.response.status === 401 && (first.response.body as { code?: string })?.code === 'INVALID_TOKEN') {
      this.tokens.drop(this.apiKey);
      return this.send(method, path, options, await this.token(true));
    }
    return first;
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
    const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
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
