// Boot: config -> store lock -> store -> kernel -> simulator -> HTTP server bound -> start -> banner.
// `npm start` runs this (from its bundle, scripts/start.mjs). What a user gets wrong at start (an unknown
// option, a busy port, a store another sandbox holds) ends in one line, never a stack trace (issue 16).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { ConfigError, DEFAULT_DB_PATH, DEFAULT_JOURNAL_PATH, loadConfig, usage, type SimulatorConfig } from './config.js';
import { createSimulator } from './app.js';
import { DEFECT_CATALOGUE } from './control/defects.catalogue.js';
import { createClock, createScheduler, createTenantClocks } from './kernel/clock.js';
import { warmDeferredLoads } from './kernel/deferred-loads.js';
import { createDefects } from './kernel/defects.js';
import { createHttpServer } from './kernel/http/server.js';
import { recordRefusal } from './kernel/http/request-log.js';
import { randomIds } from './kernel/ids.js';
import { openStore, type Store } from './kernel/store/store.js';
import { bannerLines } from './site/banner.js';
import { createStoreHealth } from './site/health.js';
import { earlierStoreNotice, journalStoreBytes, slowLoadAdvice } from './site/store-size-advice.js';
import { LocalPostgresError, startLocalPostgres } from './site/local-postgres.js';
import { acquireStoreLock, StoreLockedError } from './site/store-lock.js';

/** A database URL without its password, for the banner. */
const redactedUrl = (url: string): string => {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
};

/** Prints one line to stderr and exits: the user's mistake, not the program's, so no stack trace. */
const refuse = (line: string, code: number): never => {
  process.stderr.write(`${line}\n`);
  process.exit(code);
};

const config: SimulatorConfig = (() => {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) return refuse(`npm start: ${error.message}`, 2);
    throw error;
  }
})();
if (config.help) {
  process.stdout.write(usage());
  process.exit(0);
}
// Defect injection: an unknown SIM_DEFECTS id refuses to start (README "Defect injection").
const defects = (() => {
  try {
    return createDefects(config.defects, DEFECT_CATALOGUE);
  } catch (error) {
    return refuse(`SIM_DEFECTS: ${(error as Error).message}`, 1);
  }
})();
const log = pino({ level: config.logLevel, base: undefined });

// One process per store (site/store-lock.ts): released on any exit, taken over when its holder is gone.
// SIM_STORE=local: the lock sits beside the server's data, whose clean stop is this sandbox's to make.
const lockedStore = config.dbPath ?? (config.localStoreDir ? path.join(config.localStoreDir, 'sandbox') : null);
if (lockedStore) {
  mkdirSync(path.dirname(path.resolve(lockedStore)), { recursive: true });
  try {
    const lock = acquireStoreLock(lockedStore, { notice: (line) => process.stderr.write(`${line}\n`), howToChoose: config.dbPath ? (config.embeddedStore === 'journal' ? 'SIM_STORE=journal:FILE' : undefined) : 'SIM_STORE=local:DIR' });
    process.on('exit', () => lock.release());
  } catch (error) {
    if (error instanceof StoreLockedError) refuse(error.message, 1);
    throw error;
  }
}

// SIM_STORE=local: this sandbox's own PostgreSQL, started (or taken over after a crash) before the store opens.
const localPostgres = config.localStoreDir
  ? await startLocalPostgres({ dir: config.localStoreDir, log: (line) => log.debug({ postgres: line }) }).catch((error: unknown) => {
      if (error instanceof LocalPostgresError) return refuse(`SIM_STORE=local: ${error.message}`, 1);
      throw error;
    })
  : undefined;
if (localPostgres) {
  config.storeUrl = localPostgres.url;
  log.info({ dataDir: localPostgres.dataDir, reused: localPostgres.reused }, localPostgres.reused ? "took over the sandbox's PostgreSQL left running" : "started the sandbox's PostgreSQL");
}

const storeHealth = createStoreHealth();
const onStoreError = (err: unknown) => {
  storeHealth.record(err);
  log.error({ err }, 'store write failed');
};
// SIM_STORE: the PostgreSQL store several instances share (issue 17), or this sandbox's own server
// (SIM_STORE=local: no other process coordinates through it), loaded only when asked for. Otherwise the
// embedded store at SIM_DB: on disk (the default), or the journal store (SIM_STORE=journal).
const loadStarted = performance.now();
async function openEmbeddedStore(file: string): Promise<Store> {
  if (config.embeddedStore === 'journal') return openStore({ file, compactAfterBytes: config.compactAfterBytes, onError: onStoreError });
  const { openLmdbStore, StoreFormatError } = await import('./kernel/store/lmdb-store.js');
  return openLmdbStore({ file, onError: onStoreError }).catch((error: unknown) => (error instanceof StoreFormatError ? refuse(error.message, 1) : Promise.reject(error)));
}
const store = config.storeUrl
  ? await (await import('./kernel/store/postgres-store.js')).openPostgresStore({ url: config.storeUrl, instanceId: config.instanceId, onError: onStoreError, ownedByOneProcess: localPostgres !== undefined })
  : config.dbPath
    ? await openEmbeddedStore(config.dbPath)
    : await openStore({ onError: onStoreError });
if (config.dbPath && config.embeddedStore === 'lmdb' && !config.storeUrl) {
  const notice = earlierStoreNotice(config.dbPath, { db: DEFAULT_DB_PATH, journal: DEFAULT_JOURNAL_PATH });
  if (notice) process.stderr.write(`${notice}\n`);
}
// The journal store reads every record at start: a slow load says so, with what to do about it.
if (config.dbPath && !config.storeUrl && config.embeddedStore === 'journal') {
  const snapshot = path.resolve(config.dbPath);
  const advice = slowLoadAdvice(performance.now() - loadStarted, () => journalStoreBytes(snapshot));
  if (advice) log.warn(advice);
}
const clock = createClock();
const clocks = createTenantClocks(clock);
const scheduler = createScheduler(clocks, (err) => log.error({ err }, 'scheduled task failed'));
const simulator = await createSimulator({ config, store, clock, clocks, scheduler, ids: randomIds, log, defects }, { storeHealth });

// The port is bound before the sandbox is set up, so a busy port refuses before a first run creates (and
// would never show) the default key. Requests arriving meanwhile wait for the set-up to finish.
let markStarted!: () => void;
const started = new Promise<void>((resolve) => (markStarted = resolve));
const handle = simulator.app.callback();
// Until the set-up is done each request waits for it; then requests go straight to the app (no promise hop).
let dispatch: (req: IncomingMessage, res: ServerResponse) => unknown = (req, res) => void started.then(() => handle(req, res));
void started.then(() => (dispatch = handle));
// Parser refusals answered in the envelope, slow or short requests timed out (kernel/http/server.ts).
const server = createHttpServer((req, res) => dispatch(req, res), {
  log,
  ids: randomIds,
  timeouts: { requestTimeoutMs: config.requestTimeoutMs, headersTimeoutMs: config.headersTimeoutMs },
  // The request log shows these too (GET /_sim/requests): a malformed request is an integrator's to see.
  onRefused: (refusal) => recordRefusal(simulator.requests, clocks, refusal),
});
await new Promise<void>((resolve) => {
  server.once('error', (error: NodeJS.ErrnoException) => {
    const where = `${config.host}:${config.port}`;
    const line =
      error.code === 'EADDRINUSE' ? `port ${config.port} is in use: set PORT or --port`
      : error.code === 'EACCES' ? `cannot listen on ${where}: permission denied (a port under 1024 needs privileges): set PORT or --port`
      : error.code === 'EADDRNOTAVAIL' ? `cannot listen on ${where}: no such address on this machine: set HOST or --host`
      : `cannot listen on ${where}: ${error.message}`;
    simulator.stop().finally(() => refuse(line, 1));
  });
  server.listen(config.port, config.host, resolve);
});

let identity = await simulator.start();
if (config.newKey) {
  // Keys are stored as hashes (domains/auth/key.store.ts): a key shown once cannot be shown again, so a user
  // who lost it gets another one; the earlier keys keep working until revoked.
  const key = await simulator.domains.auth.keys.create({ tenantId: identity.tenantId, defaultAdapter: 'catalog-excel' });
  await store.flush();
  identity = { ...identity, integrationKeyId: key.keyId, integrationKey: key.integrationKey };
}
markStarted();
// What a start did without (two packages, the source map), loaded now that the sandbox answers (kernel/deferred-loads.ts).
void warmDeferredLoads().catch((err: unknown) => log.error({ err }, 'a deferred load failed'));
const address = server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
process.stdout.write(
  bannerLines({
    baseUrl: `http://${config.host}:${port}`,
    versions: simulator.versions,
    store: config.dbPath ? { file: config.dbPath, journal: config.embeddedStore === 'journal' } : localPostgres && config.localStoreDir ? { localDir: config.localStoreDir, url: redactedUrl(localPostgres.url) } : config.storeUrl ? redactedUrl(config.storeUrl) : null,
    identity,
    newKeyIssued: config.newKey,
    defects: defects.active(),
    unhandled: simulator.unhandled,
  }).join('\n') + '\n',
);

/** A stop that hangs (a database gone away) must not keep the process: every acknowledged write is
 *  durable already, so exiting is a crash the next start recovers from. A second signal exits at once. */
const SHUTDOWN_DEADLINE_MS = 10_000;
let stopping = false;
const shutdown = (signal: string) => {
  if (stopping) {
    log.warn({ signal }, 'second signal while shutting down: exiting now');
    process.exit(1);
  }
  stopping = true;
  log.info({ signal }, 'shutting down');
  setTimeout(() => {
    log.error({ deadlineMs: SHUTDOWN_DEADLINE_MS }, 'shutdown did not finish in time: exiting');
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS).unref();
  server.close();
  server.closeAllConnections();
  // SIM_STORE=local: the server stops after the sandbox, which may write until its stop ends.
  simulator
    .stop()
    .then(() => localPostgres?.stop())
    .then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
