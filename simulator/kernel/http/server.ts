// The HTTP server around the Koa app: what Koa never sees. Node's parser refuses malformed requests (bad
// header bytes, request smuggling forms, oversize headers) before any middleware runs, and by default answers
// a bare 400/431 without the spec's envelope (spec 2.9, 7) or a request id. Here those answers carry both,
// as far as HTTP allows: only while the socket is writable and no response has started; a refusal of a
// pipelined request waits for the response of the request before it, so answers stay in order and none is
// lost. Node also answers two well-formed requests itself, bare (issue 30 item 5): an HTTP/1.1 request
// without `Host` (a bare 400) and an `Expect` other than 100-continue (a bare 417). Both are taken over
// here (`requireHostHeader: false` and a check in front of the app; the `checkExpectation` event) and
// answered 400 INVALID_REQUEST in the envelope with a request id: spec 7 gives INVALID_REQUEST the status 400,
// and RFC 9110 10.1.1 lets a server answer an expectation it cannot meet with any 4xx ("MAY respond with a
// 417"). `Expect: 100-continue` keeps Node's handling (100 Continue, then the app). Timeouts bound how
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

/** Refusals of well-formed requests Node would answer itself (by our own code, beside Node's error codes). */
const MISSING_HOST = 'SIM_MISSING_HOST';
const UNSUPPORTED_EXPECTATION = 'SIM_UNSUPPORTED_EXPECTATION';

/** What a refusal is to the client, by Node's error code (or ours above). One status per code (spec 7): all are 400 INVALID_REQUEST. */
function refusalOf(code: string | undefined): { reason: string; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { reason: 'headers_too_large', message: 'the request headers are too large' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { reason: 'request_timeout', message: 'the request was not received in time (a body shorter than its Content-Length?)' };
  if (code === MISSING_HOST) return { reason: 'missing_host', message: 'an HTTP/1.1 request must send a Host header (RFC 9112 3.2)' };
  if (code === UNSUPPORTED_EXPECTATION) return { reason: 'unsupported_expectation', message: 'the only expectation this server meets is Expect: 100-continue' };
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
  /** Answers a well-formed request Node would have refused bare: the envelope, a request id, then the
   *  connection closes (what follows on it is not read). */
  const refuse = (req: IncomingMessage, res: ServerResponse, code: string) => {
    const requestId = options.ids.uuid();
    const body = refusalBody(code);
    options.log.info({ requestId, code, reason: refusalOf(code).reason }, 'request refused before the app');
    res.shouldKeepAlive = false;
    res.writeHead(400, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'X-Request-Id': requestId, Connection: 'close' });
    res.end(body);
    req.resume();
    options.onRefused?.({ requestId, status: 400, body, code });
  };
  const server = createServer(
    {
      // Checked below, to answer in the envelope (Node's own answer is a bare 400).
      requireHostHeader: false,
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      // Node checks the two timeouts on this period (default 30 s, which would stretch a 5 s timeout to 35 s).
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(headersTimeoutMs / 2))),
    },
    (req, res) => {
      // RFC 9112 3.2: a client sends Host in every HTTP/1.1 request (HTTP/1.0 had none to send).
      if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined) return refuse(req, res, MISSING_HOST);
      return handler(req, res);
    },
  );
  // An Expect other than 100-continue (Node would answer a bare 417 without this listener).
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => refuse(req, res, UNSUPPORTED_EXPECTATION));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const current = (socket as Socket & { _httpMessage?: ServerResponse<IncomingMessage> | null })._httpMessage;
    // A reset peer, or a response already under way: nothing can be said on this socket.
    if (error.code === 'ECONNRESET' || !socket.writable || current?.headersSent === true) {
      socket.destroy();
      return;
    }
    const requestId = options.ids.uuid();
    options.log.info({ requestId, code: error.code, reason: refusalOf(error.code).reason }, 'request refused by the HTTP parser');
    const answer = () => {
      if (!socket.writable) return socket.destroy();
      socket.end(refusalResponse(error.code, requestId));
      options.onRefused?.({ requestId, status: 400, body: refusalBody(error.code), code: error.code });
    };
    // A malformed request pipelined behind a well-formed one: the earlier request, received whole, is still
    // being answered (its response not started yet). Its answer goes first, then the refusal; neither is
    // lost. A request cut short (its body never came: the timeout) is the one refused, at once.
    if (current && !current.writableFinished && current.req?.complete === true) {
      current.once('finish', answer);
      current.once('close', () => socket.writable && !socket.writableEnded && answer());
      return;
    }
    answer();
  });
  return server;
}
