// Helpers shared by the reporters: grouping results by area, durations, the overall verdict, and the
// redaction and truncation applied to every request and response a report shows.
import type { CoverageReport } from '../checks/operations/coverage.js';
import { shardLabel, type Shard, type SuiteIdentity } from '../harness/shard.js';
import { totalsOf, type CheckResult, type Exchange, type RunReport, type Totals } from '../harness/types.js';

/** What the CLI knows about a run beyond the RunReport itself. */
export interface RunContext {
  /** The `--only` selection, when the run was partial. */
  only?: string[];
  /** How many checks the suite has in total (to say "12 of 87 selected"). */
  suiteSize?: number;
  /** The input coverage of the operation checks (reporters/coverage.ts), when they ran. */
  coverage?: CoverageReport;
  /** The suite that ran (what a merge compares across shards). */
  suite?: SuiteIdentity;
  /** A sharded run (`--shard K/N`): which shard, and the ids of the whole selection across shards, in order. */
  shard?: Shard & { selection: string[] };
  /** A report merged from the JSON reports of this many shards (`--merge`). */
  merged?: { shards: number };
}

/** The command that replays the run this report covers: the selection, and the shard of a sharded run. */
export function runReplay(report: RunReport, context: RunContext): string {
  const only = context.only?.length ? ` --only ${context.only.join(',')}` : '';
  const shard = context.shard ? ` --shard ${shardLabel(context.shard)}` : '';
  return `${report.replay}${only}${shard}`;
}

/** The line that says which part of the selection a report covers, for a shard or a merged report. */
export function shardLine(report: RunReport, context: RunContext): string | undefined {
  if (context.shard) return `shard ${shardLabel(context.shard)}: ${report.results.length} of the ${context.shard.selection.length} selected checks`;
  if (context.merged) return `merged from ${context.merged.shards} shard${context.merged.shards === 1 ? '' : 's'}: ${report.results.length} checks`;
  return undefined;
}

export interface AreaGroup {
  area: string;
  results: CheckResult[];
  totals: Totals;
  durationMs: number;
}

/** Results grouped by area, areas in the order their first check ran, checks in run order. */
export function groupByArea(results: CheckResult[]): AreaGroup[] {
  const groups = new Map<string, AreaGroup>();
  for (const result of results) {
    let group = groups.get(result.area);
    if (!group) {
      group = { area: result.area, results: [], totals: totalsOf([]), durationMs: 0 };
      groups.set(result.area, group);
    }
    group.results.push(result);
    group.durationMs += result.durationMs;
  }
  for (const group of groups.values()) group.totals = totalsOf(group.results);
  return [...groups.values()];
}

/** CERTIFIED only when nothing failed, at least one check passed, and every selected check ran: a run ended
 *  by --max-duration certifies nothing, whatever the checks it ran said. */
export function certified(report: RunReport): boolean {
  return report.totals.failed === 0 && report.totals.passed > 0 && !report.totals.notRun && !report.results.some((result) => result.verdict === 'not run');
}

export function totalsLine(totals: RunReport['totals']): string {
  return `${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped${totals.notRun ? `, ${totals.notRun} not run` : ''}`;
}

export function runDurationMs(report: RunReport): number {
  const ms = Date.parse(report.finishedAt) - Date.parse(report.startedAt);
  return Number.isFinite(ms) && ms >= 0 ? ms : report.results.reduce((sum, r) => sum + r.durationMs, 0);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} min ${seconds} s`;
}

/** Keys whose values are secrets wherever they appear in a body: shown as their first characters only. */
const SECRET_KEYS = new Set(['access_token', 'refresh_token', 'id_token', 'integrationkey', 'integration_key', 'apikey', 'api_key', 'webhooksecret', 'secret', 'password', 'client_secret']);
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'cookie', 'set-cookie', 'proxy-authorization']);

function mask(value: string): string {
  return value.length <= 8 ? '…' : `${value.slice(0, 8)}…`;
}

function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_HEADERS.has(name.toLowerCase()) || value.endsWith('…')) out[name] = value;
    else if (/^bearer\s+/i.test(value)) out[name] = value.replace(/^(bearer\s+)(.*)$/i, (_, scheme: string, token: string) => scheme + mask(token));
    else out[name] = mask(value);
  }
  return out;
}

function redactBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactBody);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, typeof inner === 'string' && SECRET_KEYS.has(key.toLowerCase()) ? mask(inner) : redactBody(inner)]));
  }
  return value;
}

/** Secrets in raw text (a JSON body kept as text, a form description). */
function redactText(text: string): string {
  return text
    .replace(/("(?:access_token|refresh_token|id_token|integrationKey|integration_key|apiKey|api_key|webhookSecret|secret|password|client_secret)"\s*:\s*")([^"\\]*)(")/gi, (_, open: string, value: string, close: string) => open + mask(value) + close)
    .replace(/((?:^|&)(?:webhookSecret|secret|password)=)([^&]*)/gi, (_, open: string, value: string) => open + mask(value));
}

/** The exchange with secrets masked (headers, bodies and raw text), and the operation reduced to its name. */
export function redactExchange(exchange: Exchange): RedactedExchange {
  return {
    request: {
      method: exchange.request.method,
      url: exchange.request.url,
      headers: redactHeaders(exchange.request.headers),
      ...(exchange.request.body !== undefined ? { body: redactText(exchange.request.body) } : {}),
    },
    response: {
      status: exchange.response.status,
      headers: redactHeaders(exchange.response.headers),
      body: redactBody(exchange.response.body),
      text: redactText(exchange.response.text),
    },
    ...(exchange.operation ? { operation: { operationId: exchange.operation.operationId, method: exchange.operation.method, path: exchange.operation.path } } : {}),
    durationMs: Math.round(exchange.durationMs),
  };
}

export interface RedactedExchange {
  request: Exchange['request'];
  response: Exchange['response'];
  operation?: { operationId: string; method: string; path: string };
  durationMs: number;
}

/** A body for display: JSON pretty-printed (from the parsed body, or parsed from text), else the text. */
export function displayBody(body: unknown, text?: string): string {
  if (body !== undefined && body !== null && typeof body === 'object') return JSON.stringify(body, null, 2);
  const raw = typeof body === 'string' ? body : text ?? (body === undefined ? '' : JSON.stringify(body));
  const trimmed = raw.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.stringify(redactBody(JSON.parse(trimmed)), null, 2);
    } catch {
      // not JSON after all: shown as text
    }
  }
  return raw;
}

/** Cuts long text at a line boundary near `max` characters and says how much was left out. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n', max);
  const end = cut > max * 0.6 ? cut : max;
  return `${text.slice(0, end)}\n… (${text.length - end} more characters)`;
}

/** One line: whitespace collapsed, cut at `max`. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Drops characters XML 1.0 does not allow (control characters, lone surrogates). */
export function xmlSafe(text: string): string {
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
