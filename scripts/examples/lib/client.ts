// A typed client of the public API (contract v1.3.0) as an integrator would build it: openapi-fetch over the
// types openapi-typescript generated from the contract (contracts/generated/v1.3.0.ts, `npm run
// contracts:types`), with a fetch underneath that
//   - exchanges the integration key for a bearer token on first use (spec 5.1), and on a 401 INVALID_TOKEN
//     exchanges it again and repeats the request once (spec 5.2);
//   - retries by the rules of spec 7 (retry.ts), giving every POST to an idempotent endpoint (spec 8.5) an
//     `Idempotency-Key` first so that its retry is safe.
// Every path, parameter, body field and response below is checked by tsc against the contract.
import { randomUUID } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../../../contracts/generated/v1.3.0.js';
import { backoffMs, IDEMPOTENT_POSTS, retryAfterMs, retryPolicyFor, TOKEN_EXCHANGE_PATH } from './retry.js';

export type Schemas = components['schemas'];
export type SandboxApi = Client<paths>;

export interface SandboxClientOptions {
  /** The API's base URL, e.g. http://127.0.0.1:4010 (SANDBOX_URL). */
  baseUrl: string;
  /** The operator-issued integration key (SANDBOX_API_KEY). */
  apiKey: string;
  log?: (line: string) => void;
  /** Injected by tests so that backoffs take no time. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface SandboxClient {
  api: SandboxApi;
  /** How many times the key was exchanged (1 after the first call; +1 per re-exchange). */
  exchanges(): number;
}

/** An error answer of the API, in the envelope of spec 2.9, with the request id to quote to support. */
export class ApiError extends Error {
  constructor(
    readonly what: string,
    readonly status: number,
    readonly body: { code?: string; message?: string; details?: Record<string, unknown> } | null,
    readonly requestId: string | null,
  ) {
    super(`${what}: ${status} ${body?.code ?? ''} ${body?.message ?? ''}`.trim() + (requestId ? ` (X-Request-Id ${requestId})` : ''));
  }
}

/** The data of an openapi-fetch result, or an ApiError carrying the error envelope. */
export function ok<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.response.ok && result.data !== undefined) return result.data;
  const body = typeof result.error === 'object' && result.error !== null ? (result.error as ApiError['body']) : null;
  throw new ApiError(what, result.response.status, body, result.response.headers.get('x-request-id'));
}

export const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createSandboxClient(options: SandboxClientOptions): SandboxClient {
  const log = options.log ?? ((line: string) => console.log(line));
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  let token: Promise<string> | null = null;
  let exchanges = 0;

  /** One request with the retries of its policy; `authorize` adds the bearer (absent on the exchange). */
  async function send(request: Request, authorize: boolean): Promise<Response> {
    const path = new URL(request.url).pathname.slice(basePath.length) || '/';
    const policy = retryPolicyFor(request.method, path);
    // spec 7: "uploads are not retried on 5xx without an Idempotency-Key"; spec 8.5 names the endpoints
    // that take one. A fresh key per logical request; every retry of it sends the same key.
    if (request.method === 'POST' && (IDEMPOTENT_POSTS as readonly string[]).includes(path) && !request.headers.has('idempotency-key')) {
      request.headers.set('idempotency-key', randomUUID());
    }
    let on5xx = 0;
    let on429 = 0;
    let reexchanged = false;
    for (;;) {
      const attempt = request.clone();
      if (authorize) attempt.headers.set('authorization', `Bearer ${await bearer()}`);
      const label = `${request.method} ${path}`;
      let response: Response;
      try {
        response = await fetch(attempt);
      } catch (error) {
        // A network error leaves the outcome unknown, like a 5xx: only what may be repeated is repeated.
        if (on5xx >= policy.on5xx) throw error;
        on5xx += 1;
        const wait = backoffMs(on5xx, random);
        log(`  retry: ${label} failed (${(error as Error).message}); retry ${on5xx} in ${wait} ms (${policy.kind}, spec 7)`);
        await sleep(wait);
        continue;
      }
      const requestId = response.headers.get('x-request-id') ?? '-';
      if (response.status === 401 && authorize && !reexchanged) {
        const body = await errorBody(response);
        if (body?.code === 'INVALID_TOKEN') {
          // spec 5.2: the token expired or was revoked: exchange the key again and repeat this request once.
          reexchanged = true;
          log(`  token: ${label} answered 401 INVALID_TOKEN (X-Request-Id ${requestId}); exchanging the key again (spec 5.2)`);
          startExchange();
          continue;
        }
      }
      const tokenBudgetLeft = policy.kind !== 'token-exchange' || on5xx + on429 < 3;
      if (response.status === 429 && on429 < policy.on429 && tokenBudgetLeft) {
        on429 += 1;
        const asked = retryAfterMs(await errorBody(response), response.headers.get('retry-after'));
        // spec 7: on 429 wait what the server asks; the token exchange backs off 1 s, 2 s, 4 s at least.
        const wait = Math.max(asked ?? 0, policy.kind === 'token-exchange' || asked === null ? backoffMs(on429, random) : 0);
        log(`  retry: ${label} answered 429 RATE_LIMITED (X-Request-Id ${requestId}); waiting ${wait} ms (Retry-After), then retry ${on429}`);
        await sleep(wait);
        continue;
      }
      if (response.status >= 500 && on5xx < policy.on5xx && tokenBudgetLeft) {
        on5xx += 1;
        const wait = backoffMs(on5xx, random);
        log(`  retry: ${label} answered ${response.status} (X-Request-Id ${requestId}); retry ${on5xx} in ${wait} ms (${policy.kind}, spec 7)`);
        await sleep(wait);
        continue;
      }
      return response;
    }
  }

  const tokenApi = createClient<paths>({ baseUrl, fetch: (request) => send(request, false) });

  async function exchange(): Promise<string> {
    exchanges += 1;
    const result = await tokenApi.POST(TOKEN_EXCHANGE_PATH, { headers: { 'x-api-key': options.apiKey } });
    const data = ok(result, 'token exchange (check SANDBOX_API_KEY)');
    log(`  token: exchanged the integration key for a ${data.token_type} token valid ${data.expires_in} s`);
    return data.access_token;
  }

  /** A new exchange shared by the requests that wait for it; a failed one is not kept (the next request tries again). */
  function startExchange(): Promise<string> {
    const pending = exchange();
    token = pending;
    pending.catch(() => {
      if (token === pending) token = null;
    });
    return pending;
  }

  const bearer = (): Promise<string> => token ?? startExchange();

  const api = createClient<paths>({ baseUrl, fetch: (request) => send(request, true) });
  return { api, exchanges: () => exchanges };
}

async function errorBody(response: Response): Promise<ApiError['body']> {
  try {
    return (await response.clone().json()) as ApiError['body'];
  } catch {
    return null;
  }
}
