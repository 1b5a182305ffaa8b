// The cases issue 15 measured, each pinned against the simulator as a real process (simulator/main.ts):
// parser refusals and short bodies answered in the envelope (spec 2.9, 7), compressed garbage and deep
// nesting refused with 400 instead of 500, a huge invalid batch refused in linear time, and a zip bomb and a
// million-column CSV uploaded to every upload operation ending in a 4xx or a finished job, RSS bounded.
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isObject } from '../contracts/lib/bundle.js';
import { loadContract } from '../contracts/lib/bundle.js';
import { deref, listOperations } from '../contracts/lib/operations.js';
import { deepJsonText, multipartBody, wideCsv, zipBombXlsx } from './testing/hostile-inputs.js';
import { problemsOf, startHostileTarget, type Answer, type HostileTarget } from './testing/hostile-target.js';

const REQUEST_TIMEOUT_MS = 2_000;
/** Item 3's bound on peak RSS while large files go through upload to job done. */
const PEAK_RSS_BOUND_MB = 600;

let target: HostileTarget;
beforeAll(async () => {
  target = await startHostileTarget({ SIM_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), SIM_HEADERS_TIMEOUT_MS: '1000' });
}, 120_000);
afterAll(async () => target?.close());

const bearer = () => ({ authorization: `Bearer ${target.bearer}` });
const envelopeOf = (answer: Answer) => {
  expect(problemsOf(answer), answer.text).toEqual([]);
  return JSON.parse(answer.text) as { code: string; details?: Record<string, unknown> };
};

/** Raw bytes on a new connection; everything the server writes until it closes, and how long that took. */
function exchange(raw: string): Promise<{ text: string; ms: number }> {
  const url = new URL(target.sim.url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(raw));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('close', () => resolve({ text, ms: Date.now() - started }));
    socket.on('error', reject);
    socket.setTimeout(20_000, () => socket.destroy(new Error(`not closed after 20 s; got: ${text}`)));
  });
}

describe("requests Node's HTTP parser refuses", () => {
  it.each([
    ['a malformed header', 'GET /api/jobs HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n', 'malformed_request'],
    ['a smuggling form (Content-Length with Transfer-Encoding)', 'POST /api/sima/batch HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 'malformed_request'],
    ['oversize headers', `GET /api/jobs HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`, 'headers_too_large'],
  ])('answers %s with 400 INVALID_REQUEST in the envelope and a request id', async (_name, raw, reason) => {
    const { text } = await exchange(raw);
    const [head, body] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/i);
    expect(head).toMatch(/\r\nContent-Type: application\/json/i);
    expect(JSON.parse(body)).toMatchObject({ code: 'INVALID_REQUEST', details: { reason } });
  });

  it('answers a body shorter than its Content-Length within the request timeout instead of holding the connection', async () => {
    const raw = `POST /api/sima/batch HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${target.bearer}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"skus":`;
    const { text, ms } = await exchange(raw);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(text.split('\r\n\r\n')[1])).toMatchObject({ code: 'INVALID_REQUEST', details: { reason: 'request_timeout' } });
    expect(ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(ms).toBeLessThan(REQUEST_TIMEOUT_MS + 5_000);
  });
});

describe('bodies that used to answer 500', () => {
  it.each(['gzip', 'deflate', 'br'])('refuses a %s body that is not %s data with 400 INVALID_REQUEST', async (encoding) => {
    const answer = await target.send({ method: 'POST', path: '/api/sima/batch', headers: { ...bearer(), 'content-type': 'application/json', 'content-encoding': encoding }, body: Buffer.from('{"skus":["A"]} not compressed') });
    expect([answer.status, envelopeOf(answer).code]).toEqual([400, 'INVALID_REQUEST']);
  });

  it('refuses an unknown Content-Encoding with 415 INVALID_FILE_FORMAT, and still reads valid gzip', async () => {
    const unknown = await target.send({ method: 'POST', path: '/api/sima/batch', headers: { ...bearer(), 'content-type': 'application/json', 'content-encoding': 'x-unknown' }, body: Buffer.from('{}') });
    expect([unknown.status, envelopeOf(unknown).code]).toEqual([415, 'INVALID_FILE_FORMAT']);
    const gzip = await target.send({ method: 'POST', path: '/api/sima/batch', headers: { ...bearer(), 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync('{"skus":"not an array"}') });
    expect([gzip.status, envelopeOf(gzip).details?.field]).toEqual([400, 'skus']);
  });

  it.each([
    ['without', {}],
    ['with', { 'idempotency-key': 'deep-3000' }],
  ])('refuses a body nested 3,000 deep %s an Idempotency-Key with 400 INVALID_REQUEST', async (_with, key) => {
    const answer = await target.send({ method: 'POST', path: '/api/sima/batch', headers: { ...bearer(), 'content-type': 'application/json', ...key }, body: Buffer.from(deepJsonText(3_000)) });
    expect([answer.status, envelopeOf(answer).code, envelopeOf(answer).details?.field]).toEqual([400, 'INVALID_REQUEST', 'body']);
  });

  it('refuses a classification batch of 200,000 invalid items quickly (ajv collecting every error was quadratic)', async () => {
    const body = Buffer.from(JSON.stringify({ items: Array.from({ length: 200_000 }, (_, i) => `SKU-${i}`) }));
    const started = Date.now();
    const answer = await target.send({ method: 'POST', path: '/api/trade/classify/batch', headers: { ...bearer(), 'content-type': 'application/json' }, body });
    expect([answer.status, envelopeOf(answer).details?.field]).toEqual([400, 'items']);
    // Before: about 50 s of blocked event loop for half as many items.
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

/** Upload operations of v1.3.0 with the example's plain form fields (a carrier or a feed name, say). */
function uploadOperations() {
  const doc = loadContract('v1.3.0');
  return listOperations(doc).flatMap((op) => {
    const body = deref(doc, op.operation.requestBody ?? null);
    const content = isObject(body) && isObject(body.content) ? body.content : {};
    const media = content['multipart/form-data'];
    if (!media) return [];
    const schema = deref(doc, isObject(media) ? media.schema ?? null : null);
    const example = isObject(media) && isObject(media.example) ? media.example : isObject(schema) && isObject(schema.example) ? schema.example : {};
    const fields = Object.fromEntries(Object.entries(example).filter(([k, v]) => k !== 'file' && typeof v !== 'object').map(([k, v]) => [k, String(v)]));
    return [{ path: op.path, operationId: op.operationId, fields }];
  });
}

describe('hostile uploads', () => {
  it('ends a zip bomb disguised as XLSX and a CSV with a million columns in a 4xx or a finished job on every upload operation, peak RSS bounded', async () => {
    const files = [
      { fileName: 'bomb.xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', content: zipBombXlsx(2_000_000) },
      { fileName: 'wide.csv', contentType: 'text/csv', content: wideCsv(1_000_000) },
    ];
    let peakRss = target.rssMb();
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, target.rssMb())), 100);
    try {
      const jobs: Array<{ what: string; jobId: string }> = [];
      for (const op of uploadOperations()) {
        for (const file of files) {
          const { contentType, body } = multipartBody(op.fields, [{ field: 'file', ...file }]);
          const answer = await target.send({ method: 'POST', path: op.path, headers: { ...bearer(), 'content-type': contentType }, body });
          expect(problemsOf(answer), `${op.operationId} ${file.fileName}: ${answer.text}`).toEqual([]);
          if (answer.status === 202) jobs.push({ what: `${op.operationId} ${file.fileName}`, jobId: JSON.parse(answer.text).jobId });
        }
      }
      // Every accepted upload's job must reach a terminal state (spec 3.1) while the server stays up.
      const deadline = Date.now() + 90_000;
      for (const job of jobs) {
        for (;;) {
          const answer = await target.send({ method: 'GET', path: `/api/jobs/${job.jobId}`, headers: bearer() });
          expect(answer.status, `${job.what}: ${answer.text}`).toBe(200);
          const status = JSON.parse(answer.text).status as string;
          if (status === 'COMPLETED' || status === 'FAILED') break;
          expect(Date.now(), `${job.what} still ${status}`).toBeLessThan(deadline);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    } finally {
      clearInterval(sampler);
    }
    expect(target.sim.child.exitCode).toBeNull();
    expect(peakRss, `peak RSS ${peakRss.toFixed(0)} MB`).toBeLessThan(PEAK_RSS_BOUND_MB);
  }, 150_000);
});
