// The conformance suite's command line: `npm run conform -- --base-url URL --api-key KEY [options]`.
// Runs the selected checks against one deployment, shows progress and a summary on the console, and writes
// the JUnit, JSON and HTML reports. `--shard K/N` runs one shard of the selection (harness/shard.ts), and
// `--merge` merges the shards' JSON reports into the reports of the whole run (reporters/merge.ts).
// Exit codes: 0 nothing failed (skipped is not failure), 1 at least one check failed or a --max-duration
// left checks not run, 2 usage error (and a
// refused merge), 3 the suite itself could not run (the target unreachable, reports unwritable).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CONTRACT_VERSIONS } from '../contracts/lib/bundle.js';
import { isEntryModule } from '../contracts/lib/entry.js';
import { checksFor } from './checks/index.js';
import type { Check } from './harness/check.js';
import { loadTargetContract } from './harness/contract.js';
import { runSuite, selectChecks } from './harness/runner.js';
import { checksOfShard, parseShard, shardLabel, suiteIdentity, type Shard } from './harness/shard.js';
import { PROFILES, type Profile, type RateLimits, type RunReport, type TargetOptions } from './harness/types.js';
import { expectedToRun, parseDuration, parseRateLimits, planRun } from './harness/budget.js';
import { renderRunPlan } from './reporters/plan.js';
import { createConsoleReporter, renderConsoleSummary, type ConsoleStream } from './reporters/console.js';
import type { RunContext } from './reporters/format.js';
import { renderHtml } from './reporters/html.js';
import { coverageOfRun } from './checks/operations/coverage.js';
import { COVERAGE_FILE, renderCoverageJson } from './reporters/coverage.js';
import { specRulesOfRun } from './reporters/spec-rules.js';
import { renderJson } from './reporters/json.js';
import { renderJUnit } from './reporters/junit.js';
import { MergeRefused, mergeShardReports, readShardReport, type ShardReport } from './reporters/merge.js';

export const EXIT = { ok: 0, failed: 1, usage: 2, error: 3 } as const;

export const REPORT_FORMATS = ['junit', 'json', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const REPORT_FILES: Record<ReportFormat, string> = { junit: 'junit.xml', json: 'report.json', html: 'report.html' };

export interface CliIo {
  stdout?: ConsoleStream;
  stderr?: ConsoleStream;
  /** The suite to select from (default: every check of the suite for the chosen contract version). */
  checks?: Check[];
  /** The clock used for the default report directory. */
  now?: () => Date;
}

export interface CliSettings {
  target: TargetOptions;
  reportDir: string;
  formats: ReportFormat[];
  quiet: boolean;
  list: boolean;
  seedWasRandom: boolean;
  /** `--shard K/N`: run only this shard of the selection. */
  shard?: Shard;
}

/** `--merge PATH...`: the shards' reports to merge, and where the merged reports go. */
export interface MergeSettings {
  inputs: string[];
  reportDir: string;
  formats: ReportFormat[];
  quiet: boolean;
}

export const USAGE = `Usage: npm run conform -- --base-url URL --api-key KEY [options]
       tfas-conform --base-url URL --api-key KEY [options]
       npm run conform -- --merge REPORT_DIR_OR_FILE... [--report-dir OUT] [--format LIST] [--quiet]

Certifies a deployment of the Trade Compliance and Freight Audit Service public interface against its
OpenAPI contract and writes JUnit, JSON and HTML reports.

Pass secrets (keys, tokens) through their variables, not flags: npm run echoes its command line.
  e.g.  CONFORM_API_KEY=... npm run conform -- --base-url https://staging.example.com

Options (each also read from the environment variable in brackets; a flag wins over the variable):
  --base-url URL          the deployment's base address, e.g. https://staging.example.com  [CONFORM_BASE_URL]
  --api-key KEY           an integration key of the tenant under test                      [CONFORM_API_KEY]
  --contract VERSION      v1.3.0 (default), v1.2.0 or v1.1.0                                [CONFORM_CONTRACT]
  --profile PROFILE       readonly | sandbox (default) | simulator                          [CONFORM_PROFILE]
                            readonly: token exchange and GETs only (safe on production)
                            sandbox: full workflows with writes (staging)
                            simulator: adds checks that use the sandbox control API (/_sim); allows its
                            webhook receiver there, deletes the tenants it creates, moves only its
                            own tenants' clocks
  --seed N                seed of every generated input (default: random, printed)          [CONFORM_SEED]
  --runs N                property runs: generated cases per property (default 100)         [CONFORM_RUNS]
  --report-dir DIR        where reports go (default reports/conformance-<timestamp>)        [CONFORM_REPORT_DIR]
  --second-api-key KEY    an integration key of a second tenant (isolation checks)          [CONFORM_SECOND_API_KEY]
  --admin-token TOKEN     the simulator's control-API token (profile simulator)             [CONFORM_ADMIN_TOKEN]
  --webhook-url URL       a public URL that forwards to the built-in webhook receiver       [CONFORM_WEBHOOK_URL]
                            (the receiver listens on CONFORM_WEBHOOK_PORT, default a free port)
  --only IDS              comma-separated check ids or id prefixes (auth, auth.token-exchange)
  --shard K/N             run shard K of N of the selected checks (CI runners, one shard each); a check's
                            shard is a hash of its id, so it is the same in every run with N shards
  --format LIST           reports to write: comma-separated junit,json,html (default all), or none
  --timeout-ms N          per-request timeout in milliseconds (default 30000)               [CONFORM_TIMEOUT_MS]
  --rate-limits LIST      the target's rate limits per bucket, e.g. read=240,write=120,upload=30 (per minute;
                            read=240/90s for another window): the run is paced under them from the first
                            request and planned with them. Default: learned from the server's 429s  [CONFORM_RATE_LIMITS]
  --max-duration TIME     e.g. 10m, 90s, 1h30m: no check starts after that long; the checks left are
                            reported "not run" and the run is never CERTIFIED                 [CONFORM_MAX_DURATION]
  --quiet                 no plan, no progress, no areas: failures by cause, totals, seed and replay only
  --list                  list the selected checks and what they need, run nothing
  -h, --help              this text

Merging the shards (--merge): the report.json files of every shard of one run (or their report directories;
coverage.json is read beside each) become the JUnit, JSON and HTML reports of the whole run in --report-dir.
Refused (exit 2) for reports of different targets, options, contract or suite versions or shard counts, a
shard missing or given twice, or a check reported twice. Exit 1 if a check failed, as a run.

Exit codes: 0 no check failed (skipped checks are not failures), 1 at least one check failed or
            --max-duration left checks not run,
            2 usage error or a refused merge, 3 the suite could not run (target unreachable, reports not writable).
`;

class UsageError extends Error {}

const PARSE_OPTIONS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  contract: { type: 'string' },
  profile: { type: 'string' },
  seed: { type: 'string' },
  runs: { type: 'string' },
  'report-dir': { type: 'string' },
  'second-api-key': { type: 'string' },
  'admin-token': { type: 'string' },
  'webhook-url': { type: 'string' },
  only: { type: 'string' },
  format: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'rate-limits': { type: 'string' },
  'max-duration': { type: 'string' },
  quiet: { type: 'boolean' },
  list: { type: 'boolean' },
  shard: { type: 'string' },
  merge: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type ParsedValues = Partial<Record<keyof typeof PARSE_OPTIONS, string | boolean>>;

function parseArgv(argv: string[]): { values: ParsedValues; positionals: string[] } {
  try {
    // Positionals are the report paths of --merge; a run refuses them.
    return parseArgs({ args: argv, options: PARSE_OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function integer(name: string, text: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(text.trim())) throw new UsageError(`${name} must be an integer, got "${text}"`);
  const value = Number(text);
  if (value < min || value > max) throw new UsageError(`${name} must be between ${min} and ${max}, got ${text}`);
  return value;
}

function httpUrl(name: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${name} is not a URL: "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${name} must be an http or https URL, got "${text}"`);
  return text.replace(/\/+$/, '');
}

const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function timestamp(date: Date): string {
  return date.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
}

/** Flags, then environment variables, then defaults; throws UsageError with a clear message. */
export function parseCli(argv: string[], env: Record<string, string | undefined>, now: () => Date = () => new Date()): CliSettings | 'help' {
  const { values, positionals } = parseArgv(argv);
  if (values.help) return 'help';
  if (values.merge) throw new UsageError('--merge merges reports and runs nothing: give it the report paths, --report-dir, --format and --quiet only');
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}": a run takes no positional arguments (only --merge takes report paths)`);
  const pick = (flag: keyof typeof PARSE_OPTIONS, variable?: string): string | undefined => {
    const value = (values[flag] as string | undefined) ?? (variable ? env[variable] : undefined);
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };

  const listOnly = Boolean(values.list);
  const baseUrlText = pick('base-url', 'CONFORM_BASE_URL');
  const apiKey = pick('api-key', 'CONFORM_API_KEY');
  if (!listOnly && !baseUrlText) throw new UsageError('--base-url is required (or CONFORM_BASE_URL)');
  if (!listOnly && !apiKey) throw new UsageError('--api-key is required (or CONFORM_API_KEY)');
  const baseUrl = baseUrlText ? httpUrl('--base-url', baseUrlText) : '';

  const contract = pick('contract', 'CONFORM_CONTRACT') ?? 'v1.3.0';
  if (!(CONTRACT_VERSIONS as readonly string[]).includes(contract)) throw new UsageError(`--contract must be one of ${CONTRACT_VERSIONS.join(', ')}, got "${contract}"`);
  const profile = (pick('profile', 'CONFORM_PROFILE') ?? 'sandbox') as Profile;
  if (!PROFILES.includes(profile)) throw new UsageError(`--profile must be one of ${PROFILES.join(', ')}, got "${profile}"`);

  const seedText = pick('seed', 'CONFORM_SEED');
  // fast-check seeds are 32-bit integers.
  const seed = seedText !== undefined ? integer('--seed', seedText, -(2 ** 31), 2 ** 31 - 1) : Math.floor(Math.random() * 2 ** 31);
  const runsText = pick('runs', 'CONFORM_RUNS');
  const runs = runsText !== undefined ? integer('--runs', runsText, 1, 1_000_000) : 100;
  const timeoutText = pick('timeout-ms', 'CONFORM_TIMEOUT_MS');
  const timeoutMs = timeoutText !== undefined ? integer('--timeout-ms', timeoutText, 1, 3_600_000) : undefined;

  const rateLimitsText = pick('rate-limits', 'CONFORM_RATE_LIMITS');
  const maxDurationText = pick('max-duration', 'CONFORM_MAX_DURATION');
  let rateLimits: RateLimits | undefined;
  let maxDurationMs: number | undefined;
  try {
    rateLimits = rateLimitsText !== undefined ? parseRateLimits(rateLimitsText) : undefined;
    maxDurationMs = maxDurationText !== undefined ? parseDuration(maxDurationText) : undefined;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }

  const webhookText = pick('webhook-url', 'CONFORM_WEBHOOK_URL');
  const webhookUrl = webhookText ? httpUrl('--webhook-url', webhookText) : undefined;

  const onlyText = pick('only');
  const only = onlyText !== undefined ? list(onlyText) : undefined;
  if (onlyText !== undefined && !only!.length) throw new UsageError('--only needs at least one check id or prefix');

  const shardText = pick('shard');
  let shard: Shard | undefined;
  try {
    shard = shardText !== undefined ? parseShard(shardText) : undefined;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }

  const formats = parseFormats(pick('format'));
  const reportDir = reportDirOf(pick('report-dir', 'CONFORM_REPORT_DIR'), now);

  return {
    target: {
      baseUrl,
      apiKey: apiKey ?? '',
      contract,
      profile,
      seed,
      runs,
      secondApiKey: pick('second-api-key', 'CONFORM_SECOND_API_KEY'),
      adminToken: pick('admin-token', 'CONFORM_ADMIN_TOKEN'),
      webhookUrl,
      only,
      timeoutMs,
      ...(rateLimits ? { rateLimits } : {}),
      ...(maxDurationMs !== undefined ? { maxDurationMs } : {}),
    },
    reportDir,
    formats,
    quiet: Boolean(values.quiet),
    list: listOnly,
    seedWasRandom: seedText === undefined,
    ...(shard ? { shard } : {}),
  };
}

/** --report-dir (or CONFORM_REPORT_DIR), else a new directory under reports/ named by the time. */
const reportDirOf = (text: string | undefined, now: () => Date): string => path.resolve(text ?? path.join('reports', `conformance-${timestamp(now())}`));

function parseFormats(text: string | undefined): ReportFormat[] {
  const formatText = text ?? REPORT_FORMATS.join(',');
  const formatItems = list(formatText);
  if (formatItems.length === 1 && formatItems[0] === 'none') return [];
  const unknown = formatItems.filter((item) => !(REPORT_FORMATS as readonly string[]).includes(item));
  if (unknown.length || !formatItems.length) throw new UsageError(`--format takes a comma-separated list of ${REPORT_FORMATS.join(', ')} (or none), got "${formatText}"`);
  return REPORT_FORMATS.filter((format) => formatItems.includes(format));
}

/** The options of `--merge`: report paths, then --report-dir (or CONFORM_REPORT_DIR), --format and --quiet. */
export function parseMergeCli(argv: string[], env: Record<string, string | undefined>, now: () => Date = () => new Date()): MergeSettings | 'help' {
  const { values, positionals } = parseArgv(argv);
  if (values.help) return 'help';
  const runOnly = Object.keys(values).filter((name) => !['merge', 'report-dir', 'format', 'quiet'].includes(name));
  if (runOnly.length) throw new UsageError(`--merge takes report paths, --report-dir, --format and --quiet; --${runOnly[0]} belongs to a run`);
  if (!positionals.length) throw new UsageError('--merge needs the report of every shard: their report.json files or report directories');
  const reportDirText = (values['report-dir'] as string | undefined) ?? env.CONFORM_REPORT_DIR;
  return {
    inputs: positionals.map((input) => path.resolve(input)),
    reportDir: reportDirOf(reportDirText?.trim() || undefined, now),
    formats: parseFormats((values.format as string | undefined)?.trim() || undefined),
    quiet: Boolean(values.quiet),
  };
}

/** Writes the chosen reports into `dir`; returns their paths. */
export function writeReports(report: RunReport, dir: string, formats: ReportFormat[], context: RunContext = {}): string[] {
  if (!formats.length) return [];
  mkdirSync(dir, { recursive: true });
  const render: Record<ReportFormat, () => string> = {
    junit: () => renderJUnit(report, context),
    json: () => renderJson(report, context),
    // The HTML report links its capped failures to report.json when that is written beside it.
    html: () => renderHtml(report, { ...context, jsonFile: formats.includes('json') ? REPORT_FILES.json : undefined }),
  };
  const files = formats.map((format) => {
    const file = path.join(dir, REPORT_FILES[format]);
    writeFileSync(file, render[format]());
    return file;
  });
  // The input coverage (issue 14, when the operation checks ran) and the spec rules held (issue 27) go beside
  // report.json.
  if (formats.includes('json')) {
    const file = path.join(dir, COVERAGE_FILE);
    writeFileSync(file, renderCoverageJson(context.coverage, specRulesOfRun(report)));
    files.push(file);
  }
  return files;
}

/** The parsed command line, or the exit code once a usage error or --help has been printed. */
function settingsOrExit<T extends object>(parse: () => T | 'help', stdout: ConsoleStream, stderr: ConsoleStream): T | number {
  let settings: T | 'help';
  try {
    settings = parse();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr.write(`conform: ${error.message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  if (settings === 'help') {
    stdout.write(USAGE);
    return EXIT.ok;
  }
  return settings;
}

export async function main(argv: string[], env: Record<string, string | undefined> = process.env, io: CliIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  if (argv.includes('--merge')) return merge(argv, env, io);

  const settings = settingsOrExit(() => parseCli(argv, env, io.now), stdout, stderr);
  if (typeof settings === 'number') return settings;
  const { target, quiet, shard } = settings;
  const checks = io.checks ?? checksFor(loadTargetContract(target.contract));
  const selected = selectChecks(checks, target.only);
  if (target.only && !selected.length) {
    stderr.write(`conform: --only ${target.only.join(',')} matches no check (ids look like ${checks.slice(0, 3).map((c) => c.id).join(', ')})\n`);
    return EXIT.usage;
  }
  // A shard may hold no check of a small selection: it then runs nothing and still writes its report, so
  // that the merge finds every shard.
  const toRun = shard ? checksOfShard(selected, shard) : selected;
  const counted = shard ? `shard ${shardLabel(shard)}, ${toRun.length} of ${selected.length} selected checks (${checks.length} in the suite)` : `${selected.length} of ${checks.length} checks`;

  if (settings.list) {
    const width = Math.max(0, ...toRun.map((check) => check.id.length));
    for (const check of toRun) stdout.write(`${check.id.padEnd(width)}  ${check.area.padEnd(12)}  ${(check.needs.join(',') || '-').padEnd(28)}  ${check.title}\n`);
    stdout.write(`${counted}\n`);
    return EXIT.ok;
  }

  if (!quiet) {
    stdout.write(
      `Conformance of ${target.baseUrl} to contract ${target.contract}: ${counted}, profile ${target.profile}, ` +
        `seed ${target.seed}${settings.seedWasRandom ? ' (random)' : ''}, runs ${target.runs}\n`,
    );
    if (target.profile === 'simulator' && !target.adminToken) stdout.write('note: no --admin-token; checks that need the sandbox control API will be skipped\n');
  }
  const plan = planRun(
    toRun.filter((check) => expectedToRun(check.needs, target)).map((check) => check.id),
    target.runs,
    target.rateLimits,
    undefined,
    target.secondApiKey && target.profile !== 'simulator' ? 2 : 1,
  );
  if (!quiet) stdout.write(renderRunPlan(plan, target.maxDurationMs));

  const unreachable = await reachability(target.baseUrl, Math.min(target.timeoutMs ?? 30_000, 15_000));
  if (unreachable) {
    stderr.write(`conform: cannot reach ${target.baseUrl}: ${unreachable}\n`);
    return EXIT.error;
  }

  const color = Boolean(stdout.isTTY) && !env.NO_COLOR;
  const reporter = createConsoleReporter({ stream: stdout, quiet, color, plan });
  let report: RunReport;
  try {
    report = await runSuite(target, toRun, reporter);
  } catch (error) {
    reporter.close();
    stderr.write(`\nconform: the suite could not run: ${(error as Error).stack ?? error}\nseed ${target.seed}\n`);
    return EXIT.error;
  }

  const context: RunContext = {
    only: target.only,
    suiteSize: checks.length,
    coverage: coverageOfRun(target),
    suite: suiteIdentity(checks),
    ...(shard ? { shard: { ...shard, selection: selected.map((check) => check.id) } } : {}),
  };
  let reportFiles: string[];
  try {
    reportFiles = writeReports(report, settings.reportDir, settings.formats, context);
  } catch (error) {
    reporter.finish(report, context);
    stderr.write(`conform: could not write the reports to ${settings.reportDir}: ${(error as Error).message}\n`);
    return EXIT.error;
  }
  reporter.finish(report, { ...context, reportFiles: reportFiles.map(displayPath) });
  return report.totals.failed || report.totals.notRun ? EXIT.failed : EXIT.ok;
}

/** `--merge`: the shards' reports read, checked and merged, and the merged reports written as a run's. */
async function merge(argv: string[], env: Record<string, string | undefined>, io: CliIo): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const settings = settingsOrExit(() => parseMergeCli(argv, env, io.now), stdout, stderr);
  if (typeof settings === 'number') return settings;
  let shards: ShardReport[];
  let merged: ReturnType<typeof mergeShardReports>;
  try {
    shards = settings.inputs.map(readShardReport);
    merged = mergeShardReports(shards);
  } catch (error) {
    if (!(error instanceof MergeRefused)) throw error;
    stderr.write(`conform: cannot merge: ${error.message}\n`);
    return EXIT.usage;
  }
  // The merged report.json (and the rest) must not overwrite a shard's own reports.
  const overwritten = settings.formats.length ? shards.find((shard) => path.dirname(shard.file) === settings.reportDir) : undefined;
  if (overwritten) {
    stderr.write(`conform: cannot merge into ${settings.reportDir}: it holds ${overwritten.file}, which the merged reports would overwrite; choose another --report-dir\n`);
    return EXIT.usage;
  }
  const { report, context } = merged;
  let reportFiles: string[];
  try {
    reportFiles = writeReports(report, settings.reportDir, settings.formats, context);
  } catch (error) {
    stderr.write(`conform: could not write the reports to ${settings.reportDir}: ${(error as Error).message}\n`);
    return EXIT.error;
  }
  const color = Boolean(stdout.isTTY) && !env.NO_COLOR;
  stdout.write(renderConsoleSummary(report, { ...context, color, quiet: settings.quiet, reportFiles: reportFiles.map(displayPath) }));
  return report.totals.failed || report.totals.notRun ? EXIT.failed : EXIT.ok;
}

/** One request to the base URL before the run, so that an unreachable target is one clear error rather than
 *  a `check-error` per check. Any HTTP answer will do; only a network failure counts. */
async function reachability(baseUrl: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const response = await fetch(`${baseUrl}/`, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return undefined;
  } catch (error) {
    const cause = (error as Error & { cause?: Error & { code?: string } }).cause;
    if ((error as Error).name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
    return cause ? `${cause.code ?? cause.name}: ${cause.message}` : (error as Error).message;
  }
}

function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

if (isEntryModule(import.meta.url)) {
  main(process.argv.slice(2), process.env).then(
    (code) => {
      process.exitCode = code;
      // Idle keep-alive sockets or a webhook receiver must not hold the process open once the run is over.
      setTimeout(() => process.exit(code), 2000).unref();
    },
    (error) => {
      process.stderr.write(`conform: ${(error as Error).stack ?? error}\n`);
      process.exit(EXIT.error);
    },
  );
}
