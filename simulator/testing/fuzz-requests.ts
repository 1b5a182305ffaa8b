// fast-check arbitraries of hostile requests to every operation of a contract (simulator/fuzz.test.ts):
// the operation's own example bent out of shape (wrong types, huge strings and arrays, control characters,
// `__proto__` keys), invalid JSON, nesting far past the body bound with and without an Idempotency-Key,
// compressed garbage and a gzip bomb, path traversal in path parameters and upload file names, truncated
// multipart forms, a (small) zip bomb named .xlsx and a wide CSV. Deterministic from fast-check's seed.
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { isObject, type Json, type OpenApiDocument } from '../../contracts/lib/bundle.js';
import { mediaExample } from '../../contracts/lib/example-request.js';
import { deref, listOperations, type ContractOperation } from '../../contracts/lib/operations.js';
import { deepJsonText, gzipBombJson, multipartBody, wideCsv, zipBombXlsx, type FilePart } from './hostile-inputs.js';

export interface FuzzRequest {
  /** Which kind of hostility this is, for the failure report. */
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface FuzzCredentials {
  bearer: string;
  integrationKey: string;
}

/** Past the 10 MB JSON limit once inflated (co-body stops there: 413), 16 KB on the wire; built once. */
const GZIP_BOMB = gzipBombJson(16 * 1024 * 1024);

/**
 * Smaller cousins of the big zip bomb and the million-column CSV (the upload test in simulator/fuzz.test.ts
 * sends those once to every upload operation): the fuzz sends these often, so they are kept cheap to process.
 */
const SMALL_ZIP_BOMB = zipBombXlsx(50_000);
const WIDE_CSV = wideCsv(10_000);

const TRAVERSAL_NAMES = ['../../../../etc/passwd.csv', '..\\..\\..\\windows\\win.ini.csv', '/etc/shadow.xlsx', 'a/../../b.csv', '%2e%2e%2f%2e%2e%2fx.csv', '....//....//x.csv', 'con.csv', `${'x'.repeat(5000)}.csv`, '.csv', 'x.csv\u0000.exe', 'résumé ☃.xlsx'];
/** Raw path segments sent as they are (already "encoded"): bad escapes, encoded traversal, NUL. */
const RAW_SEGMENTS = ['%', '%zz', '%E0%A4%A', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%00', '..', '%C0%AE%C0%AE', '%uFFFF', '%25%32%65'];
const CONTROL_STRINGS = ['\u0000', 'a\u0000b', '\u001f\u007f', '\u2028\u2029', '\ud800', '\udfff\ud800', '\ufeff', '\r\n\r\nX-Injected: 1', '<script>', "' OR 1=1 --", '${jndi:ldap://x}'];
const IDEMPOTENCY_KEY_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:';

/** Values of every JSON type and hostile content. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(...CONTROL_STRINGS),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.integer({ min: 10_000, max: 300_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1_000, max: 100_000 }).map((n) => Array.from({ length: n }, (_, i) => `SKU-${i}`)),
  fc.constantFrom(1e308, -0, Number.MAX_SAFE_INTEGER + 2, -1, 0, 2 ** 53, 0.1 + 0.2),
  fc.constantFrom(null, true, false, [], {}, [[[]]], { __proto__: null, constructor: 1 }),
);

const idempotencyKey = fc.oneof(
  fc.string({ unit: fc.constantFrom(...IDEMPOTENCY_KEY_CHARS), minLength: 1, maxLength: 40 }),
  fc.constant('x'.repeat(300)),
  fc.constant(''),
);

function bodyExample(doc: OpenApiDocument, op: ContractOperation): { mediaType: string | undefined; example: Json | undefined } {
  const body = deref(doc, op.operation.requestBody ?? null);
  if (!isObject(body) || !isObject(body.content)) return { mediaType: undefined, example: undefined };
  const [mediaType, media] = Object.entries(body.content)[0] ?? [];
  return { mediaType, example: mediaExample(doc, media ?? null) };
}

/** The example with one member (or a member of a member) replaced: wrong type, huge, hostile. */
function bend(example: Json | undefined, value: unknown, pick: number): unknown {
  if (!isObject(example)) return value;
  const keys = Object.keys(example);
  if (keys.length === 0) return { [`k${pick}`]: value };
  const key = keys[pick % keys.length];
  const inner = example[key];
  if (isObject(inner) && Object.keys(inner).length && pick % 3 === 0) return { ...example, [key]: bend(inner, value, Math.floor(pick / 3)) };
  return { ...example, [key]: value };
}

/** Percent-encodes every byte outside the unreserved set (lone surrogates become U+FFFD, as Buffer writes them). */
const percentEncode = (text: string) => [...Buffer.from(text, 'utf8')].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

const json = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null');

/** A JSON body (or what is sent in its place) for an operation whose body is JSON, or that takes none. */
function jsonBodies(example: Json | undefined): fc.Arbitrary<{ kind: string; headers: Record<string, string>; body?: Buffer }> {
  const asJson = (kind: string, body: Buffer, headers: Record<string, string> = {}) => ({ kind, headers: { 'content-type': 'application/json', ...headers }, body });
  const exampleText = JSON.stringify(example ?? {});
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(asJson('example', Buffer.from(exampleText))) },
    { weight: 6, arbitrary: fc.tuple(hostileValue, fc.nat()).map(([value, pick]) => asJson('bent example', json(bend(example, value, pick)))) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => asJson('any JSON', json(value))) },
    { weight: 2, arbitrary: fc.nat({ max: exampleText.length }).map((cut) => asJson('truncated JSON', Buffer.from(exampleText.slice(0, cut) + (cut % 2 ? ',' : '')))) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 300 }).map((text) => asJson('invalid JSON', Buffer.from(text))) },
    { weight: 2, arbitrary: fc.integer({ min: 65, max: 50_000 }).map((levels) => asJson('deep nesting', Buffer.from(deepJsonText(levels)))) },
    { weight: 2, arbitrary: fc.tuple(fc.integer({ min: 65, max: 50_000 }), idempotencyKey).map(([levels, key]) => asJson('deep nesting with Idempotency-Key', Buffer.from(deepJsonText(levels)), { 'idempotency-key': key || 'k' })) },
    {
      weight: 2,
      arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype').map((key) =>
        asJson(`${key} keys`, Buffer.from(`{"${key}":{"polluted":true,"prototype":{"polluted":true}},${exampleText.slice(1).replace(/^}$/, '"x":1}')}`)),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom('gzip', 'deflate', 'br', 'compress', 'x-unknown', 'gzip, br'), fc.uint8Array({ maxLength: 200 })).map(([encoding, bytes]) =>
        asJson(`compressed garbage (${encoding})`, Buffer.from(bytes), { 'content-encoding': encoding }),
      ),
    },
    { weight: 1, arbitrary: fc.constant(asJson('valid gzip', gzipSync(exampleText), { 'content-encoding': 'gzip' })) },
    { weight: 1, arbitrary: fc.constant(asJson('gzip bomb', GZIP_BOMB, { 'content-encoding': 'gzip' })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('text/plain', 'application/xml', 'application/json; charset=utf-16', 'application/x-www-form-urlencoded', 'multipart/form-data').map((type) => ({
        kind: `content-type ${type}`,
        headers: { 'content-type': type },
        body: Buffer.from(exampleText),
      })),
    },
  );
}

const csvFile = (fileName: string, content: Buffer = Buffer.from('sku,name,hsCode\nSKU-1,Sample,6109.10\n')): FilePart => ({ field: 'file', fileName, contentType: 'text/csv', content });

/** A multipart form for an upload operation: the example's fields with hostile files. */
function uploadBodies(example: Json | undefined): fc.Arbitrary<{ kind: string; headers: Record<string, string>; body?: Buffer }> {
  const fields = Object.fromEntries(Object.entries(isObject(example) ? example : {}).filter(([k, v]) => k !== 'file' && typeof v !== 'object').map(([k, v]) => [k, String(v)]));
  const form = (kind: string, files: FilePart[], cutAt?: number, extraFields: Record<string, string> = {}) => {
    const { contentType, body } = multipartBody({ ...fields, ...extraFields }, files, { cutAt });
    return { kind, headers: { 'content-type': contentType }, body };
  };
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...TRAVERSAL_NAMES, 'ok.csv').map((name) => form(`upload named ${JSON.stringify(name.slice(0, 40))}`, [csvFile(name)])) },
    { weight: 3, arbitrary: fc.nat({ max: 400 }).map((cut) => form('truncated multipart', [csvFile('cut.csv')], cut)) },
    { weight: 2, arbitrary: fc.tuple(fc.uint8Array({ maxLength: 2000 }), fc.constantFrom('g.csv', 'g.xlsx', 'g.txt', 'g')).map(([bytes, name]) => form(`garbage file ${name}`, [csvFile(name, Buffer.from(bytes))])) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...Object.keys(fields), 'file', 'extra'), hostileValue).map(([key, value]) => form(`hostile field ${key}`, [csvFile('f.csv')], undefined, { [key]: String(JSON.stringify(value)).slice(0, 400_000) })) },
    { weight: 1, arbitrary: fc.constant(form('two files', [csvFile('a.csv'), csvFile('b.csv')])) },
    { weight: 1, arbitrary: fc.constant(form('no file', [])) },
    { weight: 1, arbitrary: fc.constant(form('small zip bomb named .xlsx', [{ field: 'file', fileName: 'bomb.xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', content: SMALL_ZIP_BOMB }])) },
    { weight: 1, arbitrary: fc.constant(form('CSV with 10,000 columns', [csvFile('wide.csv', WIDE_CSV)])) },
    { weight: 1, arbitrary: fc.constant({ kind: 'JSON to an upload', headers: { 'content-type': 'application/json' }, body: json(example ?? {}) }) },
  );
}

/** A path parameter value: a plausible id, anything, traversal, or a raw (mis-)encoded segment. */
const pathValue: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }).map(percentEncode),
  fc.constantFrom(...TRAVERSAL_NAMES, ...CONTROL_STRINGS).map(percentEncode),
  fc.constantFrom(...RAW_SEGMENTS),
  fc.constant('x'.repeat(4000)),
);

function queryOf(doc: OpenApiDocument, op: ContractOperation): fc.Arbitrary<string> {
  const names = op.parameters.map((p) => deref(doc, p)).filter((p) => isObject(p) && p.in === 'query').map((p) => String((p as { name: unknown }).name));
  const value = fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }).map(percentEncode), fc.constantFrom('-1', '0', '1e400', '99999999999999999999', 'NaN', '%', '%zz', '[]', '{"a":1}', 'true', ...RAW_SEGMENTS), fc.integer().map(String));
  const pair = fc.tuple(fc.constantFrom(...names, '__proto__', 'constructor', 'limit[]', 'x'), value).map(([name, v]) => `${percentEncode(name)}=${v}`);
  return fc.array(pair, { maxLength: 5 }).map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));
}

function authHeaders(op: ContractOperation, credentials: FuzzCredentials): fc.Arbitrary<Record<string, string>> {
  if (op.operationId === 'exchangeIntegrationToken') {
    return fc.oneof(fc.constant({ 'x-api-key': credentials.integrationKey }), fc.constant({}), fc.string({ unit: fc.constantFrom(...IDEMPOTENCY_KEY_CHARS), maxLength: 300 }).map((key) => ({ 'x-api-key': key })));
  }
  return fc.oneof(
    { weight: 20, arbitrary: fc.constant({ authorization: `Bearer ${credentials.bearer}` }) },
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.constantFrom('Bearer x', 'Bearer a.b.c', 'Basic Zm9vOmJhcg==', `Bearer ${credentials.bearer}x`, 'Bearer ' + 'e'.repeat(8000)).map((authorization) => ({ authorization })) },
    { weight: 1, arbitrary: fc.constant({ 'x-api-key': credentials.integrationKey, 'x-org-id': '../../org' }) },
  );
}

/** Hostile requests to every operation of `doc`, authenticated (mostly) with `credentials`. */
export function fuzzRequests(doc: OpenApiDocument, credentials: FuzzCredentials): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    ...listOperations(doc).map((op) => {
      const { mediaType, example } = bodyExample(doc, op);
      const bodies = mediaType === 'multipart/form-data' ? uploadBodies(example) : mediaType ? jsonBodies(example) : fc.oneof(fc.constant<{ kind: string; headers: Record<string, string>; body?: Buffer }>({ kind: 'no body', headers: {} }), jsonBodies(example));
      const params = (op.path.match(/\{[^}]+\}/g) ?? []).map(() => pathValue);
      return fc.record({ params: fc.tuple(...params), query: queryOf(doc, op), auth: authHeaders(op, credentials), body: bodies, idempotencyKey: fc.option(idempotencyKey, { freq: 3 }) }).map(({ params: values, query, auth, body, idempotencyKey: key }) => {
        let index = 0;
        const path = op.path.replace(/\{[^}]+\}/g, () => values[index++]);
        const headers = { ...auth, ...body.headers, ...(key !== null && !('idempotency-key' in body.headers) ? { 'idempotency-key': key } : {}) };
        return { kind: `${op.operationId}: ${body.kind}`, method: op.method.toUpperCase(), path: path + query, headers, body: body.body };
      });
    }),
  );
}
