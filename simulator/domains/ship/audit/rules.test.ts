// Each audit rule with a row that triggers it and one that does not (fixtures/freight/sample-shipments.ts),
// the engine's charge claiming, outcomes and dispute deadlines.
import { describe, expect, it } from 'vitest';
import { SHIPMENT_HEADER, sampleAgreementRows, sampleShipmentRows, type SampleCase } from '#fixtures/freight/sample-shipments.js';
import { normalizeHeader } from '../../../kernel/uploads/table-file.js';
import { mapShipmentHeader, toShipmentLine } from '../shipment-columns.js';
import type { AgreementRecord, ShipmentLine } from '../ship.types.js';
import { AUDIT_RULES, auditShipment, disputeDeadline, shipmentOutcome } from './engine.js';
import type { AuditContext } from './rule.js';
import { accessorialNotInAgreement } from './rules/accessorial-not-in-agreement.js';
import { addressCorrection } from './rules/address-correction.js';
import { dimOverbilling } from './rules/dim-overbilling.js';
import { duplicateBilling } from './rules/duplicate-billing.js';
import { guaranteeOn, lateDelivery } from './rules/late-delivery.js';
import { rateAboveContract } from './rules/rate-above-contract.js';
import { residentialMisapplied } from './rules/residential-misapplied.js';

const base = new Date('2026-11-20T12:00:00Z');
const map = mapShipmentHeader(SHIPMENT_HEADER.map(normalizeHeader), [...SHIPMENT_HEADER]);
const lineOf = (c: SampleCase, carrier: 'FEDEX' | 'UPS' = 'FEDEX'): ShipmentLine => {
  const sample = sampleShipmentRows(base, carrier).find((r) => r.case === c)!;
  const values = Object.fromEntries(SHIPMENT_HEADER.map((h, i) => [normalizeHeader(h), String(sample.cells[i])]));
  const verdict = toShipmentLine(map, values, 2, null);
  if (!verdict.ok) throw new Error(`${c}: ${verdict.reason}`);
  return verdict.line;
};
const agreementFor = (carrier: 'FEDEX' | 'UPS'): AgreementRecord => ({
  id: 'a', tenantId: 't', carrier, agreementNumber: 'FICT-548561821-102', dimDivisor: 139, gsrWaived: false, jobId: 'j', updatedAt: '',
  rates: sampleAgreementRows(carrier).filter((r) => r[0] === 'rate').map((r) => ({ service: String(r[3]), zone: String(r[4]), maxWeight: Number(r[5]), amount: Number(r[6]) })),
  accessorials: [{ code: 'RES', status: 'allowed', amount: 6.95 }, { code: 'ADC', status: 'allowed', amount: 22.5 }, { code: 'SIG', status: 'allowed', amount: null }, { code: 'DAS', status: 'waived', amount: null }],
});
const agreement = agreementFor('FEDEX');
const ctx = (over: Partial<AuditContext> = {}): AuditContext => ({ agreement, earlierBilling: null, order: null, ...over });

describe('the audit rules', () => {
  it('has one rule per finding type, each in its own file', () => {
    expect(AUDIT_RULES.map((r) => r.type)).toEqual(['duplicate_billing', 'late_delivery', 'dim_overbilling', 'discount_not_applied', 'address_correction', 'residential_misapplied', 'accessorial_not_in_agreement']);
  });

  it('duplicate billing: a tracking number billed before is disputed in full; a first billing is not', () => {
    const line = lineOf('duplicate');
    expect(duplicateBilling.detect(line, ctx({ earlierBilling: { invoiceNumber: '812300001' } }))).toEqual([expect.objectContaining({ findingType: 'duplicate_billing', reasonCode: '19', recoverableAmount: 18.42, chargeCodes: ['*'] })]);
    expect(duplicateBilling.detect(line, ctx())).toEqual([]);
  });

  it('late delivery: an overnight package delivered after its commit is refunded; a suspended Ground guarantee is not', () => {
    expect(lateDelivery.detect(lineOf('late'), ctx())).toEqual([expect.objectContaining({ findingType: 'late_delivery', recoverableAmount: 45.1, disputeKind: 'guarantee' })]);
    expect(lateDelivery.detect(lineOf('late-suspended'), ctx())).toEqual([]);
    expect(lateDelivery.detect(lineOf('late'), ctx({ agreement: { ...agreement, gsrWaived: true } }))).toEqual([]);
    expect(lateDelivery.detect(lineOf('late', 'UPS'), ctx())).toHaveLength(1);
    expect(lateDelivery.detect(lineOf('late-suspended', 'UPS'), ctx())).toEqual([]);
  });

  it('late delivery: an express package 60 seconds late is not late yet; the guarantee was suspended in March 2020', () => {
    const line = lineOf('late');
    expect(lateDelivery.detect({ ...line, actualDelivery: new Date(Date.parse(line.guaranteedDelivery!) + 60_000).toISOString() }, ctx())).toEqual([]);
    expect(guaranteeOn({ ...line, shipDate: '2020-06-01' })).toBeNull();
    expect(guaranteeOn({ ...line, shipDate: '2021-04-06' })).not.toBeNull();
  });

  it('DIM overbilling: a rated weight above the dimensional weight at the contract divisor; the right weight is not', () => {
    expect(dimOverbilling.detect(lineOf('dim'), ctx())).toEqual([expect.objectContaining({ findingType: 'dim_overbilling', billedAmount: 24.87, expectedAmount: 21.3, recoverableAmount: 3.57, needsEvidence: true })]);
    expect(dimOverbilling.detect(lineOf('dim-ok'), ctx())).toEqual([]);
    // Without an agreement: the list divisor, and the charge prorated by weight.
    expect(dimOverbilling.detect(lineOf('dim'), ctx({ agreement: null }))).toEqual([expect.objectContaining({ expectedAmount: 16.17, recoverableAmount: 8.7 })]);
  });

  it('rate above contract: a transportation charge above the contract band; one at the contract rate is not', () => {
    expect(rateAboveContract.detect(lineOf('rate'), ctx())).toEqual([expect.objectContaining({ findingType: 'discount_not_applied', reasonCode: '24', expectedAmount: 18.42, recoverableAmount: 6.45 })]);
    expect(rateAboveContract.detect(lineOf('clean'), ctx())).toEqual([]);
    expect(rateAboveContract.detect(lineOf('rate'), ctx({ agreement: null }))).toEqual([]);
  });

  it('accessorial not in agreement: a waived surcharge; an allowed one is not', () => {
    expect(accessorialNotInAgreement.detect(lineOf('accessorial'), ctx())).toEqual([expect.objectContaining({ findingType: 'accessorial_not_in_agreement', recoverableAmount: 4.6, chargeCodes: ['DAS'] })]);
    expect(accessorialNotInAgreement.detect(lineOf('accessorial-allowed'), ctx())).toEqual([]);
    expect(accessorialNotInAgreement.detect(lineOf('accessorial'), ctx({ agreement: null }))).toEqual([]);
  });

  it('address correction: a fee although the original address was delivered to; a real correction is not', () => {
    expect(addressCorrection.detect(lineOf('address-correction'), ctx())).toEqual([expect.objectContaining({ findingType: 'address_correction', reasonCode: '40', recoverableAmount: 22.5 })]);
    expect(addressCorrection.detect(lineOf('address-corrected'), ctx())).toEqual([]);
  });

  it('residential surcharge on a commercial consignee (invoice or order); a residential one is not', () => {
    expect(residentialMisapplied.detect(lineOf('residential-commercial'), ctx())).toEqual([expect.objectContaining({ findingType: 'residential_misapplied', recoverableAmount: 6.45 })]);
    expect(residentialMisapplied.detect(lineOf('residential-residential'), ctx())).toEqual([]);
    const unknown = { ...lineOf('residential-residential'), recipientAddressType: null, orderId: 'SO-1' };
    expect(residentialMisapplied.detect(unknown, ctx({ order: { recipientAddressType: 'COMMERCIAL' } }))).toHaveLength(1);
    expect(residentialMisapplied.detect({ ...lineOf('residential-commercial'), service: 'FedEx Home Delivery' }, ctx())).toEqual([]);
  });
});

describe('the audit engine', () => {
  it('raises exactly the expected finding on each sample row', () => {
    for (const carrier of ['FEDEX', 'UPS'] as const) {
      const seen = new Map<string, string>();
      for (const sample of sampleShipmentRows(base, carrier)) {
        const line = lineOf(sample.case, carrier);
        const earlier = seen.get(line.trackingNumber);
        seen.set(line.trackingNumber, line.invoiceNumber);
        const found = auditShipment(line, ctx({ agreement: agreementFor(carrier), earlierBilling: earlier ? { invoiceNumber: earlier } : null })).map((f) => f.findingType);
        expect(found, `${carrier} ${sample.case}`).toEqual(sample.expects ? [sample.expects] : []);
      }
    }
  });

  it('does not dispute a charge twice: a duplicate row raises nothing else, an address correction fee is not also an accessorial finding', () => {
    const duplicate = auditShipment(lineOf('rate'), ctx({ earlierBilling: { invoiceNumber: 'X' } }));
    expect(duplicate.map((f) => f.findingType)).toEqual(['duplicate_billing']);
    const waivedAdc = auditShipment(lineOf('address-correction'), ctx({ agreement: { ...agreement, accessorials: [{ code: 'ADC', status: 'waived', amount: null }] } }));
    expect(waivedAdc.map((f) => f.findingType)).toEqual(['address_correction']);
  });

  it('reports AT_RISK with findings, CLEAR without, NEEDS_REVIEW without an agreement', () => {
    const line = lineOf('clean');
    expect(shipmentOutcome(line, [], true)).toEqual({ outcome: 'CLEAR', expectedAmount: 18.42 });
    expect(shipmentOutcome(line, [], false)).toEqual({ outcome: 'NEEDS_REVIEW', expectedAmount: null });
    expect(shipmentOutcome(lineOf('rate'), rateAboveContract.detect(lineOf('rate'), ctx()), true)).toEqual({ outcome: 'AT_RISK', expectedAmount: 18.42 });
  });

  it('sets the dispute deadline from the carrier windows: 180 days after ship date (FedEx), 15 days for guarantees', () => {
    const line = { carrier: 'FEDEX' as const, shipDate: '2026-11-01', invoiceDate: '2026-11-05', guaranteedDelivery: '2026-11-02T10:30:00.000Z' };
    expect(disputeDeadline(line, 'billing')).toBe('2027-04-30');
    expect(disputeDeadline(line, 'guarantee')).toBe('2026-11-20');
    expect(disputeDeadline({ ...line, carrier: 'UPS' }, 'guarantee')).toBe('2026-11-17');
    expect(disputeDeadline({ ...line, carrier: 'UPS' }, 'billing')).toBe('2027-05-04');
  });
});
