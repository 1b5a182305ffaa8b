// What the ship domain offers (spec 2.6, 2.7, 3.3, 3.4, 4.3, 4.5; workflow C): the three uploads and their
// jobs (shipments audited into findings, orders, carrier agreements), the findings workflow, claim
// submissions with their PDF packet, and the archived v1.2.0 audit reads. The control API closes a
// submission (operator close, spec 3.4) through `closeSubmission`; the packet download is mounted by the
// control router (it is no contract operation).
import { loadContract } from '../../../contracts/lib/bundle.js';
import { listOperations } from '../../../contracts/lib/operations.js';
import type { KernelDeps } from '../../kernel/deps.js';
import type { AuthDomain } from '../auth/index.js';
import { defineDomain } from '../domain.js';
import type { JobsDomain } from '../jobs/index.js';
import type { TenantStore } from '../tenants/index.js';
import type { WebhooksDomain } from '../webhooks/index.js';
import { agreementStore, orderStore } from './agreement.store.js';
import { agreementUploadProcessor } from './agreement-upload.processor.js';
import { claimPresenter } from './claim.response.js';
import { claimRoutes, PACKET_PATH } from './claim.routes.js';
import { claimStore } from './claim.store.js';
import { findingPresenter } from './finding.response.js';
import { findingRoutes } from './finding.routes.js';
import { findingStore } from './finding.store.js';
import { orderUploadProcessor } from './order-upload.processor.js';
import { shipAuditRoutes } from './ship-audit.routes.js';
import { shipUploadProcessor } from './ship-upload.processor.js';
import { SHIP_DEFECTS, SHIP_RESPONSE_DEFECTS, SHIP_VARIANTS } from './ship.defects.js';
import { SHIP_TEST_VALUES } from './ship.trigger-values.js';
import { shipmentStore } from './shipment.store.js';
import type { ShipDomain } from './ship.types.js';
import { uploadRegistry } from './upload-registry.store.js';
import { shipUploadRoutes } from './upload.routes.js';
import { claimMachine } from './claim.machine.js';
import { findingMachine } from './finding.machine.js';

export type * from './ship.types.js';

function createShip(deps: KernelDeps, peers: { jobs: JobsDomain; webhooks: WebhooksDomain; tenants: TenantStore; auth: Pick<AuthDomain, 'authenticate'> }): ShipDomain {
  const shipments = shipmentStore(deps);
  const findings = findingStore(deps);
  const agreements = agreementStore(deps);
  const orders = orderStore(deps);
  const claims = claimStore(deps);
  const present = findingPresenter(deps, peers.tenants, claims);
  const shape = claimPresenter(findings, present);
  // Registered at construction, before jobs.start() resumes in-flight jobs after a restart.
  peers.jobs.registerJobType('ship_upload', shipUploadProcessor(deps, { shipments, findings, agreements, orders }));
  peers.jobs.registerJobType('order_upload', orderUploadProcessor(deps, orders));
  peers.jobs.registerJobType('carrier_agreement_upload', agreementUploadProcessor(deps, agreements));
  // The packet reads as getClaimSubmission does: same bearer, same scopes.
  const readOperation = listOperations(loadContract('v1.3.0')).find((op) => op.operationId === 'getClaimSubmission')!;
  const claimsApi = claimRoutes(deps, { claims, findings, present, shape, tenants: peers.tenants, authenticate: (headers) => peers.auth.authenticate(readOperation, headers) });
  return {
    name: 'ship',
    handlers: {
      ...shipUploadRoutes(deps, { jobs: peers.jobs, webhooks: peers.webhooks, registry: uploadRegistry(deps) }),
      ...findingRoutes(deps, findings, present),
      ...claimsApi.handlers,
      ...shipAuditRoutes(shipments, findings, present, deps.defects),
    },
    closeSubmission: claimsApi.closeSubmission,
    packetRoute: claimsApi.packetRoute,
    packetPath: PACKET_PATH,
  };
}

export const shipDomain = defineDomain({
  name: 'ship',
  needs: ['jobs', 'webhooks', 'tenants', 'auth'],
  create: createShip,
  defects: [...SHIP_DEFECTS, ...SHIP_VARIANTS],
  responseDefects: () => SHIP_RESPONSE_DEFECTS,
  testValues: SHIP_TEST_VALUES,
  lifecycles: { finding: findingMachine, 'claim-submission': claimMachine },
  // A finding's claim links first, found through the finding while it can still be read.
  async purgeTenant(deps, tenantId) {
    const findings = findingStore(deps);
    const claims = claimStore(deps);
    let removed = 0;
    for (const finding of await findings.ofTenant(tenantId)) removed += await claims.purgeFindingLinks(finding.id);
    removed += await findings.purgeTenant(tenantId);
    for (const store of [agreementStore(deps), orderStore(deps), shipmentStore(deps), uploadRegistry(deps), claims]) removed += await store.purgeTenant(tenantId);
    return removed;
  },
});
