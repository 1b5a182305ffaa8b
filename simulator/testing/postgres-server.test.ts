import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { lookupPostgres, postgresSkipReason, startPostgres } from './postgres-server.js';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

/** A fake /usr/lib/postgresql holding the given majors (each with initdb and pg_ctl). */
function fakeRoot(...majors: string[]): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pgroot-'));
  roots.push(root);
  for (const major of majors) {
    mkdirSync(path.join(root, major, 'bin'), { recursive: true });
    for (const tool of ['initdb', 'pg_ctl']) writeFileSync(path.join(root, major, 'bin', tool), '');
  }
  return root;
}

describe('finding the PostgreSQL binaries', () => {
  it('takes the newest major version, POSTGRES_BIN before it', () => {
    const root = fakeRoot('9', '15', '13');
    expect(lookupPostgres({}, root)).toEqual({ binDir: path.join(root, '15', 'bin'), skipReason: null });
    const own = path.join(fakeRoot('16'), '16', 'bin');
    expect(lookupPostgres({ POSTGRES_BIN: own }, root).binDir).toBe(own);
  });

  it('skips locally when there is none, and fails under CI instead of skipping', () => {
    const empty = fakeRoot();
    expect(lookupPostgres({}, empty).skipReason).toMatch(/apt-get install postgresql/);
    expect(lookupPostgres({ CI: 'true' }, empty)).toEqual({ binDir: null, skipReason: null });
  });
});

describe.skipIf(postgresSkipReason() !== null)('a throwaway PostgreSQL server', () => {
  it('serves the database it created over loopback with the C collation, and leaves nothing behind', async () => {
    const server = await startPostgres({ database: 'probe' });
    const sql = postgres(server.url, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql`SELECT current_database() AS db, datcollate AS collate FROM pg_database WHERE datname = current_database()`;
      expect(row).toEqual({ db: 'probe', collate: 'C' });
      expect(existsSync(path.join(server.dataDir, 'PG_VERSION'))).toBe(true);
    } finally {
      await sql.end({ timeout: 5 });
      await server.stop();
    }
    expect(existsSync(path.dirname(server.dataDir))).toBe(false);
    const gone = postgres(server.url, { max: 1, connect_timeout: 2 });
    await expect(gone`SELECT 1`).rejects.toThrow();
    await gone.end({ timeout: 1 });
  });
});
