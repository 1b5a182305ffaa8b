// npm run certify:client -- --base-url URL [--scenario NAME] [--report-dir DIR] -- <command> [args...]
//
// Certifies an integrator's client (any program) against the spec's client rules: creates a fresh tenant
// per scenario on a running sandbox (control API, admin token), runs the command with SANDBOX_URL and
// SANDBOX_API_KEY while the scenario provokes it, judges the tenant's traffic and webhook exchanges, and
// writes client-certificate.html, .json and .junit.xml. Exit 0: certified; 1: not; 2: usage; 3: the run
// could not be made (the sandbox unreachable, the admin token refused).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { renderClientHtml } from './reporters/html.js';
import { renderClientJson } from './reporters/json.js';
import { renderClientJunit } from './reporters/junit.js';
import { certify } from './run.js';
import { SCENARIO_NAMES, SCENARIOS } from './scenarios.js';
import type { Certificate } from './types.js';

const USAGE = `usage: certify:client -- --base-url URL [options] -- <command> [args...]

  --base-url URL          the running sandbox (public API and /_sim control API)    [SANDBOX_URL]
  --admin-token TOKEN     the sandbox's control-API token                             [CONFORM_ADMIN_TOKEN]
  --scenario NAME         ${SCENARIO_NAMES.join(' | ')} (default all: each on its own tenant, at once)
  --report-dir DIR        where the reports go (default client-cert-report)
  --webhook-secret        also give the client SANDBOX_WEBHOOK_SECRET (a fresh random secret)
  --webhook-host HOST     a host the sandbox may deliver webhooks to despite its SSRF rules (local receivers;
                          repeatable; default 127.0.0.1; sandbox-wide, testing only)
  --timeout SECONDS       the client's time limit per scenario (default 300)
  --quiet                 no progress lines

The command gets SANDBOX_URL, SANDBOX_API_KEY (a fresh tenant's integration key), CLIENT_CERT_SCENARIO and,
with --webhook-secret, SANDBOX_WEBHOOK_SECRET. Scenarios:
${SCENARIOS.map((s) => `  ${s.name.padEnd(10)} ${s.description}`).join('\n')}
`;

export const REPORT_FILES = { html: 'client-certificate.html', json: 'client-certificate.json', junit: 'client-certificate.junit.xml' } as const;

class UsageError extends Error {}

export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env) {
  const split = argv.indexOf('--');
  const own = split >= 0 ? argv.slice(0, split) : argv;
  const command = split >= 0 ? argv.slice(split + 1) : [];
  let values;
  try {
    ({ values } = parseArgs({
      args: own,
      strict: true,
      options: {
        'base-url': { type: 'string' },
        'admin-token': { type: 'string' },
        scenario: { type: 'string', default: 'all' },
        'report-dir': { type: 'string', default: 'client-cert-report' },
        'webhook-secret': { type: 'boolean', default: false },
        'webhook-host': { type: 'string', multiple: true },
        timeout: { type: 'string', default: '300' },
        quiet: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return { help: true as const };
  const baseUrl = values['base-url'] ?? env.SANDBOX_URL;
  const adminToken = values['admin-token'] ?? env.CONFORM_ADMIN_TOKEN;
  if (!baseUrl) throw new UsageError('--base-url (or SANDBOX_URL) is required');
  if (!adminToken) throw new UsageError('--admin-token (or CONFORM_ADMIN_TOKEN) is required: the certification creates tenants and injects faults through the control API');
  if (command.length === 0) throw new UsageError('the client command goes after --');
  if (!(SCENARIO_NAMES as readonly string[]).includes(values.scenario!)) throw new UsageError(`--scenario: one of ${SCENARIO_NAMES.join(', ')}`);
  const timeout = Number(values.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0) throw new UsageError('--timeout: a number of seconds');
  return {
    help: false as const,
    baseUrl,
    adminToken,
    scenario: values.scenario!,
    reportDir: values['report-dir']!,
    webhookSecret: values['webhook-secret']!,
    webhookHosts: values['webhook-host'] ?? ['127.0.0.1'],
    timeoutMs: timeout * 1000,
    quiet: values.quiet!,
    command,
  };
}

export async function writeReports(certificate: Certificate, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files = [
    [REPORT_FILES.html, renderClientHtml(certificate)],
    [REPORT_FILES.json, renderClientJson(certificate)],
    [REPORT_FILES.junit, renderClientJunit(certificate)],
  ] as const;
  await Promise.all(files.map(([name, text]) => writeFile(path.join(dir, name), text)));
  return files.map(([name]) => path.join(dir, name));
}

export function summaryLines(certificate: Certificate): string[] {
  const mark = { passed: 'PASS', failed: 'FAIL', 'not exercised': 'n/a ' } as const;
  return [
    ...certificate.rules.map((r) => `${r.verdict === 'failed' && r.level === 'recommended' ? 'WARN' : mark[r.verdict]} ${r.id.padEnd(34)} ${r.spec.padEnd(9)} ${r.runs.map((o) => `${o.scenario}:${o.verdict}`).join(' ')}`),
    `${certificate.certified ? 'CERTIFIED' : 'NOT CERTIFIED'}: ${certificate.totals.passed} passed, ${certificate.totals.failed} failed, ${certificate.totals.warnings} warnings, ${certificate.totals.notExercised} not exercised`,
  ];
}

async function main(): Promise<number> {
  let options;
  try {
    options = parseCli(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`certify:client: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const log = options.quiet ? undefined : say;
  let certificate: Certificate;
  try {
    certificate = await certify({ ...options, log, notice: say });
  } catch (error) {
    process.stderr.write(`certify:client: the run could not be made: ${(error as Error).message}\n`);
    return 3;
  }
  const files = await writeReports(certificate, options.reportDir);
  process.stdout.write(`${summaryLines(certificate).join('\n')}\nreports: ${files.join(', ')}\n`);
  return certificate.certified ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('client-cert/cli.ts')) {
  main().then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`certify:client: ${(error as Error).stack ?? error}\n`);
      process.exitCode = 3;
    },
  );
}
