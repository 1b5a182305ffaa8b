// Simulator settings from the command line and the environment (command line wins).
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { KernelConfig } from './kernel/config.js';
import { DEFAULT_SERVER_TIMEOUTS } from './kernel/http/server.js';
import { parseCrashPoint } from './domains/jobs/crash-point.js';

export const SERVABLE_VERSIONS = ['v1.3.0', 'v1.2.0', 'v1.1.0'] as const;

// The domains read their settings through KernelDeps.config: the kernel's DepsConfig is this whole type.
declare module './kernel/config.js' {
  interface DepsConfig extends SimulatorConfig {}
}

export interface SimulatorConfig extends KernelConfig {
  port: number;
  host: string;
  /** Served contract version, or 'all' (every version under /versions/<v>/, the default one unprefixed). */
  contract: string;
  defaultVersion: string;
  /** The embedded store's file (`embeddedStore` says which store); `null` keeps everything in memory (tests),
   *  or the store is a database. */
  dbPath: string | null;
  /** Which embedded store `dbPath` holds: the on-disk store (SIM_DB, the default: kernel/store/lmdb-store.ts,
   *  a start reads no record) or the journal store (SIM_STORE=journal[:FILE]: every record in memory, read
   *  whole at start; the embedded store of earlier versions). */
  embeddedStore: 'lmdb' | 'journal';
  /** SIM_STORE: a PostgreSQL URL (postgres://...) selects the database store several instances share
   *  (issue 17); null keeps the embedded store at `dbPath`. */
  storeUrl: string | null;
  /** SIM_STORE=local[:DIR]: the directory of the PostgreSQL server the sandbox runs itself (main.ts starts it
   *  and sets `storeUrl` to it); null otherwise. */
  localStoreDir: string | null;
  /** SIM_INSTANCE_ID: this instance's name among those sharing a database (leases, logs). */
  instanceId: string;
  /** Uploaded files and generated documents, beside the store. */
  artifactsDir: string;
  adminToken: string | null;
  integrationKey: string | null;
  /** Secret for signing bearer tokens; generated and persisted in the store when absent. */
  jwtSecret: string | null;
  /** Spec 5.3: the legacy x-api-key + x-org-id pair, off by default. */
  allowApiKeyFallback: boolean;
  /** Local testing only: webhook targets (host or host:port) allowed despite SSRF rules, plain HTTP allowed. */
  webhookAllowTargets: string[];
  /** Virtual-time delay before a PENDING job starts, and how long PROCESSING lasts. */
  jobStartDelayMs: number;
  jobProcessingMs: number;
  idempotencyTtlMs: number;
  maxFileBytes: number;
  /** Journal size that triggers a rotation and a snapshot (the crash test makes it small to rotate often). */
  compactAfterBytes: number;
  /** How long a client may take to send a whole request, and its headers (kernel/http/server.ts). */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  /** Refuse to start while any operation of a served contract has no handler. */
  strict: boolean;
  logLevel: string;
  /** Defect injection (README "Defect injection"): catalogue ids switched on at start; none by default. */
  defects: string[];
  /** `--help`: print {@link usage} and exit (main.ts). */
  help: boolean;
  /** `--new-key`: issue another integration key for the default tenant at start and print it (keys are kept
   *  only as hashes, so one shown on an earlier run cannot be shown again). */
  newKey: boolean;
  /** SIM_ALLOW_FAULT_HEADER: honour `X-Sim-Fault` (one request's faults; simulator/kernel/http/fault-scope.ts). Off by default. */
  allowFaultHeader: boolean;
  /** SIM_REQUEST_LOG_SIZE: requests the in-memory request log keeps (GET /_sim/requests; kernel/request-journal.ts). */
  requestLogSize: number;
  /** SIM_CRASH_AT (testing only): the process SIGKILLs itself at that moment of a job (domains/jobs/crash-point.ts). */
  crashAt: string | null;
}

const bool = (value: string | undefined) => value !== undefined && /^(1|true|yes|on)$/i.test(value);

/** A command line or setting the simulator cannot start with: main.ts prints its message alone, exit 2. */
export class ConfigError extends Error {}

/** One line per unknown option, missing value or stray argument, instead of node:util's TypeError text. */
function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        contract: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        db: { type: 'string' },
        strict: { type: 'boolean' },
        'no-strict': { type: 'boolean' },
        'new-key': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const option = /'([^']+)'/.exec(message)?.[1];
    const reason =
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? `unknown option ${option ?? ''}`.trim()
      : code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' ? `unexpected argument ${option ?? ''}`.trim()
      : code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' ? `${option?.split(' ')[0] ?? 'an option'} needs a value`
      : message.split('\n')[0];
    throw new ConfigError(`${reason} (npm start -- --help lists the options)`);
  }
}

/** `npm start -- --help`: every option and environment variable (simulator/README.md "Settings" explains each). */
/** Where `npm start` keeps its store unless told otherwise (the on-disk store). */
export const DEFAULT_DB_PATH = '.sim-data/store.mdb';
/** Where the journal store lives unless told otherwise: the default store of earlier versions. */
export const DEFAULT_JOURNAL_PATH = '.sim-data/store.json';

export function usage(): string {
  const rows: Array<[string, string]> = [
    ['--port N, PORT', 'port to listen on (4010)'],
    ['--host H, HOST', 'address to listen on (127.0.0.1)'],
    ['--contract V, SIM_CONTRACT', `served version: ${SERVABLE_VERSIONS.join(', ')} or all (v1.3.0)`],
    ['SIM_DEFAULT_CONTRACT', 'with --contract all: the version served without prefix (v1.3.0)'],
    ['--db FILE, SIM_DB', 'the store, on disk; lock and artifacts beside it (.sim-data/store.mdb)'],
    ['SIM_ARTIFACTS', 'uploaded files and generated documents (<SIM_DB>.artifacts); one shared dir for a cluster'],
    ['SIM_STORE', 'postgres://... : the PostgreSQL store several instances share, instead of SIM_DB (unset);'],
    ['', "local[:DIR]: a PostgreSQL the sandbox runs itself from the machine's packages (.sim-data/postgres);"],
    ['', 'journal[:FILE]: the store of earlier versions, every record in memory, read whole at start (.sim-data/store.json)'],
    ['SIM_INSTANCE_ID', "this instance's name among those sharing SIM_STORE (<host>-<pid>)"],
    ['SIM_ADMIN_TOKEN', 'bearer of the /_sim control API (generated once, kept in the store)'],
    ['SIM_INTEGRATION_KEY', "pins the default tenant's integration key (generated on first run)"],
    ['--new-key', 'issue another integration key for the default tenant and print it'],
    ['SIM_JWT_SECRET', 'HS256 secret of bearer tokens (generated once, kept in the store)'],
    ['ALLOW_API_KEY_FALLBACK', 'spec 5.3 legacy x-api-key + x-org-id pair (off)'],
    ['SIM_WEBHOOK_ALLOW_TARGETS', 'local testing only: webhook hosts allowed despite SSRF rules, plain HTTP (empty)'],
    ['SIM_JOB_START_DELAY_MS', 'virtual delay before a job starts (250)'],
    ['SIM_JOB_PROCESSING_MS', 'virtual time a job processes (1500)'],
    ['SIM_IDEMPOTENCY_TTL_SECONDS', 'how long an Idempotency-Key is remembered (86400)'],
    ['SIM_COMPACT_AFTER_BYTES', 'journal size that triggers a snapshot (67108864)'],
    ['SIM_REQUEST_TIMEOUT_MS', 'time a client may take to send a request (30000)'],
    ['SIM_HEADERS_TIMEOUT_MS', 'time a client may take to send its headers (10000)'],
    ['--strict, --no-strict, SIM_STRICT', 'refuse to start while an operation has no handler (off)'],
    ['LOG_LEVEL', 'pino level: fatal, error, warn, info, debug, trace, silent (info)'],
    ['SIM_DEFECTS', 'testing only: comma-separated defect ids switched on (empty)'],
    ['SIM_ALLOW_FAULT_HEADER', 'testing only: honour X-Sim-Fault on a request (off)'],
    ['SIM_REQUEST_LOG_SIZE', 'requests kept in memory for GET /_sim/requests; 0: off (2000)'],
    ['SIM_CRASH_AT', 'testing only: SIGKILL this process at <jobType>[/<variant>]@settled|progress:<percent> (unset)'],
    ['-h, --help', 'this text'],
  ];
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  return [
    'Trade Compliance and Freight Audit Service sandbox',
    '',
    'usage: npm start -- [options]  or  tfas sandbox [options]     (options win over the environment; defaults in brackets)',
    '',
    ...rows.map(([name, meaning]) => `  ${name.padEnd(width)}${meaning}`),
    '',
    'Once started: GET / lists every page and contract; GET /healthz; /docs; /_sim/console.',
    '',
  ].join('\n');
}

export function loadConfig(argv: string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): SimulatorConfig {
  const values = parseCommandLine(argv);
  const contract = values.contract ?? env.SIM_CONTRACT ?? 'v1.3.0';
  if (contract !== 'all' && !(SERVABLE_VERSIONS as readonly string[]).includes(contract)) {
    throw new ConfigError(`--contract must be one of ${SERVABLE_VERSIONS.join(', ')} or all`);
  }
  const port = Number(values.port ?? env.PORT ?? 4010);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`port must be a number from 0 to 65535, not ${values.port ?? env.PORT}`);
  const storeSetting = env.SIM_STORE?.trim() || null;
  // SIM_STORE=local[:DIR]: a PostgreSQL server the sandbox runs itself (site/local-postgres.ts).
  const local = storeSetting === null ? null : /^local(?::(.+))?$/.exec(storeSetting);
  const localStoreDir = local ? local[1]?.trim() || '.sim-data/postgres' : null;
  // SIM_STORE=journal[:FILE]: the journal store (kernel/store/store.ts), the embedded store of earlier versions.
  const journal = storeSetting === null ? null : /^journal(?::(.+))?$/.exec(storeSetting);
  const storeUrl = local || journal ? null : storeSetting;
  if (storeUrl !== null && !/^postgres(ql)?:\/\//i.test(storeUrl)) {
    throw new ConfigError('SIM_STORE must be a PostgreSQL URL (postgres://user@host:port/database), local[:DIR] for a server the sandbox runs itself, or journal[:FILE] for the journal store of earlier versions');
  }
  if (storeSetting !== null && (values.db ?? env.SIM_DB)) throw new ConfigError('SIM_STORE and SIM_DB (--db) name two stores: set one');
  const dbPath = journal ? journal[1]?.trim() || DEFAULT_JOURNAL_PATH : storeSetting ? null : values.db ?? env.SIM_DB ?? DEFAULT_DB_PATH;
  return {
    port,
    host: values.host ?? env.HOST ?? '127.0.0.1',
    contract,
    defaultVersion: contract === 'all' ? env.SIM_DEFAULT_CONTRACT ?? 'v1.3.0' : contract,
    dbPath,
    storeUrl,
    embeddedStore: journal ? 'journal' : 'lmdb',
    localStoreDir,
    instanceId: env.SIM_INSTANCE_ID?.trim() || `${os.hostname()}-${process.pid}`,
    // A cluster's instances must share one artifacts directory (uploads, claim packets): SIM_ARTIFACTS.
    artifactsDir: env.SIM_ARTIFACTS ?? (dbPath ? `${dbPath}.artifacts` : localStoreDir ? path.join(localStoreDir, 'artifacts') : '.sim-data/shared.artifacts'),
    adminToken: env.SIM_ADMIN_TOKEN ?? null,
    integrationKey: env.SIM_INTEGRATION_KEY ?? null,
    jwtSecret: env.SIM_JWT_SECRET ?? null,
    allowApiKeyFallback: bool(env.ALLOW_API_KEY_FALLBACK),
    webhookAllowTargets: (env.SIM_WEBHOOK_ALLOW_TARGETS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    jobStartDelayMs: Number(env.SIM_JOB_START_DELAY_MS ?? 250),
    jobProcessingMs: Number(env.SIM_JOB_PROCESSING_MS ?? 1500),
    idempotencyTtlMs: Number(env.SIM_IDEMPOTENCY_TTL_SECONDS ?? 86_400) * 1000,
    maxFileBytes: 50 * 1024 * 1024,
    compactAfterBytes: Number(env.SIM_COMPACT_AFTER_BYTES ?? 64 * 1024 * 1024),
    requestTimeoutMs: Number(env.SIM_REQUEST_TIMEOUT_MS ?? DEFAULT_SERVER_TIMEOUTS.requestTimeoutMs),
    headersTimeoutMs: Number(env.SIM_HEADERS_TIMEOUT_MS ?? DEFAULT_SERVER_TIMEOUTS.headersTimeoutMs),
    strict: values['no-strict'] ? false : values.strict ?? bool(env.SIM_STRICT),
    logLevel: env.LOG_LEVEL ?? 'info',
    defects: (env.SIM_DEFECTS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    help: values.help ?? false,
    newKey: values['new-key'] ?? false,
    allowFaultHeader: bool(env.SIM_ALLOW_FAULT_HEADER),
    requestLogSize: Number(env.SIM_REQUEST_LOG_SIZE ?? 2000),
    crashAt: crashPointOf(env.SIM_CRASH_AT),
  };
}

/** SIM_CRASH_AT as given, once it reads as a crash point (domains/jobs/crash-point.ts); null when unset. */
function crashPointOf(value: string | undefined): string | null {
  try {
    return parseCrashPoint(value) ? value!.trim() : null;
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/** A configuration for tests: in memory, quiet, fast jobs. */
export function testConfig(overrides: Partial<SimulatorConfig> = {}): SimulatorConfig {
  return {
    ...loadConfig([], {}),
    dbPath: null,
    localStoreDir: null,
    artifactsDir: '',
    adminToken: 'test-admin-token',
    logLevel: 'silent',
    jobStartDelayMs: 10,
    jobProcessingMs: 20,
    ...overrides,
  };
}
