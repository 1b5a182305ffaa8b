// The options `tfas trigger` and `tfas resend` share (listen/trigger.ts): where the sandbox is, its admin
// token, and how long to wait for the first attempt; and how either prints what came of it.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ControlRefused, type SandboxAccess } from './control-api.js';
import { afterFirstAttempt, attemptOutcome, sentLine, type SentDelivery } from './trigger.js';

export class UsageError extends Error {}

/** Default real-time wait for attempt 1 (spec 6 rule 2: an attempt times out after 10 s). */
export const DEFAULT_WAIT_SECONDS = 15;

export const SHARED_OPTIONS_HELP = `  --base-url URL        the sandbox (default http://127.0.0.1:4010)                       [SANDBOX_URL]
  --admin-token TOKEN   the sandbox's control-API token (npm start prints it)            [SIM_ADMIN_TOKEN]
  --wait SECONDS        how long to wait for attempt 1 and print its outcome (default ${DEFAULT_WAIT_SECONDS}; 0: do not wait)
  -h, --help            this text

Exit codes: 0 sent (attempt 1 delivered, not made yet, or not waited for), 1 attempt 1 failed (the sandbox
retries it on the spec 6 schedule), 2 usage error, 3 the sandbox refused or could not be reached.`;

const SHARED: ParseArgsConfig['options'] = {
  'base-url': { type: 'string' },
  'admin-token': { type: 'string' },
  wait: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

export interface ToolSettings extends SandboxAccess {
  waitSeconds: number;
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
}

/** Parses the shared options and the tool's own (`own`); 'help' for --help. */
export function parseToolArgs(argv: string[], env: Record<string, string | undefined>, own: ParseArgsConfig['options'] = {}): ToolSettings | 'help' {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...SHARED, ...own }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return 'help';
  const baseUrl = String(values['base-url'] ?? env.SANDBOX_URL ?? 'http://127.0.0.1:4010');
  if (!/^https?:\/\/[^/\s]+/i.test(baseUrl)) throw new UsageError(`--base-url ${baseUrl} is not an http or https URL`);
  const adminToken = (values['admin-token'] as string | undefined) ?? env.SIM_ADMIN_TOKEN;
  if (!adminToken) throw new UsageError('--admin-token (or SIM_ADMIN_TOKEN) is required: the delivery is sent through the control API');
  const waitSeconds = Number(values.wait ?? DEFAULT_WAIT_SECONDS);
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0 || waitSeconds > 3600) throw new UsageError('--wait must be a number of seconds from 0 to 3600');
  return { baseUrl: baseUrl.replace(/\/$/, ''), adminToken, waitSeconds, positionals: parsed.positionals, values };
}

/**
 * Runs one tool: `send` asks the sandbox for the delivery; then its first attempt is awaited and told.
 * Answers the exit code (see SHARED_OPTIONS_HELP).
 */
export async function runTool(name: string, usage: string, argv: string[], env: Record<string, string | undefined>, own: ParseArgsConfig['options'], send: (settings: ToolSettings) => Promise<SentDelivery>): Promise<number> {
  let settings;
  let delivery;
  try {
    settings = parseToolArgs(argv, env, own);
    if (settings === 'help') {
      process.stdout.write(usage);
      return 0;
    }
    delivery = await send(settings);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${name}: ${error.message}\n\n${usage}`);
      return 2;
    }
    const cause = (error as { cause?: Error }).cause;
    process.stderr.write(`${name}: ${error instanceof ControlRefused ? error.message : `the sandbox at ${(settings as ToolSettings | undefined)?.baseUrl ?? '?'} could not be reached: ${cause?.message ?? (error as Error).message}`}\n`);
    return 3;
  }
  process.stdout.write(sentLine(delivery));
  if (settings.waitSeconds === 0) return 0;
  const outcome = attemptOutcome(await afterFirstAttempt(settings, delivery, settings.waitSeconds * 1000), settings.waitSeconds);
  process.stdout.write(outcome.line);
  return outcome.failed ? 1 : 0;
}
