// The request log's entries as bytes. An entry lives for the next N requests: long enough to survive V8's
// young-generation collections and be promoted, short enough to die soon after in the old generation. At
// 14,000 requests a second that promoted garbage grew the simulator's peak RSS by ~100 MB in the issue 15
// bench (GET /api/jobs/{id}, 113 -> 215 MB) for ~4 MB of live entries. Encoded into one preallocated byte
// ring (request-journal.ts) an entry is off the V8 heap: what a request allocates to log itself dies young.
//
// The encoding is one string of tokens, `<length>:<text>` (length in UTF-16 units) or `~` for null, written
// to the ring in three Buffer writes: the small tokens before the response body's text, that text as it was
// sent, and the tokens after it. A write per field cost twice as much (a native call each); one write of the
// whole entry first copied the ~2 KB response text into a new flat string (the issue 15 bench: an entry cost
// ~11 KB of young garbage that way).
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { CapturedBody, RequestRecord } from './request-journal.js';

const KINDS = ['none', 'json', 'text', 'multipart', 'binary'] as const;

/**
 * Names that carry credentials, as header, JSON field, multipart field or query parameter (issue 30 item 5):
 * compared without case and without separators, so `x-api-key`, `X_API_KEY` and `xApiKey` are one name.
 * The denylist: spec 5's credentials (x-api-key, bearer tokens in authorization), the sandbox's admin token,
 * cookies, the webhook `secret` (spec 6), and the names clients commonly use for one. Not identifiers
 * (sessionId, keyId, jobId): the log is there to show which resource a request named.
 */
const CREDENTIAL_NAMES = new Set(
  [
    'authorization', 'proxy-authorization', 'cookie', 'set-cookie',
    'x-api-key', 'api-key', 'apikey', 'x-admin-token', 'x-auth-token', 'x-access-token', 'x-session-token', 'x-csrf-token', 'x-amz-security-token',
    'access_token', 'refresh_token', 'id_token', 'token', 'secret', 'client_secret', 'webhook_secret', 'password', 'passwd', 'pwd',
    'passphrase', 'credentials', 'private_key', 'integration_key', 'signing_key',
  ].map((name) => name.replace(/[^a-z0-9]/gi, '').toLowerCase()),
);
/** ...and every name ending like one (magicLinkToken, webhookSecret, X-Partner-Api-Key, db_password). */
const CREDENTIAL_ENDING = /(token|secret|password|passwd|passphrase|apikey|integrationkey|privatekey|authorization|credentials)$/;

/** Whether a header, field or parameter of this name holds a credential the request log must not show. */
export function isCredentialName(name: string): boolean {
  let verdict = judgedNames.get(name);
  if (verdict === undefined) {
    const bare = name.replace(/[^a-z0-9]/gi, '').toLowerCase();
    verdict = CREDENTIAL_NAMES.has(bare) || CREDENTIAL_ENDING.test(bare);
    // Every request's headers are judged (about 1 % of a request's CPU, issue 25's bench); the same few
    // dozen names come back. Bounded: a client inventing names empties it, never grows it.
    if (judgedNames.size >= JUDGED_NAMES_KEPT) judgedNames.clear();
    judgedNames.set(name, verdict);
  }
  return verdict;
}
const JUDGED_NAMES_KEPT = 1000;
const judgedNames = new Map<string, boolean>();
/** What a secret reads as in the request log. A credential header's value is kept as it in the ring too
 *  (reading the log would mask it anyway): the ring never holds a secret, and a ~350-character bearer is
 *  not encoded per request. */
export const MASK = '***';

const token = (s: string): string => `${s.length}:${s}`;
const nullable = (s: string | null): string => (s === null ? '~' : token(s));
const number = (n: number | null): string => (n === null ? '~' : token(String(n)));

function headersText(headers: IncomingHttpHeaders | OutgoingHttpHeaders): string {
  let count = 0;
  let text = '';
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    count++;
    text += token(name) + token(isCredentialName(name) ? MASK : Array.isArray(value) ? value.join(', ') : String(value));
  }
  return token(String(count)) + text;
}

/** A body's tokens, the text of a text body last and apart (its length token ends `head`). */
function bodyParts(body: CapturedBody): { head: string; text: string } {
  if (body.kind === 'json' || body.kind === 'text') {
    return { head: token(String(KINDS.indexOf(body.kind))) + token(body.truncated ? '1' : '0') + number(body.bytes) + `${body.text.length}:`, text: body.text };
  }
  return { head: bodyText(body), text: '' };
}

function bodyText(body: CapturedBody): string {
  const kind = token(String(KINDS.indexOf(body.kind)));
  switch (body.kind) {
    case 'none':
      return kind + number(body.bytes);
    case 'binary':
      return kind + nullable(body.contentType) + number(body.bytes);
    case 'multipart': {
      let text = kind + token(body.truncated ? '1' : '0') + token(body.fields) + token(String(body.files.length));
      for (const file of body.files) text += token(file.field) + token(file.fileName) + number(file.size) + nullable(file.contentType);
      return text;
    }
    default:
      return kind + token(body.truncated ? '1' : '0') + number(body.bytes) + token(body.text);
  }
}

/** The entry as three strings whose concatenation is its tokens (see above): what precedes the response
 *  body's text, that text, and what follows it. */
export function encodeRecordParts(record: RequestRecord): [string, string, string] {
  const response = bodyParts(record.responseBody);
  const head =
    token(record.id) +
    number(record.atMs) +
    number(record.virtualAtMs) +
    nullable(record.tenantId) +
    token(record.method) +
    token(record.path) +
    token(record.query) +
    nullable(record.operationId) +
    number(record.status) +
    number(record.durationMs) +
    headersText(record.requestHeaders) +
    bodyText(record.requestBody) +
    headersText(record.responseHeaders) +
    response.head;
  let tail = token(String(record.faults.length));
  for (const fault of record.faults) tail += token(fault);
  return [head, response.text, tail];
}

/** The entry as one string of tokens. */
export const encodeRecord = (record: RequestRecord): string => encodeRecordParts(record).join('');

/** Reads the tokens of one entry back, in order. */
class Tokens {
  private at = 0;
  constructor(private readonly text: string) {}
  next(): string | null {
    if (this.text[this.at] === '~') {
      this.at += 1;
      return null;
    }
    const colon = this.text.indexOf(':', this.at);
    const length = Number(this.text.slice(this.at, colon));
    const value = this.text.slice(colon + 1, colon + 1 + length);
    this.at = colon + 1 + length;
    return value;
  }
  string(): string {
    return this.next() ?? '';
  }
  number(): number | null {
    const value = this.next();
    return value === null ? null : Number(value);
  }
  count(): number {
    return this.number() ?? 0;
  }
}

function readHeaders(t: Tokens): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let n = t.count(); n > 0; n--) {
    const name = t.string();
    headers[name] = t.string();
  }
  return headers;
}

function readBody(t: Tokens): CapturedBody {
  const kind = KINDS[t.count()];
  switch (kind) {
    case 'none':
      return { kind, bytes: t.number() };
    case 'binary':
      return { kind, contentType: t.next(), bytes: t.number() };
    case 'multipart': {
      const truncated = t.string() === '1';
      const fields = t.string();
      const files: Array<{ field: string; fileName: string; size: number; contentType: string | null }> = [];
      for (let n = t.count(); n > 0; n--) files.push({ field: t.string(), fileName: t.string(), size: t.count(), contentType: t.next() });
      return { kind, fields, truncated, files };
    }
    default: {
      const truncated = t.string() === '1';
      const bytes = t.number();
      return { kind, truncated, bytes, text: t.string() };
    }
  }
}

export function decodeRecord(text: string): RequestRecord {
  const t = new Tokens(text);
  const id = t.string();
  const atMs = t.count();
  const virtualAtMs = t.count();
  const tenantId = t.next();
  const method = t.string();
  const path = t.string();
  const query = t.string();
  const operationId = t.next();
  const status = t.count();
  const durationMs = t.count();
  const requestHeaders = readHeaders(t);
  const requestBody = readBody(t);
  const responseHeaders = readHeaders(t);
  const responseBody = readBody(t);
  const faults: string[] = [];
  for (let n = t.count(); n > 0; n--) faults.push(t.string());
  return { id, atMs, virtualAtMs, tenantId, method, path, query, operationId, status, durationMs, requestHeaders, requestBody, responseHeaders, responseBody, faults };
}
