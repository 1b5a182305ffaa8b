import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, usage } from './config.js';

describe('simulator settings (config.ts)', () => {
  it('lists in the --help usage every environment variable and option config.ts reads', () => {
    const source = readFileSync(new URL('./config.ts', import.meta.url), 'utf8');
    const body = source.slice(source.indexOf('export function loadConfig'));
    const variables = new Set([...body.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]));
    const options = new Set([...source.matchAll(/^ {8}'?([a-z][a-z-]*)'?: \{ type: '(?:string|boolean)'/gm)].map((m) => `--${m[1]}`));
    expect(variables.size).toBeGreaterThan(15);
    expect(options).toContain('--new-key');
    const text = usage();
    for (const name of [...variables, ...options]) expect(text, name).toMatch(new RegExp(`(^|[ ,])${name}\\b`, 'm'));
  });

  it('refuses a mistyped option, a stray argument, a bad port or an unknown contract with a ConfigError of one line', () => {
    for (const [argv, env, message] of [
      [['--prot', '1'], {}, 'unknown option --prot (npm start -- --help lists the options)'],
      [['serve'], {}, 'unexpected argument serve (npm start -- --help lists the options)'],
      [['--db'], {}, '--db needs a value (npm start -- --help lists the options)'],
      [[], { PORT: 'eighty' }, 'port must be a number from 0 to 65535, not eighty'],
      [['--contract', 'v2'], {}, '--contract must be one of v1.3.0, v1.2.0, v1.1.0 or all'],
    ] as const) {
      expect(() => loadConfig([...argv], env)).toThrow(ConfigError);
      expect(() => loadConfig([...argv], env)).toThrow(message);
    }
  });

  it('reads --help, -h and --new-key', () => {
    expect(loadConfig(['--help'], {}).help).toBe(true);
    expect(loadConfig(['-h'], {}).help).toBe(true);
    expect(loadConfig(['--new-key'], {}).newKey).toBe(true);
    expect(loadConfig([], {})).toMatchObject({ help: false, newKey: false });
  });

  it('keeps the on-disk store at SIM_DB by default, and reads SIM_STORE as a PostgreSQL URL, local[:DIR] for the server the sandbox runs itself or journal[:FILE] for the journal store, refused beside SIM_DB', () => {
    expect(loadConfig([], {})).toMatchObject({ embeddedStore: 'lmdb', localStoreDir: null, storeUrl: null, dbPath: '.sim-data/store.mdb', artifactsDir: '.sim-data/store.mdb.artifacts' });
    expect(loadConfig(['--db', '/srv/s.mdb'], {})).toMatchObject({ embeddedStore: 'lmdb', dbPath: '/srv/s.mdb' });
    expect(loadConfig([], { SIM_STORE: 'local' })).toMatchObject({ localStoreDir: '.sim-data/postgres', storeUrl: null, dbPath: null, artifactsDir: path.join('.sim-data/postgres', 'artifacts') });
    expect(loadConfig([], { SIM_STORE: 'local:/srv/sandbox-pg' })).toMatchObject({ localStoreDir: '/srv/sandbox-pg', storeUrl: null, dbPath: null });
    expect(loadConfig([], { SIM_STORE: 'postgres://u@db:5432/sim' })).toMatchObject({ localStoreDir: null, storeUrl: 'postgres://u@db:5432/sim', dbPath: null });
    expect(loadConfig([], { SIM_STORE: 'journal' })).toMatchObject({ embeddedStore: 'journal', dbPath: '.sim-data/store.json', storeUrl: null, localStoreDir: null, artifactsDir: '.sim-data/store.json.artifacts' });
    expect(loadConfig([], { SIM_STORE: 'journal:/srv/old.json' })).toMatchObject({ embeddedStore: 'journal', dbPath: '/srv/old.json' });
    expect(() => loadConfig([], { SIM_STORE: 'locale' })).toThrow('SIM_STORE must be a PostgreSQL URL (postgres://user@host:port/database), local[:DIR]');
    expect(() => loadConfig([], { SIM_STORE: 'journals' })).toThrow('or journal[:FILE] for the journal store of earlier versions');
    expect(() => loadConfig(['--db', 'x.json'], { SIM_STORE: 'journal' })).toThrow('SIM_STORE and SIM_DB (--db) name two stores: set one');
    expect(() => loadConfig(['--db', 'x.json'], { SIM_STORE: 'local' })).toThrow('SIM_STORE and SIM_DB (--db) name two stores: set one');
  });
});
