// Simulator settings from the command line and the environment (command line wins).
import { parseArgs } from 'node:util';
import { DEFAULT_SERVER_TIMEOUTS } from './kernel/http/server.js';

export const SERVABLE_VERSIONS = ['v1.3.0', 'v1.2.0', 'v1.1.0'] as const;

export interface SimulatorConfig {
  port: number;
  host: string;
  /** Served contract version, or 'all' (every version under /versions/<v>/, the default one unprefixed). */
  contract: string;
  defaultVersion: string;
  /** Snapshot file of the store; `null` keeps everything in memory (tests). */
  dbPath: string | null;
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
}

const bool = (value: string | undefined) => value !== undefined && /^(1|true|yes|on)$/i.test(value);

export function loadConfig(argv: string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): SimulatorConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      contract: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      db: { type: 'string' },
      strict: { type: 'boolean' },
      'no-strict': { type: 'boolean' },
    },
    strict: true,
  });
  const contract = values.contract ?? env.SIM_CONTRACT ?? 'v1.3.0';
  if (contract !== 'all' && !(SERVABLE_VERSIONS as readonly string[]).includes(contract)) {
    throw new Error(`--contract must be one of ${SERVABLE_VERSIONS.join(', ')} or all`);
  }
  const dbPath = values.db ?? env.SIM_DB ?? '.sim-data/store.json';
  return {
    port: Number(values.port ?? env.PORT ?? 4010),
    host: values.host ?? env.HOST ?? '127.0.0.1',
    contract,
    defaultVersion: contract === 'all' ? env.SIM_DEFAULT_CONTRACT ?? 'v1.3.0' : contract,
    dbPath,
    artifactsDir: env.SIM_ARTIFACTS ?? `${dbPath}.artifacts`,
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
  };
}

/** A configuration for tests: in memory, quiet, fast jobs. */
export function testConfig(overrides: Partial<SimulatorConfig> = {}): SimulatorConfig {
  return {
    ...loadConfig([], {}),
    dbPath: null,
    artifactsDir: '',
    adminToken: 'test-admin-token',
    logLevel: 'silent',
    jobStartDelayMs: 10,
    jobProcessingMs: 20,
    ...overrides,
  };
}
