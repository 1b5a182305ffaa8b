// spec 6 rule 4: "targets in 127.0.0.0/8, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 169.254.0.0/16, and hosts
// `localhost` and `::1` are blocked. The hostname is resolved before the request, the resolved address is
// pinned for the delivery and checked against the same blocklist." A webhook to a host NAME that resolves
// into a blocked range must never be delivered: refused at enqueue (400), or every attempt refused.
//
// The name needs a resolver that answers it with a blocked address, and the suite's machines have no public
// DNS. In the simulator profile the sandbox's resolver table (control API, sandbox-defined: names the webhook
// dispatcher resolves itself, judged by the SSRF rules like any DNS answer) maps two names under the reserved
// `.invalid` domain (RFC 6761: no real DNS answers them) to the address of the suite's own receiver, which
// listens on a blocked address (loopback):
//   - a control name, also put on the sandbox's allow list (local testing), whose delivery must arrive: it
//     proves the table is read and the receiver reachable through a name, so the silence of the other is the
//     blocklist's doing;
//   - the probe name, not allowed: its job ends, every attempt of the retry schedule (30 s, 2 min, 10 min of
//     virtual time) comes due, and nothing may reach the receiver under it (webhook-ssrf-resolved).
// Pinning ("pinned for the delivery") has the same observable end here: no connection to a blocked address.
// The table and the allow list are put back as they were. Skipped when the receiver is not on a blocked
// address (a public --webhook-url): a name resolving to it proves nothing of the blocklist.
import { isIP } from 'node:net';
import { defineCheck, type ReceivedDelivery } from '../../harness/check.js';
import { sleep } from '../jobs-support.js';
import { awaitDelivery, awaitTerminalJob, deliveryExchange, ofJob, postProbeBatch, QUIET_WAIT_SIMULATOR_MS, receiverOf, RETRY_GAPS_SECONDS, seeded } from './probe.js';

const CHECK_ID = 'webhooks.ssrf-resolved-address';

/** spec 6 rule 4's IPv4 ranges, as [first octets, prefix length]. */
const BLOCKED_V4: ReadonlyArray<readonly [number, number, number]> = [
  [127, 0, 8],
  [10, 0, 8],
  [172, 16, 12],
  [192, 168, 16],
  [169, 254, 16],
];

/** The blocked address the receiver's host stands for, or undefined when it is not one (spec 6 rule 4). */
function blockedAddressOf(hostname: string): string | undefined {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost') return '127.0.0.1';
  if (host === '::1') return '::1';
  if (isIP(host) !== 4) return undefined;
  const value = host.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
  const inRange = BLOCKED_V4.some(([a, b, prefix]) => Math.floor(value / 2 ** (32 - prefix)) === Math.floor((a * 2 ** 24 + b * 2 ** 16) / 2 ** (32 - prefix)));
  return inRange ? host : undefined;
}

export const webhookSsrfResolvedAddress = defineCheck({
  id: CHECK_ID,
  title: 'A webhook to a host name that resolves into a blocked range is never delivered',
  area: 'webhooks',
  needs: ['writes', 'webhookReceiver', 'admin'],
  async run(ctx) {
    const receiver = receiverOf(ctx);
    const admin = ctx.admin!;
    const receiverUrl = new URL(receiver.url);
    const address = blockedAddressOf(receiverUrl.hostname);
    if (!address) return ctx.skip(`the receiver (${receiverUrl.host}) is not on a blocked address: a name resolving to it proves nothing of the blocklist`);
    const { nonce } = seeded(ctx, CHECK_ID);
    const port = receiverUrl.port || (receiverUrl.protocol === 'https:' ? '443' : '80');
    const base = receiverUrl.pathname.replace(/\/+$/, '');
    const probe = { name: `ssrf-${nonce}.conformance.invalid`, suffix: `/${CHECK_ID}/${nonce}-blocked` };
    const control = { name: `allowed-${nonce}.conformance.invalid`, suffix: `/${CHECK_ID}/${nonce}-control` };
    const urlOf = (target: { name: string; suffix: string }) => `${receiverUrl.protocol}//${target.name}:${port}${base}${target.suffix}`;
    const to = (target: { suffix: string }, jobId: string) => (d: ReceivedDelivery) => d.path.split('?')[0].endsWith(target.suffix) && ofJob(d, jobId);

    const hostsBefore = await admin.resolverHosts();
    const allowBefore = await admin.allowTargets();
    try {
      await admin.setResolverHosts({ ...hostsBefore, [probe.name]: address, [control.name]: address });
      await admin.setAllowTargets([...allowBefore, `${control.name}:${port}`]);

      const controlJob = await postProbeBatch(ctx, { webhookUrl: urlOf(control) });
      const controlId = (controlJob.response.body as { jobId?: unknown } | null)?.jobId;
      if (!ctx.expect(controlJob.response.status === 202 && typeof controlId === 'string', 'enqueue-accepted', `a SIMA batch with a webhook to ${urlOf(control)} (a name the sandbox resolves to ${address}, on its allow list) answered ${controlJob.response.status}, not 202 with a jobId`, controlJob)) return;
      const probeJob = await postProbeBatch(ctx, { webhookUrl: urlOf(probe) });
      if (probeJob.response.status === 400) return; // refused at enqueue: the name was resolved and its address blocked
      const probeId = (probeJob.response.body as { jobId?: unknown } | null)?.jobId;
      if (!ctx.expect(probeJob.response.status === 202 && typeof probeId === 'string', 'enqueue-accepted', `a SIMA batch with a webhook to ${urlOf(probe)} answered ${probeJob.response.status}, neither 202 with a jobId nor 400 (spec 6 rule 4)`, probeJob)) return;

      if (!(await awaitDelivery(ctx, to(control, controlId as string)))) {
        ctx.fail('resolver-hosts-control', `no delivery for job ${String(controlId)} reached ${urlOf(control)}, a name the sandbox's resolver table maps to the receiver's ${address} and its allow list lets through: the table is not read, nothing can be judged`, controlJob);
        return;
      }
      await awaitTerminalJob(ctx, probeId as string);
      // Every attempt of the retry schedule comes due.
      for (const gap of RETRY_GAPS_SECONDS) {
        await admin.advanceClock(gap + 2);
        await sleep(QUIET_WAIT_SIMULATOR_MS);
      }
      const reached = receiver.deliveries().filter(to(probe, probeId as string));
      if (reached.length) {
        ctx.fail('webhook-ssrf-resolved', `${reached.length} attempt(s) for job ${String(probeId)} reached the receiver at ${address} through ${urlOf(probe)}, a name that resolves into a blocked range (spec 6 rule 4: the resolved address is checked against the same blocklist)`, deliveryExchange(reached[0]));
      }
    } finally {
      await admin.setResolverHosts(hostsBefore);
      await admin.setAllowTargets(allowBefore);
    }
  },
});
