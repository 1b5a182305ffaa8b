// The HTTP server around the Koa app: what Koa never sees. Node's parser refuses malformed requests (bad
// header bytes, request smuggling forms, oversize headers) before any middleware runs, and by default answers
// a bare 400/431 without the spec's envelope (spec 2.9, 7) or a request id. Here those answers carry both,
// as far as HTTP allows: only while the socket is writable and no response has started. Timeouts bound how
// long a client may hold a connection by sending slowly, or by sending less body than its Content-Length.
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { ApiError } from '../errors.js';
import type { IdGenerator } from '../ids.js';

export interface ServerTimeouts {
  /** The whole request (headers and body) must arrive within this (Node's `requestTimeout`). */
  requestTimeoutMs: number;
  /** The headers must arrive within this (Node's `headersTimeout`); at most `requestTimeoutMs`. */
  headersTimeoutMs: number;
}

/** Sandbox-defined (simulator/README.md "Defaults the spec leaves open"); SIM_REQUEST_TIMEOUT_MS, SIM_HEADERS_TIMEOUT_MS. */
export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000 };

/** An idle kept-alive connection closes after this (Node's default, stated so it is not left to chance). */
const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** What a parser refusal is to the client, by Node's error code. One status per code (spec 7): all are 400 INVALID_REQUEST. */
function refusalOf(code: string | undefined): { reason: string; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { reason: 'headers_too_large', message: 'the request headers are too large' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { reason: 'request_timeout', message: 'the request was not received in time (a body shorter than its Content-Length?)' };
  return { reason: 'malformed_request', message: 'the request is not valid HTTP/1.1' };
}

/** The envelope of a refusal (spec 7: 400 INVALID_REQUEST naming the reason). */
function refusalBody(code: string | undefined): string {
  const { reason, message } = refusalOf(code);
  return JSON.stringify(new ApiError('INVALID_REQUEST', message, { reason }).toEnvelope());
}

/** The raw HTTP/1.1 response for a refusal: written on the socket, since no ServerResponse exists (or it cannot be used). */
function refusalResponse(code: string | undefined, requestId: string): string {
  const body = refusalBody(code);
  return [
    'HTTP/1.1 400 Bad Request',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** A request the HTTP parser refused, as answered (for the request log: kernel/request-journal.ts). */
export interface ParserRefusal {
  requestId: string;
  status: number;
  body: string;
  /** Node's error code (HPE_HEADER_OVERFLOW, ERR_HTTP_REQUEST_TIMEOUT...). */
  code: string | undefined;
}

export function createHttpServer(
  handler: RequestListener,
  options: { log: Logger; ids: IdGenerator; timeouts?: Partial<ServerTimeouts>; onRefused?: (refusal: ParserRefusal) => void },
): Server {
  const requestTimeoutMs = options.timeouts?.requestTimeoutMs ?? DEFAULT_SERVER_TIMEOUTS.requestTimeoutMs;
  const headersTimeoutMs = Math.min(options.timeouts?.headersTimeoutMs ?? DEFAULT_SERVER_TIMEOUTS.headersTimeoutMs, requestTimeoutMs);
  const server = createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      // Node checks the two timeouts on this period (default 30 s, which would stretch a 5 s timeout to 35 s).
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(headersTimeoutMs / 2))),
    },
    handler,
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const started = (socket as Socket & { _httpMessage?: ServerResponse<IncomingMessage> })._httpMessage?.headersSent === true;
    // A reset peer, or a response already under way: nothing can be said on this socket.
    if (error.code === 'ECONNRESET' || !socket.writable || started) {
      socket.destroy();
      return;
    }
    const requestId = options.ids.uuid();
    options.log.info({ requestId, code: error.code, reason: refusalOf(error.code).reason }, 'request refused by the HTTP parser');
    socket.end(refusalResponse(error.code, requestId));
    options.onRefused?.({ requestId, status: 400, body: refusalBody(error.code), code: error.code });
  });
  return server;
}
