// The request log's ring, filters, paging, masking and body caps, without HTTP.
import { describe, expect, it } from 'vitest';
import { decodeRecord, encodeRecord } from './request-journal-codec.js';
import { BODY_CAP, boundedJson, BYTES_PER_ENTRY, captureText, createRequestJournal, MASK, maskHeaders, maskJson, maskJsonText, maskQuery, statusMatches, viewRecord, type RequestRecord } from './request-journal.js';

const entry = (n: number, change: Partial<RequestRecord> = {}): RequestRecord => ({
  id: `req-${n}`,
  atMs: Date.UTC(2026, 10, 2, 14, 0, n),
  virtualAtMs: Date.UTC(2026, 10, 2, 14, 0, n),
  tenantId: n % 2 ? 'tenant-odd' : 'tenant-even',
  method: 'GET',
  path: `/api/jobs/${n}`,
  query: '',
  operationId: 'getJob',
  status: 200,
  durationMs: 1,
  requestHeaders: {},
  requestBody: { kind: 'none', bytes: null },
  responseHeaders: {},
  responseBody: { kind: 'none', bytes: 0 },
  faults: [],
  ...change,
});

describe('the request journal', () => {
  it('keeps only the newest N requests, newest first', () => {
    const journal = createRequestJournal(3);
    for (let n = 1; n <= 5; n++) journal.record(entry(n));
    expect(journal.list({}).items.map((i) => i.id)).toEqual(['req-5', 'req-4', 'req-3']);
  });

  it('keeps exactly the newest N whole through many laps of small entries', () => {
    const journal = createRequestJournal(10);
    for (let n = 1; n <= 1000; n++) journal.record(entry(n, { responseBody: captureText('text', `body ${n} `.repeat(n % 7), null) }));
    const items = journal.list({ limit: 50 }).items;
    expect(items.map((i) => i.id)).toEqual(Array.from({ length: 10 }, (_, i) => `req-${1000 - i}`));
    for (const item of items) {
      const n = Number(item.id.slice(4));
      expect(item.response.body).toBe(`body ${n} `.repeat(n % 7));
    }
  });

  it('filters by tenant, operation, exact status, status class and wall-clock time', () => {
    const journal = createRequestJournal(100);
    for (let n = 1; n <= 10; n++) journal.record(entry(n, { status: n === 4 ? 404 : n === 7 ? 409 : n === 9 ? 500 : 200, operationId: n === 2 ? 'listJobs' : 'getJob' }));
    const ids = (filter: Parameters<ReturnType<typeof createRequestJournal>['list']>[0]) => journal.list(filter).items.map((i) => i.id);
    expect(ids({ tenantId: 'tenant-even' })).toEqual(['req-10', 'req-8', 'req-6', 'req-4', 'req-2']);
    expect(ids({ operationId: 'listJobs' })).toEqual(['req-2']);
    expect(ids({ status: '404' })).toEqual(['req-4']);
    expect(ids({ status: '4xx' })).toEqual(['req-7', 'req-4']);
    expect(ids({ status: '5xx', tenantId: 'tenant-odd' })).toEqual(['req-9']);
    expect(ids({ since: new Date(entry(3).atMs).toISOString(), until: new Date(entry(5).atMs).toISOString() })).toEqual(['req-5', 'req-4', 'req-3']);
  });

  it('pages with a cursor until the last page, which has no cursor', () => {
    const journal = createRequestJournal(100);
    for (let n = 1; n <= 7; n++) journal.record(entry(n));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = journal.list({ limit: 3, cursor: cursor ?? undefined });
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(seen).toEqual(['req-7', 'req-6', 'req-5', 'req-4', 'req-3', 'req-2', 'req-1']);
    expect(pages).toBe(3);
    expect(journal.list({ limit: 1000 }).items).toHaveLength(7); // the page size is capped, not refused
  });

  it('keeps the newest entries whole when large bodies fill its bytes before its count (seeded sizes)', () => {
    const seed = Number(process.env.SEED ?? 16);
    // mulberry32: a replayable sequence of body sizes (replay: SEED=<seed> npx vitest run simulator/kernel/request-journal.test.ts).
    let state = seed >>> 0;
    const random = () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const size = 100;
    const journal = createRequestJournal(size);
    const bodies: string[] = [];
    for (let n = 0; n < 400; n++) {
      const text = `${n}:`.padEnd(Math.floor(random() ** 3 * BODY_CAP), 'é');
      bodies.push(text);
      journal.record(entry(n, { responseBody: captureText('text', text, Buffer.byteLength(text)) }));
    }
    const held: Array<{ id: string; response: { body: unknown } }> = [];
    let cursor: string | null = null;
    do {
      const page = journal.list({ limit: 200, cursor: cursor ?? undefined });
      held.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    const newest = held.map((i) => Number(i.id.slice(4)));
    expect(newest, `seed ${seed}`).toEqual(Array.from({ length: held.length }, (_, i) => 399 - i));
    expect(held.length, `seed ${seed}`).toBeLessThanOrEqual(size);
    for (const item of held) expect(item.response.body, `seed ${seed}`).toBe(bodies[Number(item.id.slice(4))]);
    const heldBytes = held.reduce((sum, item) => sum + Buffer.byteLength(String(item.response.body)), 0);
    expect(heldBytes, `seed ${seed}`).toBeLessThanOrEqual(size * BYTES_PER_ENTRY);
  });

  it('is emptied by clear, and keeps recording after it', () => {
    const journal = createRequestJournal(5);
    journal.record(entry(1));
    journal.clear();
    expect(journal.list({}).items).toEqual([]);
    journal.record(entry(2));
    expect(journal.list({}).items.map((i) => i.id)).toEqual(['req-2']);
  });

  it('reads a status class or an exact status', () => {
    expect(statusMatches(429, '4xx')).toBe(true);
    expect(statusMatches(429, '429')).toBe(true);
    expect(statusMatches(500, '4xx')).toBe(false);
  });
});

describe('bodies nested deeper than a route accepts', () => {
  it('keeps the first 64 levels of a body nested 3,000 deep and says it was cut, without overflowing the stack', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 3000; i++) deep = i % 2 ? [deep] : { a: deep, token: 'secret-value' };
    const { text, truncated } = boundedJson(deep);
    expect(truncated).toBe(true);
    expect(text).toContain('nested deeper than 64 levels');
    expect(text).not.toContain('secret-value');
    expect(JSON.stringify(maskJson(deep))).toContain('nested deeper than 64 levels');
  });
});

describe('the entry encoding', () => {
  it('reads back every field of every body kind, whatever characters they hold', () => {
    const odd = '~:12:é😀\u0000"\\';
    const records: RequestRecord[] = [
      entry(1, { tenantId: null, operationId: null, query: `a=${odd}`, requestHeaders: { 'x-odd': odd, 'x-list': ['a', 'b'] as unknown as string }, responseHeaders: { 'content-length': 12 }, faults: ['error.wrong-code', odd] }),
      entry(2, { requestBody: { kind: 'json', text: `{"k":"${odd}"}`, truncated: true, bytes: 99 }, responseBody: { kind: 'binary', contentType: null, bytes: null } }),
      entry(3, { requestBody: { kind: 'multipart', fields: '{}', truncated: false, files: [{ field: 'file', fileName: odd, size: 0, contentType: null }] }, responseBody: { kind: 'text', text: '', truncated: false, bytes: 0 } }),
    ];
    for (const record of records) {
      const expected = { ...record, requestHeaders: Object.fromEntries(Object.entries(record.requestHeaders).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)])), responseHeaders: Object.fromEntries(Object.entries(record.responseHeaders).map(([k, v]) => [k, String(v)])) };
      expect(decodeRecord(Buffer.from(encodeRecord(record)).toString('utf8'))).toEqual(expected);
    }
  });
});

describe('secrets in the request log', () => {
  it('masks credential headers, whatever their case', () => {
    expect(maskHeaders({ Authorization: 'Bearer abc', 'x-api-key': 'k', 'X-Admin-Token': 't', 'set-cookie': ['a=b'], accept: 'application/json' })).toEqual({
      authorization: MASK,
      'x-api-key': MASK,
      'x-admin-token': MASK,
      'set-cookie': MASK,
      accept: 'application/json',
    });
  });

  it('masks JSON fields named like secrets at any depth, and only those', () => {
    const body = { access_token: 'eyJ', token_type: 'Bearer', config: { webhookSecret: 's', url: 'https://x' }, keys: [{ integrationKey: 'tfk', integrationKeyId: 'id' }], password: 'p', magicLinkToken: 'm' };
    const expected = { access_token: MASK, token_type: 'Bearer', config: { webhookSecret: MASK, url: 'https://x' }, keys: [{ integrationKey: MASK, integrationKeyId: 'id' }], password: MASK, magicLinkToken: MASK };
    expect(maskJson(body)).toEqual(expected);
    expect(JSON.parse(boundedJson(body).text)).toEqual(expected);
  });

  it('masks secrets in a body cut at the cap, where the JSON cannot be parsed', () => {
    const text = JSON.stringify({ access_token: 'eyJ.secret', filler: 'x'.repeat(BODY_CAP) });
    const view = viewRecord(entry(1, { responseBody: captureText('json', text, text.length) }));
    expect(view.response.bodyTruncated).toBe(true);
    expect(view.response.body).toContain(`"access_token":"${MASK}"`);
    expect(view.response.body).not.toContain('eyJ.secret');
  });
});

describe('credentials by name in the request log (issue 30 item 5)', () => {
  it('masks every credential-looking header of the denylist, whatever its case or separators, and no identifier', () => {
    const headers = { 'X-Auth-Token': 'a', 'x-access-token': 'b', 'X-Partner-Api-Key': 'c', 'proxy-authorization': 'd', cookie: 'e', 'x-amz-security-token': 'f', 'x-request-id': 'id-1', 'idempotency-key': 'k-1', 'x-svc-delivery-id': 'd-1' };
    expect(maskHeaders(headers)).toEqual({ 'x-auth-token': MASK, 'x-access-token': MASK, 'x-partner-api-key': MASK, 'proxy-authorization': MASK, cookie: MASK, 'x-amz-security-token': MASK, 'x-request-id': 'id-1', 'idempotency-key': 'k-1', 'x-svc-delivery-id': 'd-1' });
    // The ring itself never holds them: masked as the entry is encoded, not only when it is read.
    const stored = decodeRecord(Buffer.from(encodeRecord(entry(1, { requestHeaders: headers }))).toString('utf8'));
    expect(stored.requestHeaders).toMatchObject({ 'X-Auth-Token': MASK, 'x-access-token': MASK, 'X-Partner-Api-Key': MASK, 'x-request-id': 'id-1' });
    expect(JSON.stringify(stored.requestHeaders)).not.toMatch(/"(a|b|c|d|e|f)"/);
  });

  it('masks credential query parameters (plain or percent-encoded names) and keeps the others', () => {
    const query = 'limit=5&access_token=eyJ.q&api_key=tfk_q&token=t1&secret=whsec&Password=pw&client%5Fsecret=cs&sessionId=s-1&keyId=k-1&status=4xx';
    expect(maskQuery(query)).toBe(`limit=5&access_token=${MASK}&api_key=${MASK}&token=${MASK}&secret=${MASK}&Password=${MASK}&client%5Fsecret=${MASK}&sessionId=s-1&keyId=k-1&status=4xx`);
    const view = viewRecord(entry(1, { query }));
    expect(view.query).toBe(maskQuery(query));
  });

  it('masks the webhook secret inside a multipart JSON part, whole or cut at the cap', () => {
    const webhook = JSON.stringify({ url: 'https://hooks.example.com/tfas', events: ['job.completed'], secret: 'whsec_multipart_part' });
    const whole = boundedJson({ webhook, note: 'hello' });
    expect(whole.text).not.toContain('whsec_multipart_part');
    expect(JSON.parse(JSON.parse(whole.text).webhook)).toEqual({ url: 'https://hooks.example.com/tfas', events: ['job.completed'], secret: MASK });
    // A JSON body carrying the part as a string, masked when the log is read.
    expect(maskJson({ webhook })).toEqual({ webhook: JSON.stringify({ url: 'https://hooks.example.com/tfas', events: ['job.completed'], secret: MASK }) });
    // Cut text: the escaped field inside the string is masked too.
    const cut = JSON.stringify({ webhook: '{"url":"https://x","secret":"whsec_cut_text","pad":"' + 'x'.repeat(40) }).slice(0, 70);
    expect(maskJsonText(cut)).not.toContain('whsec_cut_text');
    expect(maskJsonText(cut)).toContain(`\\"secret\\":\\"${MASK}\\"`);
  });
});

describe('body caps', () => {
  it('cuts a long body at 16 KB and says so, keeping a short one whole', () => {
    const long = captureText('text', 'y'.repeat(BODY_CAP + 10), BODY_CAP + 10);
    expect(long).toMatchObject({ truncated: true, bytes: BODY_CAP + 10 });
    expect((long as { text: string }).text).toHaveLength(BODY_CAP);
    expect(captureText('json', '{"a":1}', 7)).toEqual({ kind: 'json', text: '{"a":1}', truncated: false, bytes: 7 });
  });

  it('stops walking a large body once the cap is reached (the cost of 16 KB, not of the body)', () => {
    let reads = 0;
    const rows = Array.from({ length: 100_000 }, (_, i) => ({
      get sku() {
        reads += 1;
        return `SKU-${i}`;
      },
    }));
    const { text, truncated } = boundedJson(rows);
    expect(truncated).toBe(true);
    expect(text.length).toBe(BODY_CAP);
    expect(reads).toBeLessThan(2_000);
  });

  it('cuts one very long string field before escaping it', () => {
    const { text, truncated } = boundedJson({ note: 'z'.repeat(10 * 1024 * 1024) });
    expect(truncated).toBe(true);
    expect(text.length).toBe(BODY_CAP);
    expect(text.startsWith('{"note":"zzz')).toBe(true);
  });

  it('summarizes a multipart body: fields and file names and sizes, never the bytes', () => {
    const view = viewRecord(
      entry(1, {
        requestBody: { kind: 'multipart', fields: JSON.stringify({ adapter: 'fedex-fbo-csv', webhookSecret: MASK }), truncated: false, files: [{ field: 'file', fileName: 'invoice.csv', size: 1234, contentType: 'text/csv' }] },
      }),
    );
    expect(view.request.body).toEqual({ multipart: { fields: { adapter: 'fedex-fbo-csv', webhookSecret: MASK }, files: [{ field: 'file', fileName: 'invoice.csv', size: 1234, contentType: 'text/csv' }] } });
  });
});
