// The one place a claim submission's body is shaped (spec 2.7): always inside `{ submission }` or the
// `{ submissions, total, limit, offset, hasMore }` list; every finding inside carries the finding's
// explanation fields (finding.response.ts).
import type { FindingPresenter } from './finding.response.js';
import type { FindingStore } from './finding.store.js';
import type { ClaimSubmissionItem, ClaimSubmissionRecord } from './ship.types.js';

export function claimPresenter(findings: FindingStore, present: FindingPresenter) {
  return async (record: ClaimSubmissionRecord): Promise<ClaimSubmissionItem> => {
    const view = await present(record.tenantId);
    const items = [];
    for (const id of record.findingIds) {
      const finding = await findings.get(record.tenantId, id);
      if (finding) items.push(await view.item(finding));
    }
    return {
      id: record.id,
      status: record.status,
      carrier: record.carrier,
      findingIds: record.findingIds,
      packetUrl: record.packetUrl,
      submittedAt: record.submittedAt,
      acknowledgedAt: record.acknowledgedAt,
      creditConfirmedAt: record.creditConfirmedAt,
      failedAt: record.failedAt,
      failureReason: record.failureReason,
      externalReference: record.externalReference,
      notes: record.notes,
      findings: items,
      amountsByFinding: record.amountsByFinding,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    };
  };
}
