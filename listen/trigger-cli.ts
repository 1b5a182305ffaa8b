// `tfas trigger <event> --job ID`: the command line of trigger.ts (sends a sample event for a job).
import { isEntryModule } from '../contracts/lib/entry.js';
import { runTool, SHARED_OPTIONS_HELP, UsageError } from './tool-options.js';
import { EVENTS, triggerEvent, type WebhookEvent } from './trigger.js';

export const USAGE = `Usage: tfas trigger <event> --job JOB_ID [options]

Sends a sample webhook event for one of your jobs: the sandbox makes and sends it as a real delivery (the
spec 6 body and headers, signed with the job's webhookSecret, retried after 30 s, 2 min and 10 min on the
tenant's clock), to the webhookUrl the job was enqueued with (run tfas listen and enqueue with the
webhookUrl it prints), under a new delivery id, whatever the job's state. The job itself does not change.
Sandbox-defined (POST /_sim/webhooks/trigger): the public interface has no such operation.

Events: ${EVENTS.join(', ')}
  job.completed   the job as a completed job: progress 100, its result
  job.failed      the job as a failed job: no result, an error (a sample's says it is one)

Options:
  --job JOB_ID          the job (enqueued with a webhook configuration)
  --tenant TENANT_ID    the job's tenant, checked when given
${SHARED_OPTIONS_HELP}

Send a past delivery again: tfas resend DELIVERY_ID.
`;

export function main(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  return runTool('trigger', USAGE, argv, env, { job: { type: 'string' }, tenant: { type: 'string' } }, (settings) => {
    const [event, ...extra] = settings.positionals;
    if (event === undefined) throw new UsageError(`name the event: ${EVENTS.join(' or ')}`);
    if (!(EVENTS as readonly string[]).includes(event)) throw new UsageError(`${event} is not an event of spec 6: ${EVENTS.join(' or ')}`);
    if (extra.length) throw new UsageError(`one event at a time (also given: ${extra.join(' ')})`);
    const jobId = settings.values.job;
    if (typeof jobId !== 'string' || !jobId) throw new UsageError('--job JOB_ID is required');
    const tenantId = settings.values.tenant as string | undefined;
    return triggerEvent(settings, { event: event as WebhookEvent, jobId, ...(tenantId ? { tenantId } : {}) });
  });
}

if (isEntryModule(import.meta.url)) {
  main(process.argv.slice(2), process.env).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`trigger: ${(error as Error).stack ?? error}\n`);
      process.exit(3);
    },
  );
}
