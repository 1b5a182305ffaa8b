// Runs the selected checks against one target: sets up what the profile allows (clients, a second tenant,
// the control API, a webhook receiver), skips what a check needs but cannot have (with the reason), and
// collects verdicts. Checks run one after another (some move the virtual clock or change limits), except the
// second tenant's lane beside them when a vendor gives its key (see lanes in runSuite). With
// `maxDurationMs` (--max-duration) no check starts once that time has passed: the check running then
// finishes, the others are reported "not run", and such a run is never certified (reporters/format.ts).
import { AdminClient } from './admin.js';
import { formatRateLimits } from './budget.js';
import type { Check, CheckContext } from './check.js';
import { SkipCheck } from './check.js';
import { ConformanceClient, TokenCache } from './client.js';
import { Transport, virtualClock } from './transport.js';
import { contractForProfile, loadTargetContract } from './contract.js';
import { startReceiver, type Receiver } from './receiver.js';
import { startRequestMeter } from './request-meter.js';
import { RunScope, tenantOfToken } from './run-scope.js';
import { totalsOf, type CheckResult, type Failure, type Need, type Profile, type RunReport, type TargetOptions } from './types.js';

export interface RunHooks {
  onCheckStart?(check: Check, index: number, total: number): void;
  onCheckEnd?(result: CheckResult, index: number, total: number): void;
}

const PROFILE_RANK: Record<Profile, number> = { readonly: 0, sandbox: 1, simulator: 2 };

/** The secrets of a run and the environment variables the CLI reads them from (cli.ts parseCli). */
const SECRET_VARIABLES = [
  ['apiKey', 'CONFORM_API_KEY'],
  ['secondApiKey', 'CONFORM_SECOND_API_KEY'],
  ['adminToken', 'CONFORM_ADMIN_TOKEN'],
] as const satisfies ReadonlyArray<readonly [keyof TargetOptions, string]>;

/**
 * The command that runs the same checks with the same inputs again, as it can be pasted into a POSIX shell.
 * Secrets are never written out, and never passed as flags (`npm run` echoes its command line): each is handed
 * to the CLI through the variable it reads, from the shell variable of the same name (`CONFORM_API_KEY="$CONFORM_API_KEY"`),
 * so the command works whether that variable is exported or only set in the shell. `--only` may be appended.
 */
export function replayCommand(options: TargetOptions, only?: string[]): string {
  const secrets = SECRET_VARIABLES.filter(([option]) => options[option]).map(([, variable]) => `${variable}="$${variable}"`);
  const parts = [...secrets, 'npm run conform --', `--base-url ${options.baseUrl}`, `--contract ${options.contract}`, `--profile ${options.profile}`, `--seed ${options.seed}`, `--runs ${options.runs}`];
  if (options.webhookUrl) parts.push(`--webhook-url ${options.webhookUrl}`);
  if (options.rateLimits) parts.push(`--rate-limits ${formatRateLimits(options.rateLimits)}`);
  if (only?.length) parts.push(`--only ${only.join(',')}`);
  return parts.join(' ');
}

export function selectChecks(checks: Check[], only?: string[]): Check[] {
  if (!only?.length) return checks;
  return checks.filter((check) => only.some((prefix) => check.id === prefix || check.id.startsWith(prefix.endsWith('.') || prefix.endsWith(':') ? prefix : `${prefix}.`) || check.id.startsWith(`${prefix}:`)));
}

export async function runSuite(options: TargetOptions, checks: Check[], hooks: RunHooks = {}): Promise<RunReport> {
  const startedAt = new Date().toISOString();
  const contract = contractForProfile(loadTargetContract(options.contract), options.profile);
  const selected = selectChecks(checks, options.only);
  const noSink = () => {};
  const scope = options.profile === 'simulator' && options.adminToken ? await runScope(options, contract) : undefined;
  const admin = scope && options.adminToken ? new AdminClient(options.adminUrl ?? rootUrl(options.baseUrl), options.adminToken, noSink, scope) : undefined;
  // One transport for the run: every check and every tenant's client paces against the same windows; in
  // the simulator profile its waits move the run's virtual clock (the sandbox counts windows on it).
  const transport = new Transport(options.rateLimits, admin ? virtualClock((seconds) => admin.advanceClock(seconds)) : undefined);
  const tokens = new TokenCache(transport.clock);
  const client = new ConformanceClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, contract, sink: noSink, tokens, timeoutMs: options.timeoutMs, transport });
  let second: ConformanceClient | undefined = options.secondApiKey ? client.withApiKey(options.secondApiKey) : undefined;
  let receiver: Receiver | undefined;

  const unmet = async (need: Need): Promise<string | undefined> => {
    switch (need) {
      case 'writes':
        return PROFILE_RANK[options.profile] >= 1 ? undefined : `profile ${options.profile} sends no writes`;
      case 'admin':
        if (options.profile !== 'simulator') return `needs the simulator profile (profile is ${options.profile})`;
        return admin ? undefined : 'needs --admin-token for the sandbox control API';
      case 'secondTenant':
        if (second) return undefined;
        if (admin) {
          const created = await admin.createTenant({ name: 'Conformance second tenant' }, 'run');
          second = client.withApiKey(created.integrationKey);
          return undefined;
        }
        return 'needs --second-api-key (or the simulator profile with --admin-token)';
      case 'webhookReceiver':
        if (PROFILE_RANK[options.profile] < 1) return `profile ${options.profile} sends no writes`;
        if (receiver) return undefined;
        if (options.webhookUrl) receiver = await startReceiver({ publicUrl: options.webhookUrl, host: '0.0.0.0', port: Number(process.env.CONFORM_WEBHOOK_PORT ?? 0) || undefined });
        else if (options.profile === 'simulator') {
          receiver = await startReceiver();
          // The sandbox refuses loopback targets (spec 6 rule 4) unless allowed: the receiver is allowed for this run.
          if (admin && scope) await scope.allow(admin, new URL(receiver.url).host).catch((error: Error) => scope.problems.push(`the local webhook receiver could not be allowed: ${error.message}`));
        }
        else return 'needs --webhook-url: a public URL that forwards to the built-in receiver';
        return undefined;
    }
  };

  const results: CheckResult[] = [];
  const runStarted = performance.now();
  const meter = startRequestMeter(options.baseUrl);

  /** One check: its needs, its run with a context of its own, its verdict and the requests it sent. */
  const runCheck = async (check: Check, index: number, asSecond: boolean): Promise<void> => {
    const elapsed = performance.now() - runStarted;
    if (options.maxDurationMs !== undefined && elapsed >= options.maxDurationMs) {
      const reason = `not run: --max-duration ${formatLimit(options.maxDurationMs)} reached`;
      const result: CheckResult = { id: check.id, title: check.title, area: check.area, verdict: 'not run', reason, failures: [], durationMs: 0, requests: 0 };
      results[index] = result;
      hooks.onCheckEnd?.(result, index, selected.length);
      return;
    }
    hooks.onCheckStart?.(check, index, selected.length);
    const started = performance.now();
    const failures: Failure[] = [];
    const sink = (failure: Failure) => failures.push(failure);
    let reason: string | undefined;
    for (const need of check.needs) {
      reason = await unmet(need).catch((error: Error) => `could not set up ${need}: ${error.message}`);
      if (reason) break;
    }
    const counter = { count: 0 };
    const own = client.withSink(sink, counter);
    const other = second?.withSink(sink, counter);
    let requests = 0;
    const { counts } = await meter.track(async () => {
      if (reason) return;
      const context: CheckContext = {
        options,
        contract,
        // A check of the second-tenant lane is that tenant's, with no other (see lanes below).
        client: asSecond && other ? other.fallingBackTo(own) : own,
        second: asSecond ? undefined : other,
        admin: admin?.withSink(sink),
        receiver,
        seed: options.seed,
        runs: options.runs,
        fail: (rule, message, exchange, extra) => failures.push({ rule, message, exchange, ...extra }),
        expect(condition, rule, message, exchange, extra) {
          if (!condition) failures.push({ rule, message, exchange, ...extra });
          return condition;
        },
        skip(why) {
          throw new SkipCheck(why);
        },
      };
      try {
        await check.run(context);
      } catch (error) {
        if (error instanceof SkipCheck) reason = error.message;
        else failures.push({ rule: 'check-error', message: (error as Error).stack?.split('\n').slice(0, 3).join(' ') ?? String(error) });
      } finally {
        if (admin) await scope?.endCheck(admin);
      }
      requests = counter.count;
    });
    const result: CheckResult = {
      id: check.id,
      title: check.title,
      area: check.area,
      verdict: failures.length ? 'failed' : reason ? 'skipped' : 'passed',
      reason: failures.length ? undefined : reason,
      failures,
      durationMs: Math.round(performance.now() - started),
      requests,
      requestsByBucket: counts,
    };
    results[index] = result;
    hooks.onCheckEnd?.(result, index, selected.length);
  };

  // Lanes (issue 26: a run bound by the rate limits of two keys). Outside the simulator profile (whose checks
  // move clocks and settings for everyone), with a second tenant's key given, the checks of the
  // `second-tenant` lane (check.ts) run one after another as that tenant, beside the others, which run one
  // after another as before. Checks that use the second tenant themselves wait until its lane is done, so
  // what they read of it is only their own doing.
  const indexed = selected.map((check, index) => ({ check, index }));
  const lanes = options.profile !== 'simulator' && second !== undefined;
  const besideSecond = lanes ? indexed.filter(({ check }) => check.lane === 'second-tenant') : [];
  const main = indexed.filter((entry) => !besideSecond.includes(entry));
  const usesSecond = ({ check }: (typeof indexed)[number]) => check.needs.includes('secondTenant');
  const inTurn = async (entries: typeof indexed, asSecond = false) => {
    for (const { check, index } of entries) await runCheck(check, index, asSecond);
  };
  try {
    const secondLane = inTurn(besideSecond, true);
    await inTurn(main.filter((entry) => !besideSecond.length || !usesSecond(entry)));
    await secondLane;
    if (besideSecond.length) await inTurn(main.filter(usesSecond));
  } finally {
    meter.stop();
    if (admin) await scope?.endRun(admin);
    await receiver?.close();
  }
  const totals = totalsOf(results);
  return {
    target: { baseUrl: options.baseUrl, contract: options.contract, profile: options.profile, seed: options.seed, runs: options.runs },
    startedAt,
    finishedAt: new Date().toISOString(),
    results,
    totals,
    replay: replayCommand(options),
    ...(totals.notRun ? { stopped: { maxDurationMs: options.maxDurationMs!, notRun: totals.notRun } } : {}),
    ...(scope?.problems.length ? { notes: [...scope.problems] } : {}),
    traffic: { sent: { ...transport.figures.sent }, limited: { ...transport.figures.limited }, waitedMs: Math.round(transport.figures.waitedMs) },
  };
}

/**
 * The run scope of the simulator profile (run-scope.ts): the tenant of the key under test, read from the
 * `tenant_id` claim of a token exchanged for it (the sandbox's token format: the simulator profile may rely on
 * it) and confirmed through the control API. Unknown (a wrong key, another token format), the clock moves stay
 * sandbox-wide, as before.
 */
async function runScope(options: TargetOptions, contract: ReturnType<typeof loadTargetContract>): Promise<RunScope> {
  const noSink = () => {};
  const probe = new AdminClient(options.adminUrl ?? rootUrl(options.baseUrl), options.adminToken!, noSink);
  try {
    const token = await new ConformanceClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, contract, sink: noSink, timeoutMs: options.timeoutMs }).token();
    const tenantId = tenantOfToken(token);
    if (tenantId) await probe.sandboxClock(tenantId);
    return new RunScope(tenantId);
  } catch {
    return new RunScope(undefined);
  }
}

/** 600000 → "10m", 90000 → "90s": the --max-duration as it was likely given. */
function formatLimit(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** The control API lives at the server root, also when the base URL addresses a versioned prefix. */
function rootUrl(baseUrl: string): string {
  return baseUrl.replace(/\/versions\/v\d+\.\d+\.\d+\/?$/, '');
}

/** The command that replays one check with the run's seed. */
export const replayOf = (ctx: { options: Parameters<typeof replayCommand>[0] }, id: string) => replayCommand(ctx.options, [id]);
