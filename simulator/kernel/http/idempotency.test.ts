// The idempotency layer on its own (spec 8.5): the normal form payloads are compared in, the scope of a key
// (tenant, endpoint, key), its expiry on the tenant's clock, and the defects that break each of them.
import { describe, expect, it } from 'vitest';
import { createClock, createTenantClocks } from '../clock.js';
import { createDefects } from '../defects.js';
import { KERNEL_DEFECTS } from '../kernel.defects.js';
import { openStore } from '../store/store.js';
import { MAX_BODY_DEPTH } from './json-depth.js';
import { canonicalJson, createIdempotency, normalizedPayload, type IdempotencyScope } from './idempotency.js';

describe('canonicalJson', () => {
  it('writes object members in key order and leaves array order alone', () => {
    expect(canonicalJson({ b: 1, a: [3, { d: null, c: 'x' }], e: undefined })).toBe('{"a":[3,{"c":"x","d":null}],"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });

  it('writes scalars as JSON does, and undefined as null', () => {
    for (const value of ['t"x', 0, -1.5, true, null, [], {}]) expect(canonicalJson(value)).toBe(JSON.stringify(value));
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson([undefined])).toBe('[null]');
  });

  it('refuses a payload nested 100,000 deep with 400 INVALID_REQUEST instead of overflowing the stack', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { k: deep };
    expect(() => canonicalJson(deep)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST', status: 400 }));
  });

  it('tells apart payloads that differ only at the deepest accepted level (never truncates)', () => {
    const nested = (leaf: unknown) => {
      let value: unknown = { leaf };
      for (let depth = 1; depth < MAX_BODY_DEPTH; depth++) value = depth % 2 ? [value] : { k: value };
      return { body: value, files: [] };
    };
    expect(canonicalJson(nested('a'))).not.toBe(canonicalJson(nested('b')));
    expect(canonicalJson(nested('a'))).toContain('"leaf":"a"');
  });
});

describe('normalizedPayload', () => {
  it('reads screeningAuthority trimmed and case-insensitive, blank as omitted (spec 4.2, 4.3)', () => {
    const of = (screeningAuthority?: string) => canonicalJson(normalizedPayload({ body: { skus: ['A'], screeningAuthority }, files: [] }));
    expect(of(' ca ')).toBe(of('CA'));
    expect(of('us')).toBe(of('US'));
    expect(of('  ')).toBe(of(undefined));
    expect(of('CA')).not.toBe(of('US'));
  });

  it('leaves every other difference a different payload', () => {
    const a = normalizedPayload({ body: { skus: ['A'], runPolicy: 'always' }, files: ['f1'] });
    expect(canonicalJson(a)).not.toBe(canonicalJson(normalizedPayload({ body: { skus: ['B'], runPolicy: 'always' }, files: ['f1'] })));
    expect(canonicalJson(a)).not.toBe(canonicalJson(normalizedPayload({ body: { skus: ['A'], runPolicy: 'always' }, files: ['f2'] })));
  });
});

/** An idempotency layer over a memory store, with the defects given, and a handler that counts its runs. */
async function layer(active: string[] = [], ttlMs = 60_000) {
  const clocks = createTenantClocks(createClock());
  const defects = createDefects(active, KERNEL_DEFECTS.map((d) => d.id));
  const idempotency = createIdempotency(await openStore(), clocks, ttlMs, { defects });
  let runs = 0;
  const run = (scope: Partial<IdempotencyScope> = {}) =>
    idempotency.run({ tenantId: 't1', operationId: 'enqueueSimaBatch', key: 'k', payload: { body: { skus: ['A'] }, files: [] }, ...scope }, () => ({ status: 202, body: { jobId: `job-${++runs}`, replayed: false } }));
  return { clocks, run, runs: () => runs };
}

const jobOf = async (response: Promise<{ body?: unknown }>) => ((await response).body as { jobId: string; replayed: boolean });

describe('createIdempotency', () => {
  it('replays the same normalized payload and refuses another with 409 ACTION_NOT_ALLOWED', async () => {
    const { run, runs } = await layer();
    expect(await jobOf(run())).toEqual({ jobId: 'job-1', replayed: false });
    expect(await jobOf(run({ payload: { body: { screeningAuthority: ' ', skus: ['A'] }, files: [] } }))).toEqual({ jobId: 'job-1', replayed: true });
    await expect(run({ payload: { body: { skus: ['B'] }, files: [] } })).rejects.toMatchObject({ status: 409, code: 'ACTION_NOT_ALLOWED' });
    expect(runs()).toBe(1);
  });

  it('scopes a key by tenant and endpoint', async () => {
    const { run } = await layer();
    await run();
    expect(await jobOf(run({ tenantId: 't2' }))).toEqual({ jobId: 'job-2', replayed: false });
    expect(await jobOf(run({ operationId: 'uploadSimaScreeningFile', payload: { body: {}, files: ['f'] } }))).toEqual({ jobId: 'job-3', replayed: false });
  });

  it('forgets a key once its expiry has passed on the tenant\'s own clock', async () => {
    const { clocks, run } = await layer([], 60_000);
    await run();
    clocks.of('t2').advance(120_000);
    expect((await jobOf(run())).replayed).toBe(true);
    clocks.of('t1').advance(59_000);
    expect((await jobOf(run())).replayed).toBe(true);
    clocks.of('t1').advance(2_000);
    expect(await jobOf(run())).toEqual({ jobId: 'job-2', replayed: false });
  });
});

describe('idempotency defects', () => {
  it('idempotency.scope-ignores-endpoint: another endpoint with the key is a conflict', async () => {
    const { run } = await layer(['idempotency.scope-ignores-endpoint']);
    await run();
    await expect(run({ operationId: 'uploadCatalogFile', payload: { body: {}, files: ['f'] } })).rejects.toMatchObject({ status: 409 });
  });

  it('idempotency.scope-ignores-tenant: another tenant is answered the first tenant\'s job', async () => {
    const { run } = await layer(['idempotency.scope-ignores-tenant']);
    await run();
    expect(await jobOf(run({ tenantId: 't2' }))).toEqual({ jobId: 'job-1', replayed: true });
  });

  it('idempotency.upload-key-ignored: a request with a file runs every time, a JSON request still replays', async () => {
    const { run } = await layer(['idempotency.upload-key-ignored']);
    const upload = { operationId: 'uploadSimaScreeningFile', payload: { body: {}, files: ['f'] } };
    await run(upload);
    expect(await jobOf(run(upload))).toEqual({ jobId: 'job-2', replayed: false });
    await run();
    expect((await jobOf(run())).replayed).toBe(true);
  });

  it('idempotency.payload-not-normalized: member order makes another payload', async () => {
    const { run } = await layer(['idempotency.payload-not-normalized']);
    await run({ payload: { body: { skus: ['A'], runPolicy: 'always' }, files: [] } });
    await expect(run({ payload: { body: { runPolicy: 'always', skus: ['A'] }, files: [] } })).rejects.toMatchObject({ status: 409 });
  });

  it('idempotency.never-expires and idempotency.expires-early', async () => {
    const never = await layer(['idempotency.never-expires'], 60_000);
    await never.run();
    never.clocks.of('t1').advance(365 * 24 * 3600_000);
    expect((await jobOf(never.run())).replayed).toBe(true);
    const early = await layer(['idempotency.expires-early'], 60_000);
    await early.run();
    early.clocks.of('t1').advance(61);
    expect((await jobOf(early.run())).replayed).toBe(false);
  });
});
