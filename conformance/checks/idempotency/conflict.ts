// idempotency.conflict (spec 8.5, 7): on each of the four idempotent endpoints, the same key with a different
// payload (other SKUs, another file) is refused with 409 ACTION_NOT_ALLOWED and creates nothing. On an
// upload, a file of the same name with other bytes is another payload too: the file is what is uploaded.
import { defineCheck } from '../../harness/check.js';
import { errorCode } from '../jobs-support.js';
import { send, untestable } from './endpoints.js';
import { idempotencyTenant, jobCount, newKey, receipt } from './support.js';
import { accepted, forEachEndpoint } from './visit.js';

export const idempotentConflict = defineCheck({
  id: 'idempotency.conflict',
  title: 'On each idempotent endpoint the same Idempotency-Key with a different payload is refused with 409 ACTION_NOT_ALLOWED',
  area: 'idempotency',
  needs: ['writes'],
  async run(ctx) {
    const tenant = await idempotencyTenant(ctx, 'Conformance idempotency conflict');
    await forEachEndpoint(ctx, async (endpoint, index) => {
      const key = newKey(ctx, 'conflict', index);
      const { original, other, otherContent } = endpoint.payloads('conflict', index);
      const first = await send(ctx, tenant.client, endpoint, original, key);
      const made = accepted(ctx, tenant, endpoint, first, 'the first request with a new key');
      if (!('ids' in made)) return 'reason' in made ? made.reason : undefined;
      const before = tenant.fresh ? await jobCount(tenant.client) : undefined;
      const second = await send(ctx, tenant.client, endpoint, other, key);
      const reason = untestable(tenant, endpoint, second);
      if (reason) return reason;
      if (second.response.status === 202) {
        ctx.fail('idempotency-conflict', `POST ${endpoint.path}: the same key with another payload was accepted (202, job ${JSON.stringify(receipt(second).jobId)}, replayed: ${JSON.stringify(receipt(second).replayed)}); spec 8.5: 409 ACTION_NOT_ALLOWED`, second);
      } else {
        ctx.expect(second.response.status === 409 && errorCode(second) === 'ACTION_NOT_ALLOWED', 'idempotency-conflict', `POST ${endpoint.path}: the same key with another payload answered ${second.response.status} ${JSON.stringify(errorCode(second))}, not 409 ACTION_NOT_ALLOWED (spec 8.5, 7)`, second);
      }
      if (otherContent) {
        // Spec 8.5: same key, same form and file name, another file content: a different payload.
        const third = await send(ctx, tenant.client, endpoint, otherContent, key);
        const why = untestable(tenant, endpoint, third);
        if (why) return why;
        ctx.expect(third.response.status === 409 && errorCode(third) === 'ACTION_NOT_ALLOWED', 'idempotency-conflict-file', `POST ${endpoint.path}: the same key with a file of the same name but other bytes answered ${third.response.status} ${JSON.stringify(errorCode(third))}${third.response.status === 202 ? ` (job ${JSON.stringify(receipt(third).jobId)}, replayed: ${JSON.stringify(receipt(third).replayed)})` : ''}, not 409 ACTION_NOT_ALLOWED (spec 8.5: the file is part of the payload)`, third);
      }
      if (before) {
        const after = await jobCount(tenant.client);
        ctx.expect(after.count === before.count, 'idempotency-one-job', `POST ${endpoint.path}: the refused request changed the tenant's job count from ${JSON.stringify(before.count)} to ${JSON.stringify(after.count)}`, after.exchange);
      }
    });
  },
});
