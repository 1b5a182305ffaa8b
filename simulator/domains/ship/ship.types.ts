// The ship domain's types (spec 2.6, 2.7, 3.3, 3.4, 4.3, 4.5): shipments read from carrier invoice files,
// the carrier agreements they are audited against, the findings the audit raises, claim submissions and
// the inputs of the three upload jobs.
import type { Schema, V1_2_0 } from '../../../contracts/generated/index.js';
import type { Carrier } from '#fixtures/freight/freight-rules.js';
import type { StoredUpload } from '../../kernel/uploads/uploaded-file.js';
import type { DomainModule } from '../domain.js';

export type { Carrier } from '#fixtures/freight/freight-rules.js';

export type FindingWorkflowStatus = Schema<'FindingWorkflowStatus'>;
export type FindingType = Schema<'FindingType'>;
export type ClaimEligibility = Schema<'ClaimEligibility'>;
export type FindingActionability = Schema<'FindingActionability'>;
export type FindingItem = Schema<'Finding'>;
export type CreditConfirmation = Schema<'CreditConfirmation'>;
export type ClaimSubmissionStatus = Schema<'ClaimSubmissionStatus'>;
export type ClaimSubmissionItem = Schema<'ClaimSubmission'>;
export type ShipmentAuditOutcome = V1_2_0.components['schemas']['ShipmentAuditOutcome'];
export type ShipmentAuditRow = V1_2_0.components['schemas']['ShipmentAuditRow'];
export type ShipmentDetail = V1_2_0.components['schemas']['ShipmentDetail'];

export interface ShipmentCharge {
  code: string | null;
  description: string;
  amount: number;
}

/** One invoice row read from a shipment file (shipment-columns.ts), before the audit. */
export interface ShipmentLine {
  /** 1-based line (CSV) or row number (XLSX) in the uploaded file. */
  row: number;
  carrier: Carrier;
  accountNumber: string | null;
  invoiceNumber: string;
  invoiceDate: string | null;
  trackingNumber: string;
  service: string;
  shipDate: string;
  zone: string | null;
  actualWeight: number | null;
  ratedWeight: number | null;
  dimensions: { length: number; width: number; height: number; unit: 'IN'; divisor: number | null } | null;
  /** Transportation (freight) charge before accessorials and fuel. */
  transportationCharge: number | null;
  /** Every billed charge line, transportation included. */
  charges: ShipmentCharge[];
  netCharge: number;
  currency: string;
  guaranteedDelivery: string | null;
  actualDelivery: string | null;
  originPostalCode: string;
  destinationPostalCode: string;
  recipientAddress: string | null;
  originalRecipientAddress: string | null;
  recipientAddressType: 'RESIDENTIAL' | 'COMMERCIAL' | null;
  orderId: string | null;
}

/** A tenant's carrier agreement (agreement-columns.ts): contract rates, accessorial terms, DIM divisor, GSR waiver. */
export interface AgreementRecord {
  id: string;
  rev?: number;
  tenantId: string;
  carrier: Carrier;
  agreementNumber: string | null;
  /** Contract transportation charge per service and zone, by weight band (maxWeight in LB, ascending). */
  rates: Array<{ service: string; zone: string; maxWeight: number; amount: number }>;
  /** Accessorial charge codes the agreement allows (with a cap when given) or waives. */
  accessorials: Array<{ code: string; status: 'allowed' | 'waived'; amount: number | null }>;
  dimDivisor: number | null;
  /** The agreement waives the guaranteed-service refund (reference: "GSR waiver in the agreement"). */
  gsrWaived: boolean;
  jobId: string;
  updatedAt: string;
}

export interface ShipmentRecord extends Omit<ShipmentLine, 'row'> {
  id: string;
  rev?: number;
  tenantId: string;
  jobId: string;
  row: number;
  agreementNumber: string | null;
  expectedAmount: number | null;
  outcome: ShipmentAuditOutcome;
  findingCount: number;
  createdAt: string;
}

/** What a rule raises; the engine adds identity, deadline and workflow (audit/engine.ts). */
export interface FindingDraft {
  findingType: FindingType;
  reasonCode: string | null;
  billedAmount: number;
  expectedAmount: number;
  recoverableAmount: number;
  headline: string;
  /** Facts the claim packet prints as evidence (label -> value). */
  evidence: Record<string, string>;
  /** Which dispute window applies (freight-rules.ts DISPUTE_WINDOWS). */
  disputeKind: 'billing' | 'guarantee';
  /** The carrier will want proof (measurements) before crediting: actionability needs_evidence. */
  needsEvidence?: boolean;
  /** Charge codes the finding disputes; a later rule does not dispute them again. '*' is the whole shipment. */
  chargeCodes: string[];
}

export interface FindingRecord {
  id: string;
  rev?: number;
  tenantId: string;
  shipmentId: string;
  jobId: string;
  /** Position of the shipment's row in its file, then of the finding within the row: the list order. */
  row: number;
  carrier: Carrier;
  accountNumber: string | null;
  invoiceNumber: string;
  trackingNumber: string;
  shipDate: string;
  findingType: FindingType;
  reasonCode: string | null;
  billedAmount: number;
  expectedAmount: number;
  recoverableAmount: number;
  currency: string;
  disputeDeadline: string | null;
  headline: string;
  evidence: Record<string, string>;
  needsEvidence: boolean;
  workflowStatus: FindingWorkflowStatus;
  credit: { amount: number; confirmation: CreditConfirmation; creditedAt: string } | null;
  disputedAt: string | null;
  submittedAt: string | null;
  carrierReviewAt: string | null;
  resolvedAt: string | null;
  reopenedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ClaimSubmissionRecord {
  id: string;
  rev?: number;
  tenantId: string;
  status: ClaimSubmissionStatus;
  carrier: string;
  findingIds: string[];
  packetUrl: string | null;
  /** Where the rendered packet sits in the artifacts directory. */
  packetPath: string | null;
  submittedAt: string | null;
  acknowledgedAt: string | null;
  creditConfirmedAt: string | null;
  failedAt: string | null;
  failureReason: string | null;
  externalReference: string | null;
  notes: string | null;
  amountsByFinding: Record<string, number> | null;
  closedAt: string | null;
  /** The operator's reason for closing (control API), kept for the record only. */
  closeReason?: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface OrderRecord {
  id: string;
  rev?: number;
  tenantId: string;
  orderId: string;
  lines: Array<{ sku: string | null; quantity: number | null }>;
  originCountry: string | null;
  destinationCountry: string | null;
  orderedAt: string | null;
  recipientAddressType: 'RESIDENTIAL' | 'COMMERCIAL' | null;
  jobId: string;
  /** Whether the order was there before job `jobId` wrote it (jobs.settlement.ts writtenBy); never sent. */
  existedBefore?: boolean;
  updatedAt: string;
}

/** A SNAPSHOT order upload's removal of one order (agreement.store.ts orderStore.remove); never sent. */
export interface OrderRemovalRecord {
  id: string;
  rev?: number;
  tenantId: string;
  jobId: string;
  orderId: string;
}

export interface ShipUploadInput {
  file: StoredUpload;
  adapterId: string | null;
}
export interface OrderUploadInput {
  file: StoredUpload;
  ingestMode: 'PATCH' | 'SNAPSHOT';
}
export interface AgreementUploadInput {
  file: StoredUpload;
  /** A PDF agreement: kept as a document, no terms read. */
  document?: boolean;
}

/** What the ship domain offers the composition root and the control API. */
export interface ShipDomain extends DomainModule {
  /** Operator close of a claim submission (spec 3.4: administrative, no public operation). */
  closeSubmission(tenantId: string, submissionId: string, reason?: string | null): Promise<ClaimSubmissionItem>;
  /** Serves a claim packet to the owning tenant (GET on a packetUrl): not a contract operation. */
  packetRoute: import('koa').Middleware;
  /** The path packetUrl points at, for mounting the route. */
  packetPath: string;
}
