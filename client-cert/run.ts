// One certification: for each scenario (at once, each on a fresh tenant), start the integrator's command
// with SANDBOX_URL and SANDBOX_API_KEY, let the scenario act while it works, then gather the sandbox's
// evidence and judge it with every rule. Each scenario's run is recorded on the sandbox for its console
// (check-record.ts): registered before the client starts, completed with the verdict and the HTML report.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { checkRecorder, type CheckRecorder } from './check-record.js';
import { renderClientHtml } from './reporters/html.js';
import { CLIENT_RULES } from './rules/index.js';
import { sandboxControl, type SandboxControl } from './sandbox.js';
import { scenariosFor, type Scenario } from './scenarios.js';
import type { Certificate, ClientRule, Evidence, InjectedAction, RuleResult } from './types.js';

export interface CertifyOptions {
  baseUrl: string;
  adminToken: string;
  scenario: string;
  command: string[];
  /** Also give the client SANDBOX_WEBHOOK_SECRET (a fresh random secret per run). */
  webhookSecret?: boolean;
  /** Hosts the sandbox may deliver webhooks to despite its SSRF rules (local receivers). */
  webhookHosts?: string[];
  /** The client's time limit per scenario (it is stopped after it). */
  timeoutMs?: number;
  /** Extra environment for the client. */
  env?: NodeJS.ProcessEnv;
  rules?: readonly ClientRule[];
  log?: (line: string) => void;
  /** Notes that matter even without progress lines (the sandbox does not record client checks); default `log`. */
  notice?: (line: string) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Time for the last requests and attempts to reach the logs after the client exits. */
const SETTLE_MS = 400;
const OUTPUT_TAIL = 4000;

export async function certify(options: CertifyOptions): Promise<Certificate> {
  const control = sandboxControl(options.baseUrl, options.adminToken);
  const log = options.log ?? (() => {});
  const startedAt = new Date().toISOString();
  const recorder = checkRecorder(control, { command: options.command, startedAt, say: options.notice ?? log });
  await control.allowWebhookTargets(options.webhookHosts ?? ['127.0.0.1']);
  const runs = await Promise.all(scenariosFor(options.scenario).map((scenario) => runScenario(control, recorder, scenario, options, log)));
  const certificate = judge(options, runs, startedAt, options.rules ?? CLIENT_RULES);
  await recorder.complete(certificate, renderClientHtml(certificate));
  return certificate;
}

async function runScenario(control: SandboxControl, recorder: CheckRecorder, scenario: Scenario, options: CertifyOptions, log: (line: string) => void): Promise<Evidence> {
  const { tenantId, integrationKey } = await control.createTenant(`client-cert ${scenario.name} ${new Date().toISOString()}`);
  await recorder.register(scenario.name, tenantId);
  const actions: InjectedAction[] = [];
  let offsetMs = 0;
  let done = false;
  const ctx = {
    control,
    tenantId,
    record(what: string, clockAdvanceSeconds = 0) {
      offsetMs += clockAdvanceSeconds * 1000;
      actions.push({ atMs: Date.now(), what, clockOffsetMs: offsetMs });
      log(`[${scenario.name}] ${what}`);
    },
    finished: () => done,
    sleep,
  };
  await scenario.setup(ctx);
  const startedAtMs = Date.now();
  log(`[${scenario.name}] tenant ${tenantId}: starting ${options.command.join(' ')}`);
  const child = spawn(options.command[0]!, options.command.slice(1), {
    env: {
      ...process.env,
      ...options.env,
      SANDBOX_URL: control.baseUrl,
      SANDBOX_API_KEY: integrationKey,
      CLIENT_CERT_SCENARIO: scenario.name,
      ...(options.webhookSecret ? { SANDBOX_WEBHOOK_SECRET: randomBytes(32).toString('hex') } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-OUTPUT_TAIL));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let timedOut = false;
  const exited = new Promise<number | null>((resolve) => {
    child.on('error', (error) => {
      output += `\n${error.message}`;
      resolve(null);
    });
    child.on('exit', (code) => resolve(code));
  });
  const timer = setTimeout(() => {
    timedOut = true;
    // The client and what it started: its process group.
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }, options.timeoutMs ?? 300_000);
  const driving = (scenario.drive?.(ctx) ?? Promise.resolve()).catch((error: unknown) => ctx.record(`scenario action failed: ${(error as Error).message}`));
  const exitCode = await exited;
  clearTimeout(timer);
  done = true;
  await driving;
  const endedAtMs = Date.now();
  log(`[${scenario.name}] client exited ${timedOut ? 'at the time limit' : exitCode}`);
  await sleep(SETTLE_MS);
  const [requests, deliveries] = await Promise.all([control.requests(tenantId), control.deliveries(tenantId)]);
  return { scenario: scenario.name, tenantId, requests, deliveries, actions, startedAtMs, endedAtMs, exitCode: timedOut ? null : exitCode, timedOut, outputTail: output };
}

/** Every rule over every run; a rule's verdict: failed in a run, else passed in one, else not exercised. */
export function judge(options: Pick<CertifyOptions, 'baseUrl' | 'command' | 'scenario'>, runs: Evidence[], startedAt: string, rules: readonly ClientRule[]): Certificate {
  const results: RuleResult[] = rules.map((rule) => {
    const outcomes = runs.map((run) => ({ scenario: run.scenario, ...rule.judge(run) }));
    const verdict = outcomes.some((o) => o.verdict === 'failed') ? 'failed' : outcomes.some((o) => o.verdict === 'passed') ? 'passed' : 'not exercised';
    return { id: rule.id, title: rule.title, spec: rule.spec, sentence: rule.sentence, level: rule.level, how: rule.how, verdict, runs: outcomes };
  });
  const failedRequired = results.filter((r) => r.verdict === 'failed' && r.level === 'required').length;
  const totals = {
    passed: results.filter((r) => r.verdict === 'passed').length,
    failed: failedRequired,
    warnings: results.filter((r) => r.verdict === 'failed' && r.level === 'recommended').length,
    notExercised: results.filter((r) => r.verdict === 'not exercised').length,
  };
  return {
    tool: 'tfas-certify-client',
    baseUrl: options.baseUrl,
    command: options.command,
    scenario: options.scenario,
    startedAt,
    finishedAt: new Date().toISOString(),
    certified: failedRequired === 0 && totals.passed > 0,
    totals,
    rules: results,
    runs,
  };
}
