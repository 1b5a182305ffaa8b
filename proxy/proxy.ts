// The validating proxy (issue 29 item 3): an HTTP server that forwards every request to an upstream
// deployment of the API and holds each exchange to the contract with the suite's own checks: the request
// (contracts/lib/request-check.ts), the response's status, headers, content type and body
// (contracts/lib/response-check.ts, as the suite's client does) and the error envelope (spec 2.9, 7:
// conformance/harness/expect-error.ts). An integrator puts it between their client and a real server;
// the client gets the upstream's answer unchanged, the violations are logged, kept, and served at
// /_proxy/violations. Like the conformance suite it knows only the contract and HTTP, never the simulator.
import { buffer } from 'node:stream/consumers';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { matchOperation, type ContractOperation } from '../contracts/lib/operations.js';
import { requestProblems, type MultipartFields } from '../contracts/lib/request-check.js';
import { responseProblems } from '../contracts/lib/response-check.js';
import type { LoadedContract } from '../conformance/harness/contract.js';
import { isErrorEnvelope } from '../conformance/harness/expect-error.js';
import type { Exchange } from '../conformance/harness/types.js';
import { redactExchange, type RedactedExchange } from '../conformance/reporters/format.js';

/** The rules a violation is filed under (the reports' failure rules). */
export type ProxyRule = 'request-conformance' | 'response-conformance' | 'error-envelope' | 'undocumented-operation';

export interface Violation {
  /** 1, 2, ... in the order they were seen. */
  id: number;
  at: string;
  rule: ProxyRule;
  message: string;
  operationId?: string;
  exchange: Exchange;
}

export interface ProxyOptions {
  /** The deployment requests go to, e.g. https://staging.example.com (a path prefix is kept). */
  upstream: string;
  /** The contract as the run holds it (conformance/harness/contract.ts contractForProfile). */
  contract: LoadedContract;
  /** Called once per violation as it is seen (the CLI prints it). */
  onViolation?: (violation: Violation) => void;
  /** Upstream request timeout. */
  timeoutMs?: number;
}

export interface ValidatingProxy {
  server: Server;
  url: string;
  /** Every exchange forwarded, in order (the reports' material). */
  exchanges(): Exchange[];
  violations(): Violation[];
  close(): Promise<void>;
}

/** Where the proxy answers itself; every other path is forwarded. */
export const PROXY_PREFIX = '/_proxy/';

/** Hop-by-hop headers (RFC 9110 7.6.1): meant for one connection, never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function forwardable(headers: IncomingHttpHeaders, drop: string[] = []): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name) && !drop.includes(name)) out[name] = value;
  return out;
}

/** Headers as the reports record them: one string per name. */
const flat = (headers: IncomingHttpHeaders): Record<string, string> => Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));

/** The body as the client will read it: content-encoding undone. */
function decoded(body: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body);
    case 'deflate':
      return inflateSync(body);
    case 'br':
      return brotliDecompressSync(body);
    default:
      return body;
  }
}

/** Media types whose bytes are text (shown in the reports); anything else is recorded by its size. */
const isText = (contentType: string) => /json|^text\/|xml|csv|javascript|x-www-form-urlencoded/i.test(contentType);

/** The recorded body: parsed JSON when the content type says JSON (as the suite's client records it), else text. */
function recordedBody(bytes: Buffer, contentType: string): { body: unknown; text: string } {
  if (bytes.length === 0) return { body: '', text: '' };
  if (!isText(contentType)) {
    const text = `<${bytes.length} bytes of ${contentType || 'an unnamed type'}>`;
    return { body: text, text };
  }
  const text = bytes.toString('utf8');
  if (contentType.includes('json')) {
    try {
      return { body: JSON.parse(text), text };
    } catch {
      return { body: text, text };
    }
  }
  return { body: text, text };
}

/** A multipart request body read into fields and file fields (undici's parser, the one fetch uses). */
async function multipartOf(body: Buffer, contentType: string): Promise<MultipartFields | undefined> {
  try {
    const form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
    const fields: MultipartFields['fields'] = {};
    const files: MultipartFields['files'] = {};
    for (const [name, value] of form.entries()) {
      if (typeof value !== 'string') files[name] = value.name;
      else {
        const known = fields[name];
        fields[name] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value];
      }
    }
    return { fields, files };
  } catch {
    return undefined;
  }
}

/** A request body as the reports record it: the text of a text body, a multipart form's fields and files. */
function describeRequestBody(body: Buffer, contentType: string, multipart: MultipartFields | undefined): string | undefined {
  if (body.length === 0) return undefined;
  if (multipart) return [...Object.entries(multipart.fields).map(([k, v]) => `${k}=${String(v)}`), ...Object.entries(multipart.files).map(([k, name]) => `${k}=<file ${name}>`)].join('&');
  return isText(contentType) ? body.toString('utf8') : `<${body.length} bytes of ${contentType || 'an unnamed type'}>`;
}

/** Spec 2.9, 7: every error answer carries `{ code, message, details? }`. */
function envelopeProblem(exchange: Exchange): string | undefined {
  const { status, body, text } = exchange.response;
  if (status < 400 || isErrorEnvelope(body)) return undefined;
  return `the ${status} body is not the error envelope { code, message, details? } (spec 2.9, 7): ${text.slice(0, 200) || '(empty)'}`;
}

export async function startValidatingProxy(options: ProxyOptions & { port?: number; host?: string }): Promise<ValidatingProxy> {
  const upstream = new URL(options.upstream);
  const basePath = upstream.pathname.replace(/\/$/, '');
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  const { contract } = options;
  const exchanges: Exchange[] = [];
  const violations: Violation[] = [];

  const record = (rule: ProxyRule, message: string, exchange: Exchange, operation?: ContractOperation) => {
    const violation: Violation = { id: violations.length + 1, at: new Date().toISOString(), rule, message, ...(operation ? { operationId: operation.operationId } : {}), exchange };
    violations.push(violation);
    options.onViolation?.(violation);
  };

  /** Holds one exchange to the contract; runs after the client has its answer. */
  const validate = (exchange: Exchange, requestBody: Buffer, multipart: MultipartFields | undefined, requestHeaders: IncomingHttpHeaders) => {
    const op = exchange.operation;
    const { method, url } = exchange.request;
    if (!op) {
      const route = `${method} ${url.split('?')[0]}`;
      record('undocumented-operation', `no operation of contract ${contract.version} is ${route}`, exchange);
      // No schema to hold the answer to, but an error is still the envelope (spec 2.9, 7): the upstream's
      // 404 to an unknown route must be `{ code, message }` like any other.
      const envelope = envelopeProblem(exchange);
      if (envelope) record('error-envelope', `${route}: ${envelope}`, exchange);
      return;
    }
    for (const problem of requestProblems(contract.doc, contract.schemas, op, { method, url, headers: requestHeaders, body: requestBody }, { ...contract.responseCheck, multipart })) {
      record('request-conformance', `${op.operationId}: ${problem}`, exchange, op);
    }
    for (const problem of responseProblems(contract.doc, contract.schemas, op, exchange.response, contract.responseCheck)) {
      record('response-conformance', `${op.operationId}: ${problem}`, exchange, op);
    }
    const envelope = envelopeProblem(exchange);
    if (envelope) record('error-envelope', `${op.operationId}: ${envelope}`, exchange, op);
  };

  const serveOwn = (req: IncomingMessage, res: ServerResponse) => {
    const pathname = (req.url ?? '').split('?')[0];
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body, null, 2));
    };
    if (pathname === `${PROXY_PREFIX}violations` && req.method === 'GET') {
      const listed: Array<Omit<Violation, 'exchange'> & { exchange: RedactedExchange }> = violations.map((v) => ({ ...v, exchange: redactExchange(v.exchange) }));
      return json(200, { upstream: options.upstream, contract: contract.version, specOnly: contract.responseCheck?.specOnly === true, exchanges: exchanges.length, violations: listed });
    }
    return json(404, { code: 'NOT_FOUND', message: `the proxy serves GET ${PROXY_PREFIX}violations; every other path is forwarded upstream` });
  };

  const server = createServer((req, res) => {
    if ((req.url ?? '').startsWith(PROXY_PREFIX)) return serveOwn(req, res);
    void (async () => {
      const requestBody = await buffer(req);
      const started = performance.now();
      const path = req.url ?? '/';
      const headers = forwardable(req.headers, ['host', 'content-length']);
      if (requestBody.length > 0) headers['content-length'] = String(requestBody.length);
      const upstreamRes = await new Promise<IncomingMessage>((resolve, reject) => {
        const out = send(
          { protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port || undefined, method: req.method, path: basePath + path, headers: { ...headers, host: upstream.host }, timeout: options.timeoutMs ?? 60_000 },
          resolve,
        );
        out.on('timeout', () => out.destroy(new Error(`no answer within ${options.timeoutMs ?? 60_000} ms`)));
        out.on('error', reject);
        out.end(requestBody);
      });
      const responseBody = await buffer(upstreamRes);
      res.writeHead(upstreamRes.statusCode ?? 502, forwardable(upstreamRes.headers));
      res.end(responseBody);

      const requestType = String(req.headers['content-type'] ?? '');
      const responseType = String(upstreamRes.headers['content-type'] ?? '');
      const multipart = requestType.startsWith('multipart/form-data') ? await multipartOf(requestBody, requestType) : undefined;
      const shown = recordedBody(decoded(responseBody, upstreamRes.headers['content-encoding']), responseType);
      const exchange: Exchange = {
        request: { method: req.method ?? 'GET', url: path, headers: flat(req.headers), body: describeRequestBody(requestBody, requestType, multipart) },
        response: { status: upstreamRes.statusCode ?? 0, headers: flat(upstreamRes.headers), body: shown.body, text: shown.text },
        operation: matchOperation(contract.doc, req.method ?? 'GET', path),
        durationMs: performance.now() - started,
      };
      exchanges.push(exchange);
      validate(exchange, requestBody, multipart, req.headers);
    })().catch((error: Error) => {
      // The upstream could not be reached or broke off: the client learns it as a gateway error.
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ code: 'UPSTREAM_UNREACHABLE', message: `the proxy could not reach ${options.upstream}: ${error.message}` }));
      } else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`,
    exchanges: () => [...exchanges],
    violations: () => [...violations],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
