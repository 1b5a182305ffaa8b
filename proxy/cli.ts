// `tfas proxy`: the validating proxy's command line (proxy.ts). Forwards to --upstream until SIGINT or SIGTERM,
// printing each violation as it is seen, then writes the suite's report formats (HTML, JSON, JUnit) of what
// went through. Exit codes: 0 no violation, 1 at least one, 2 usage error, 3 the proxy could not start.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CONTRACT_VERSIONS } from '../contracts/lib/bundle.js';
import { isEntryModule } from '../contracts/lib/entry.js';
import { contractForProfile, loadTargetContract } from '../conformance/harness/contract.js';
import { PROFILES, type Profile } from '../conformance/harness/types.js';
import { oneLine, redactExchange } from '../conformance/reporters/format.js';
import { renderHtml } from '../conformance/reporters/html.js';
import { renderJson } from '../conformance/reporters/json.js';
import { renderJUnit } from '../conformance/reporters/junit.js';
import { PROXY_PREFIX, startValidatingProxy, type Violation } from './proxy.js';
import { proxyRunReport } from './report.js';

export const REPORT_FILES = { junit: 'junit.xml', json: 'report.json', html: 'report.html' } as const;
type ReportFormat = keyof typeof REPORT_FILES;

export const USAGE = `Usage: tfas proxy --upstream URL [options]

Forwards every request to URL and holds each exchange to the contract: the request (parameters,
credential, body), the response (status, headers, content type, body) and the error envelope. The client
gets the upstream's answer unchanged. Each violation is printed with its exchange and kept; GET
${PROXY_PREFIX}violations on the proxy lists them (JSON). On SIGINT or SIGTERM (Ctrl-C) the reports of
the conformance suite (HTML, JSON, JUnit) are written for what went through.

Options:
  --upstream URL        the deployment to forward to, e.g. https://staging.example.com      [PROXY_UPSTREAM]
  --contract VERSION    ${CONTRACT_VERSIONS.join(', ')} (default v1.3.0)
  --profile PROFILE     ${PROFILES.join(' | ')}: as for \`tfas conform\`, simulator holds responses to all
                          of the contract, the others only to what the spec fixes (default sandbox)
  --port N              port to listen on (default 4020; 0: a free one)
  --host H              address to listen on (default 127.0.0.1)
  --report-dir DIR      where the reports go on exit (default reports/proxy-<timestamp>)
  --format LIST         reports to write: comma-separated junit,json,html (default all), or none
  --quiet               print no violation as it is seen (the summary and the reports only)
  -h, --help            this text

Exit codes: 0 no violation seen, 1 at least one, 2 usage error, 3 the proxy could not start.
`;

export interface ProxySettings {
  upstream: string;
  contract: string;
  profile: Profile;
  port: number;
  host: string;
  reportDir: string;
  formats: ReportFormat[];
  quiet: boolean;
}

export class UsageError extends Error {}

export function parseCli(argv: string[], env: Record<string, string | undefined>, now: () => Date = () => new Date()): ProxySettings | 'help' {
  let values;
  try {
    values = parseArgs({
      args: argv,
      options: {
        upstream: { type: 'string' },
        contract: { type: 'string' },
        profile: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'report-dir': { type: 'string' },
        format: { type: 'string' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  const upstream = values.upstream ?? env.PROXY_UPSTREAM;
  if (!upstream) throw new UsageError('--upstream URL is required');
  let parsed: URL;
  try {
    parsed = new URL(upstream);
  } catch {
    throw new UsageError(`--upstream ${upstream} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError('--upstream must be an http or https URL');
  const contract = values.contract ?? 'v1.3.0';
  if (!(CONTRACT_VERSIONS as readonly string[]).includes(contract)) throw new UsageError(`--contract must be one of ${CONTRACT_VERSIONS.join(', ')}`);
  const profile = (values.profile ?? 'sandbox') as Profile;
  if (!PROFILES.includes(profile)) throw new UsageError(`--profile must be one of ${PROFILES.join(', ')}`);
  const port = Number(values.port ?? 4020);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535`);
  const formatText = values.format ?? 'junit,json,html';
  const formats = formatText === 'none' ? [] : formatText.split(',').map((f) => f.trim());
  for (const format of formats) if (!(format in REPORT_FILES)) throw new UsageError(`--format: unknown report format ${format} (junit, json, html, or none)`);
  const stamp = now().toISOString().replace(/[:.]/g, '-');
  return {
    upstream: parsed.toString().replace(/\/$/, ''),
    contract,
    profile,
    port,
    host: values.host ?? '127.0.0.1',
    reportDir: path.resolve(values['report-dir'] ?? path.join('reports', `proxy-${stamp}`)),
    formats: formats as ReportFormat[],
    quiet: values.quiet ?? false,
  };
}

/** One violation as printed: the rule and message, then the exchange on one line. */
export function violationLines(violation: Violation): string {
  const { request, response } = redactExchange(violation.exchange); // a token or secret is never printed whole
  const body = oneLine(response.text, 160);
  return `VIOLATION #${violation.id} ${violation.rule}: ${violation.message}\n  ${request.method} ${request.url} -> ${response.status} ${response.headers['content-type'] ?? ''} ${body}\n`;
}

export async function main(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  let settings: ProxySettings | 'help';
  try {
    settings = parseCli(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`proxy: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (settings === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const { upstream, profile, reportDir, formats, quiet } = settings;
  const contract = contractForProfile(loadTargetContract(settings.contract), profile);
  const startedAt = new Date();
  let proxy;
  try {
    proxy = await startValidatingProxy({ upstream, contract, port: settings.port, host: settings.host, onViolation: quiet ? undefined : (v) => process.stdout.write(violationLines(v)) });
  } catch (error) {
    process.stderr.write(`proxy: could not listen on ${settings.host}:${settings.port}: ${(error as Error).message}\n`);
    return 3;
  }
  process.stdout.write(`validating proxy ${proxy.url} -> ${upstream} (contract ${contract.version}, profile ${profile}); violations: ${proxy.url}${PROXY_PREFIX}violations\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await proxy.close();
  const exchanges = proxy.exchanges();
  const violations = proxy.violations();
  const report = proxyRunReport({
    upstream,
    contract,
    profile,
    startedAt,
    finishedAt: new Date(),
    exchanges,
    violations,
    replay: `tfas proxy --upstream ${upstream} --contract ${contract.version} --profile ${profile}`,
  });
  const written: string[] = [];
  try {
    if (formats.length) mkdirSync(reportDir, { recursive: true });
    for (const format of formats) {
      const file = path.join(reportDir, REPORT_FILES[format]);
      writeFileSync(file, format === 'html' ? renderHtml(report, formats.includes('json') ? {} : { jsonFile: undefined }) : format === 'json' ? renderJson(report) : renderJUnit(report));
      written.push(file);
    }
  } catch (error) {
    process.stderr.write(`proxy: could not write the reports to ${reportDir}: ${(error as Error).message}\n`);
    return 3;
  }
  process.stdout.write(`${exchanges.length} exchanges, ${violations.length} violations${written.length ? `; reports: ${written.join(', ')}` : ''}\n`);
  return violations.length ? 1 : 0;
}

if (isEntryModule(import.meta.url)) {
  main(process.argv.slice(2), process.env).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`proxy: ${(error as Error).stack ?? error}\n`);
      process.exit(3);
    },
  );
}
