// `tfas listen`: the command line of listen.ts. Runs until SIGINT or SIGTERM, printing one line per delivery.
// Exit codes: 0 stopped, 2 usage error, 3 the receiver could not start or the sandbox refused it.
import { parseArgs } from 'node:util';
import { isEntryModule } from '../contracts/lib/entry.js';
import { startListener, type Delivery } from './listen.js';

export const USAGE = `Usage: tfas listen --forward-to URL [options]

Receives the sandbox's webhook deliveries on this machine and forwards each to URL (your handler), printing
it as it arrives with the verdict of its signature. The receiver's address is added to the sandbox's webhook
allow list through the control API (loopback targets are refused otherwise, spec 6 rule 4) and removed again
when it stops. Give the printed webhookUrl (and your webhookSecret) in your requests; the sandbox gets your
handler's status back, so a failing handler is retried as spec 6 says.

Options:
  --forward-to URL      your webhook handler, e.g. http://localhost:3000/webhooks
  --base-url URL        the sandbox (default http://127.0.0.1:4010)                       [SANDBOX_URL]
  --admin-token TOKEN   the sandbox's control-API token (npm start prints it)            [SIM_ADMIN_TOKEN]
  --secret SECRET       the webhookSecret your requests send: each signature is checked  [WEBHOOK_SECRET]
  --port N              the receiver's port on 127.0.0.1 (default 0: a free one)
  -h, --help            this text

Then: tfas trigger <event> --job JOB_ID sends a sample event for a job; tfas resend DELIVERY_ID sends a
past delivery again (both print the delivery id; this receiver prints each attempt).
`;

export class UsageError extends Error {}

export function parseCli(argv: string[], env: Record<string, string | undefined>) {
  let values;
  try {
    values = parseArgs({
      args: argv,
      options: { 'forward-to': { type: 'string' }, 'base-url': { type: 'string' }, 'admin-token': { type: 'string' }, secret: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help' as const;
  const forwardTo = values['forward-to'];
  if (!forwardTo) throw new UsageError('--forward-to URL is required');
  for (const [name, url] of [['--forward-to', forwardTo], ['--base-url', values['base-url'] ?? env.SANDBOX_URL ?? 'http://127.0.0.1:4010']] as const) {
    if (!/^https?:\/\/[^/\s]+/i.test(url)) throw new UsageError(`${name} ${url} is not an http or https URL`);
  }
  const adminToken = values['admin-token'] ?? env.SIM_ADMIN_TOKEN;
  if (!adminToken) throw new UsageError('--admin-token (or SIM_ADMIN_TOKEN) is required: the receiver is allowed through the control API');
  const port = Number(values.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a number from 0 to 65535');
  return {
    forwardTo,
    baseUrl: (values['base-url'] ?? env.SANDBOX_URL ?? 'http://127.0.0.1:4010').replace(/\/$/, ''),
    adminToken,
    secret: values.secret ?? env.WEBHOOK_SECRET,
    port,
  };
}

/** One delivery as printed: event, delivery id and attempt, the signature's verdict, the handler's answer. */
export function deliveryLine(d: Delivery): string {
  const signature = d.signature === undefined ? 'signature not checked (no --secret)' : d.signature.valid ? 'signature valid' : `signature INVALID: ${d.signature.detail}`;
  const forwarded = 'status' in d.forwarded ? `handler answered ${d.forwarded.status}` : `handler unreachable: ${d.forwarded.error}`;
  return `${d.at} ${d.event ?? '(no X-SVC-Event)'} delivery ${d.deliveryId ?? '?'} attempt ${d.attempt ?? '?'}: ${signature}; ${forwarded}\n`;
}

export async function main(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  let settings;
  try {
    settings = parseCli(argv, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`listen: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (settings === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  let listener;
  try {
    listener = await startListener({ ...settings, onDelivery: (d) => process.stdout.write(deliveryLine(d)) });
  } catch (error) {
    process.stderr.write(`listen: ${(error as Error).message}\n`);
    return 3;
  }
  process.stdout.write(`listening: give webhookUrl=${listener.url} in your requests; deliveries go to ${settings.forwardTo}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await listener.close();
  process.stdout.write(`${listener.deliveries().length} deliveries; the allow list is back as it was\n`);
  return 0;
}

if (isEntryModule(import.meta.url)) {
  main(process.argv.slice(2), process.env).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`listen: ${(error as Error).stack ?? error}\n`);
      process.exit(3);
    },
  );
}
