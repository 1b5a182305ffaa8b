// `tfas resend DELIVERY_ID`: the command line of trigger.ts's resendDelivery (a past delivery sent again).
import { isEntryModule } from '../contracts/lib/entry.js';
import { runTool, SHARED_OPTIONS_HELP, UsageError } from './tool-options.js';
import { resendDelivery } from './trigger.js';

export const USAGE = `Usage: tfas resend DELIVERY_ID [options]

Sends a past webhook delivery again (one that was delivered or failed; tfas listen prints delivery ids,
GET /_sim/webhooks/deliveries lists them): a new delivery of the same event and job object, to the same
URL, signed with the job's webhookSecret, under a new delivery id (so a handler that deduplicates on the id
handles it), with up to 4 attempts of its own on the spec 6 schedule. A delivery still pending is refused:
the sandbox retries it on its schedule. Sandbox-defined (POST /_sim/webhooks/deliveries/{id}/redeliver):
spec 6 rule 3 gives the service no manual retry, and the public interface keeps none.

Options:
${SHARED_OPTIONS_HELP}

Send a sample event for a job: tfas trigger <event> --job JOB_ID.
`;

export function main(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  return runTool('resend', USAGE, argv, env, {}, (settings) => {
    const [deliveryId, ...extra] = settings.positionals;
    if (deliveryId === undefined) throw new UsageError('name the delivery to send again: tfas resend DELIVERY_ID');
    if (extra.length) throw new UsageError(`one delivery at a time (also given: ${extra.join(' ')})`);
    return resendDelivery(settings, deliveryId);
  });
}

if (isEntryModule(import.meta.url)) {
  main(process.argv.slice(2), process.env).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`resend: ${(error as Error).stack ?? error}\n`);
      process.exit(3);
    },
  );
}
