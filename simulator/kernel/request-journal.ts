// The request log of the public API (issue 16 item 6): the last N requests of this sandbox with what was
// sent and answered, for GET /_sim/requests and the console. A bounded ring in memory (a sandbox's recent
// history, not durable: SIM_REQUEST_LOG_SIZE entries, default 2,000), newest first when read.
//
// Cost per request is kept small (the request path of every call, issue 15's bench): bodies are captured
// capped at BODY_CAP characters (a bounded walk, never a copy of a large body), entries are kept as bytes
// off the V8 heap (request-journal-codec.ts says why), and the masking and parsing of response bodies is
// done when the log is read, not when it is written.
// Secrets never leave it: credential headers and JSON fields named like secrets read "***" (masking.ts rules
// below, recursively); multipart bodies are summarized (field values, file names and sizes, never bytes).
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { decodeRecord, encodeRecordParts, isCredentialName, MASK } from './request-journal-codec.js';
import type { QueryOf } from '../../contracts/generated/index.js';
import { MAX_BODY_DEPTH } from './http/json-depth.js';

/** Characters of a body kept in an entry; longer bodies are cut, and the entry says so. */
export const BODY_CAP = 16 * 1024;
export const DEFAULT_REQUEST_LOG_SIZE = 2000;
const MAX_PAGE = 200;
export { MASK };

/** JSON fields, multipart fields, headers and query parameters named like a credential (the codec's denylist). */
const isSecretField = isCredentialName;

/** In JSON text that was cut (so cannot be parsed): every `"name": scalar`, and the same escaped inside a
 *  JSON string (a multipart JSON part such as `webhook`, kept as a string field), whose name is a credential. */
const FIELD_IN_TEXT = /("((?:[^"\\]|\\.)*?)"\s*:\s*)("(?:[^"\\]|\\.)*"?|-?[0-9][0-9.eE+-]*|true|false)/g;
const ESCAPED_FIELD_IN_TEXT = /(\\"((?:[^"\\]|\\[^"])*?)\\"\s*:\s*)(\\"(?:[^"\\]|\\[^"])*?(?:\\"|$)|-?[0-9][0-9.eE+-]*|true|false)/g;

/** Cut JSON text with the values of credential-named fields masked, at the top level and escaped within strings. */
export function maskJsonText(text: string): string {
  return text
    .replace(ESCAPED_FIELD_IN_TEXT, (whole, prefix: string, name: string) => (isSecretField(name) ? `${prefix}\\"${MASK}\\"` : whole))
    .replace(FIELD_IN_TEXT, (whole, prefix: string, name: string) => (isSecretField(name) ? `${prefix}"${MASK}"` : whole));
}

/** A string that holds a JSON object or array (a multipart JSON part), parsed; undefined for any other string. */
function embeddedJson(value: string): object | undefined {
  const first = value.trimStart()[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** A query string with the value of every credential-named parameter masked (`access_token=***`). */
export function maskQuery(query: string): string {
  return query.replace(/(^|&)([^=&]*)=([^&]*)/g, (whole, start: string, name: string) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // a malformed escape: judged by its raw text
    }
    return isSecretField(decoded) ? `${start}${name}=${MASK}` : whole;
  });
}

/** A body as captured: text (JSON or not) cut at BODY_CAP, a multipart summary, or bytes not kept. */
export type CapturedBody =
  | { kind: 'none'; bytes: number | null }
  | { kind: 'json' | 'text'; text: string; truncated: boolean; bytes: number | null }
  | { kind: 'multipart'; fields: string; truncated: boolean; files: Array<{ field: string; fileName: string; size: number; contentType: string | null }> }
  | { kind: 'binary'; contentType: string | null; bytes: number | null };

export interface RequestRecord {
  id: string;
  /** Wall-clock time the request arrived (ms since the epoch). */
  atMs: number;
  /** The tenant's virtual time when it was answered (the sandbox clock when no tenant was named). */
  virtualAtMs: number;
  tenantId: string | null;
  method: string;
  path: string;
  query: string;
  operationId: string | null;
  status: number;
  durationMs: number;
  requestHeaders: IncomingHttpHeaders;
  requestBody: CapturedBody;
  responseHeaders: OutgoingHttpHeaders;
  responseBody: CapturedBody;
  /** Defects and test faults that altered the request (kernel/defects.ts markFault). */
  faults: string[];
}

interface BodyView {
  headers: Record<string, string>;
  /** Parsed JSON, text, a multipart or binary summary, or null without a body. Secrets read "***". */
  body: unknown;
  /** True when the body was longer than BODY_CAP characters and was cut (body is then the cut text). */
  bodyTruncated: boolean;
  bodyBytes: number | null;
}

export interface RequestLogItem extends Omit<RequestRecord, 'atMs' | 'virtualAtMs' | 'requestHeaders' | 'requestBody' | 'responseHeaders' | 'responseBody'> {
  at: string;
  virtualAt: string;
  request: BodyView;
  response: BodyView;
}

/** The filters of GET /_sim/requests, as the control contract declares them (status: exact or a class). */
type RequestLogFilter = QueryOf<'listSandboxRequests'>;

/** Levels of a body the log keeps (json-depth.ts refuses bodies nested deeper than its MAX_BODY_DEPTH). */
const MAX_LOGGED_DEPTH = MAX_BODY_DEPTH;

/**
 * JSON text of `value` with secret-named fields masked, cut once it passes `cap` characters. A walk that
 * stops at the cap, so a 10 MB request body costs what 16 KB does.
 */
export function boundedJson(value: unknown, cap = BODY_CAP): { text: string; truncated: boolean } {
  let text = '';
  let truncated = false;
  const walk = (node: unknown, depth = 0): void => {
    if (truncated) return;
    if (text.length > cap) {
      truncated = true;
      return;
    }
    // A body nested thousands of levels deep (refused with 400 by json-depth.ts) must not overflow the stack
    // here: the log keeps the first levels, as the route allows them.
    if (depth > MAX_LOGGED_DEPTH && node !== null && typeof node === 'object') {
      text += JSON.stringify(`(nested deeper than ${MAX_LOGGED_DEPTH} levels)`);
      truncated = true;
      return;
    }
    if (typeof node === 'string' && node.length > cap) {
      // One long string (a 10 MB field) is cut before it is escaped, not after.
      text += JSON.stringify(node.slice(0, cap));
      truncated = true;
      return;
    }
    if (typeof node === 'string') {
      // A multipart JSON part (the `webhook` field and its `secret`) arrives as a string: masked inside.
      const embedded = embeddedJson(node);
      text += JSON.stringify(embedded ? JSON.stringify(maskJson(embedded)) : node);
      return;
    }
    if (node === null || typeof node !== 'object') {
      text += JSON.stringify(node) ?? 'null';
      return;
    }
    if (Array.isArray(node)) {
      text += '[';
      node.forEach((item, i) => {
        if (i) text += ',';
        walk(item, depth + 1);
      });
      text += ']';
      return;
    }
    text += '{';
    let first = true;
    for (const [key, item] of Object.entries(node)) {
      if (item === undefined || typeof item === 'function') continue;
      if (!first) text += ',';
      first = false;
      text += `${JSON.stringify(key)}:`;
      if (isSecretField(key) && item !== null && typeof item !== 'object') text += JSON.stringify(MASK);
      else walk(item, depth + 1);
      if (truncated) return;
    }
    text += '}';
  };
  walk(value);
  if (text.length > cap) {
    truncated = true;
  }
  return { text: truncated ? flatCopy(text.slice(0, cap)) : text, truncated };
}

/** Captures a JSON text already made (the response, stringified once for Koa and for the log). */
export function captureText(kind: 'json' | 'text', text: string, bytes: number | null): CapturedBody {
  if (text.length <= BODY_CAP) return { kind, text, truncated: false, bytes };
  return { kind, text: flatCopy(text.slice(0, BODY_CAP)), truncated: true, bytes };
}

/** A slice of a large string can keep the whole string alive; the ring must hold only the slice. */
const flatCopy = (slice: string): string => Buffer.from(slice, 'utf8').toString('utf8');

/** Masks a parsed JSON value: every secret-named field's value reads "***", at any depth. */
export function maskJson(value: unknown, depth = 0): unknown {
  if (depth > MAX_LOGGED_DEPTH && value !== null && typeof value === 'object') return `(nested deeper than ${MAX_LOGGED_DEPTH} levels)`;
  if (Array.isArray(value)) return value.map((item) => maskJson(item, depth + 1));
  if (typeof value === 'string') {
    const embedded = embeddedJson(value);
    return embedded ? JSON.stringify(maskJson(embedded, depth + 1)) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  const masked: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) masked[key] = isSecretField(key) && item !== null ? MASK : maskJson(item, depth + 1);
  return masked;
}

export function maskHeaders(headers: IncomingHttpHeaders | OutgoingHttpHeaders): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    shown[lower] = isCredentialName(lower) ? MASK : Array.isArray(value) ? value.join(', ') : String(value);
  }
  return shown;
}

function viewBody(captured: CapturedBody): Pick<BodyView, 'body' | 'bodyTruncated' | 'bodyBytes'> {
  switch (captured.kind) {
    case 'none':
      return { body: null, bodyTruncated: false, bodyBytes: captured.bytes };
    case 'binary':
      return { body: { binary: true, contentType: captured.contentType, bytes: captured.bytes }, bodyTruncated: false, bodyBytes: captured.bytes };
    case 'multipart': {
      const fields = captured.truncated ? maskJsonText(captured.fields) : maskJson(JSON.parse(captured.fields));
      return { body: { multipart: { fields, files: captured.files } }, bodyTruncated: captured.truncated, bodyBytes: null };
    }
    default: {
      if (captured.kind === 'json' && !captured.truncated) {
        try {
          return { body: maskJson(JSON.parse(captured.text)), bodyTruncated: false, bodyBytes: captured.bytes };
        } catch {
          // Not JSON after all (a defect may send anything): shown as text, masked as text.
        }
      }
      return { body: maskJsonText(captured.text), bodyTruncated: captured.truncated, bodyBytes: captured.bytes };
    }
  }
}

export function viewRecord(record: RequestRecord): RequestLogItem {
  const { atMs, virtualAtMs, requestHeaders, requestBody, responseHeaders, responseBody, ...rest } = record;
  return {
    ...rest,
    query: maskQuery(rest.query),
    at: new Date(atMs).toISOString(),
    virtualAt: new Date(virtualAtMs).toISOString(),
    request: { headers: maskHeaders(requestHeaders), ...viewBody(requestBody) },
    response: { headers: maskHeaders(responseHeaders), ...viewBody(responseBody) },
  };
}

/** Whether a status matches "404" or "4xx". */
export function statusMatches(status: number, wanted: string): boolean {
  if (/^[1-5]xx$/i.test(wanted)) return Math.floor(status / 100) === Number(wanted[0]);
  return String(status) === wanted;
}

export interface RequestJournal {
  readonly size: number;
  record(entry: RequestRecord): void;
  /** Newest first; `nextCursor` continues after the page's last entry while the ring still holds it. */
  list(filter: RequestLogFilter): { items: RequestLogItem[]; nextCursor: string | null };
  clear(): void;
}

/** Bytes of entries the ring holds per request it keeps (a typical entry is 2-3 KB; large bodies take more). */
export const BYTES_PER_ENTRY = 8 * 1024;
/** The smallest ring: room for the largest entry (two bodies cut at BODY_CAP, Node's 16 KB of headers) as UTF-8. */
const MIN_RING_BYTES = 512 * 1024;

/**
 * The ring: at most `size` entries and `size` x BYTES_PER_ENTRY bytes of them (16 MB for the default 2,000),
 * in one buffer allocated once, so fewer are kept when bodies are large. Entries are written one after the
 * other and the write position wraps to the start when the next entry does not fit before the end; the
 * entries it writes over are always the oldest. Typed arrays index each entry and hold what the filters read.
 */
export function createRequestJournal(size = DEFAULT_REQUEST_LOG_SIZE): RequestJournal {
  if (!Number.isInteger(size) || size < 0) throw new Error(`request log size must be a whole number, got ${size}`);
  // SIM_REQUEST_LOG_SIZE=0 switches the log off: nothing is captured (request-log.ts asks `size`).
  if (size === 0) return { size, record() {}, list: () => ({ items: [], nextCursor: null }), clear() {} };
  const capacity = Math.max(MIN_RING_BYTES, size * BYTES_PER_ENTRY);
  const ring = Buffer.allocUnsafeSlow(capacity);
  const offsets = new Float64Array(size);
  const lengths = new Float64Array(size);
  const atMs = new Float64Array(size);
  const statuses = new Uint16Array(size);
  // Strings the filters compare: the principal's tenant id and the contract's operationId, both long-lived.
  const tenants: Array<string | null> = new Array(size).fill(null);
  const operations: Array<string | null> = new Array(size).fill(null);
  /** Seq of the next entry; seqs keep growing (after a clear too), so a cursor never names another entry. */
  let seq = 0;
  /** Seq of the oldest entry still held. */
  let oldest = 0;
  /** Seq of the first entry written since the position last wrapped to the start. */
  let lapStart = 0;
  let head = 0;
  return {
    size,
    record(record) {
      const [before, body, after] = encodeRecordParts(record);
      // A UTF-16 unit is at most 3 bytes of UTF-8: room for that much is kept before the end.
      const bound = (before.length + body.length + after.length) * 3;
      if (bound > capacity) return;
      // Wrap early too once the start of the buffer holds only entries past the count: the oldest entry kept
      // after this one sits in this lap, beyond where this one can reach. The ring then cycles through the
      // bytes its `size` entries need (~5 MB for 2,000 typical entries) instead of all of its capacity:
      // fewer cold cache lines per write (issue 15 bench: ~3 us per request on a results page).
      const keepFrom = seq + 1 - size;
      const startIsFree = keepFrom > lapStart && offsets[keepFrom % size] >= bound;
      if (head + bound > capacity || startIsFree) {
        // Wrap: the entries of the lap before the one that ends here sit beyond `head`, the oldest of all.
        oldest = Math.max(oldest, lapStart);
        lapStart = seq;
        head = 0;
      }
      let length = ring.write(before, head, 'utf8');
      if (body.length > 0) length += ring.write(body, head + length, 'utf8');
      length += ring.write(after, head + length, 'utf8');
      const end = head + length;
      // The previous lap's entries that start before `end` were written over; they are the oldest held.
      while (oldest < lapStart && offsets[oldest % size] < end) oldest++;
      oldest = Math.max(oldest, seq + 1 - size);
      const slot = seq % size;
      offsets[slot] = head;
      lengths[slot] = length;
      atMs[slot] = record.atMs;
      statuses[slot] = record.status;
      tenants[slot] = record.tenantId;
      operations[slot] = record.operationId;
      head = end;
      seq += 1;
    },
    list(filter) {
      const limit = Math.min(Math.max(1, filter.limit ?? 50), MAX_PAGE);
      const since = filter.since ? Date.parse(filter.since) : undefined;
      const until = filter.until ? Date.parse(filter.until) : undefined;
      // The cursor is the seq after the last entry shown; entries the ring dropped since are gone.
      const before = filter.cursor ? Number(filter.cursor) : seq;
      const items: RequestLogItem[] = [];
      let nextCursor: string | null = null;
      for (let s = Math.min(before, seq) - 1; s >= oldest; s--) {
        const slot = s % size;
        if (filter.tenantId !== undefined && tenants[slot] !== filter.tenantId) continue;
        if (filter.operationId !== undefined && operations[slot] !== filter.operationId) continue;
        if (filter.status !== undefined && !statusMatches(statuses[slot], filter.status)) continue;
        if (since !== undefined && atMs[slot] < since) continue;
        if (until !== undefined && atMs[slot] > until) continue;
        if (items.length === limit) {
          nextCursor = String(s + 1);
          break;
        }
        items.push(viewRecord(decodeRecord(ring.toString('utf8', offsets[slot], offsets[slot] + lengths[slot]))));
      }
      return { items, nextCursor };
    },
    clear() {
      oldest = seq;
      lapStart = seq;
      head = 0;
      tenants.fill(null);
      operations.fill(null);
    },
  };
}
