// What the columns of a shipment (carrier invoice) file mean (spec 4.3 ship upload; the freight-audit
// reference section 3, "invoice file columns"). Headers arrive normalized by kernel/uploads/table-file.ts
// (`Express or Ground Tracking ID` -> `expressOrGroundTrackingId`), so the FedEx FBO "All Columns" names,
// the UPS billing-data names and plain names all work. A row that cannot be audited is skipped with a
// reason (the job's skippedRows): no tracking or invoice number, no carrier, a date or amount that is not one.
import { CARRIER_ALIASES, CHARGE_CODES, SHIP_ADAPTERS, type Carrier } from '#fixtures/freight/freight-rules.js';
import type { ShipmentCharge, ShipmentLine } from './ship.types.js';
import { round2 } from '../../kernel/numbers.js';

export type ShipmentColumn =
  | 'carrier' | 'accountNumber' | 'invoiceNumber' | 'invoiceDate' | 'trackingNumber' | 'service' | 'shipDate' | 'zone'
  | 'actualWeight' | 'ratedWeight' | 'dimLength' | 'dimWidth' | 'dimHeight' | 'dimDivisor' | 'transportationCharge'
  | 'netCharge' | 'currency' | 'guaranteedDelivery' | 'actualDelivery' | 'originPostalCode' | 'destinationPostalCode'
  | 'recipientAddress' | 'originalRecipientAddress' | 'recipientAddressType' | 'orderId';

/** Normalized header keys per column, first match wins (FedEx FBO, UPS billing data, plain names). */
export const SHIPMENT_COLUMNS: Readonly<Record<ShipmentColumn, readonly string[]>> = {
  carrier: ['carrier', 'carrierCode', 'carrierName'],
  accountNumber: ['billToAccountNumber', 'accountNumber', 'shipperNumber'],
  invoiceNumber: ['invoiceNumber'],
  invoiceDate: ['invoiceDate'],
  trackingNumber: ['expressOrGroundTrackingId', 'trackingNumber', 'trackingId', 'leadShipmentNumber'],
  service: ['serviceType', 'service', 'serviceLevel', 'groundService'],
  shipDate: ['shipmentDate', 'shipDate', 'transactionDate', 'pickupDate'],
  zone: ['zoneCode', 'zone'],
  actualWeight: ['actualWeightAmount', 'actualWeight', 'enteredWeight'],
  ratedWeight: ['ratedWeightAmount', 'ratedWeight', 'billedWeight'],
  dimLength: ['dimLength', 'length'],
  dimWidth: ['dimWidth', 'width'],
  dimHeight: ['dimHeight', 'height'],
  dimDivisor: ['dimDivisor'],
  transportationCharge: ['transportationChargeAmount', 'transportationCharge', 'baseCharge', 'freightCharge'],
  netCharge: ['netChargeAmount', 'netCharge', 'netAmount', 'totalCharge'],
  currency: ['currency', 'currencyCode'],
  guaranteedDelivery: ['guaranteedDelivery', 'guaranteedDeliveryDateTime', 'serviceCommitDateTime', 'commitDateTime', 'scheduledDelivery'],
  actualDelivery: ['podDeliveryDateTime', 'podDeliveryDate', 'actualDelivery', 'deliveryDateTime', 'deliveredAt'],
  originPostalCode: ['shipperZipCode', 'shipperPostalCode', 'originPostalCode', 'originZip'],
  destinationPostalCode: ['recipientZipCode', 'recipientPostalCode', 'destinationPostalCode', 'destinationZip'],
  recipientAddress: ['recipientAddressLine1', 'recipientAddress'],
  originalRecipientAddress: ['originalRecipientAddressLine1', 'originalRecipientAddress'],
  recipientAddressType: ['recipientAddressType', 'addressType', 'consigneeType', 'residentialIndicator'],
  orderId: ['orderId', 'reference1', 'packageReference1'],
};

/** Repeated charge pairs: `Tracking ID Charge Description_3` / `Tracking ID Charge Amount_3`, or `Charge Description 3`. */
const CHARGE_PAIR = /^(?:trackingIdCharge|charge)(Description|Amount)(\d+)$/;

export interface ColumnMap {
  columns: Map<ShipmentColumn, string>;
  /** Charge pair index -> { description key, amount key }. */
  charges: Map<number, { description?: string; amount?: string }>;
  ignored: string[];
}

export function mapShipmentHeader(keys: string[], labels: string[]): ColumnMap {
  const out: ColumnMap = { columns: new Map(), charges: new Map(), ignored: [] };
  keys.forEach((key, i) => {
    if (!key) return;
    const pair = CHARGE_PAIR.exec(key);
    if (pair) {
      const n = Number(pair[2]);
      const entry = out.charges.get(n) ?? {};
      entry[pair[1] === 'Description' ? 'description' : 'amount'] = key;
      out.charges.set(n, entry);
      return;
    }
    const column = (Object.keys(SHIPMENT_COLUMNS) as ShipmentColumn[]).find((c) => SHIPMENT_COLUMNS[c].includes(key));
    if (column && !out.columns.has(column)) out.columns.set(column, key);
    else out.ignored.push(labels[i] ?? key);
  });
  return out;
}

export type RowVerdict = { ok: true; line: ShipmentLine } | { ok: false; reason: string; field: string | null; value: string | null };

const skip = (reason: string, field: string | null = null, value: string | null = null): RowVerdict => ({ ok: false, reason, field, value });

/** `20261020`, `2026-10-20`, `10/20/2026` -> `2026-10-20`; null when blank; undefined when not a date. */
export function parseDate(value: string): string | null | undefined {
  const v = value.trim();
  if (!v) return null;
  let m = /^(\d{4})(\d{2})(\d{2})$/.exec(v) ?? /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(v);
  if (m) return valid(`${m[1]}-${m[2]}-${m[3]}`);
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v);
  if (m) return valid(`${m[3]}-${m[1].padStart(2, '0')}-${m[2].padStart(2, '0')}`);
  return undefined;
}

const valid = (date: string) => (Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ? undefined : date);

/** A date-time as ISO UTC (a zone-less value is read as UTC, a bare date as its start); undefined when not one. */
function parseDateTime(value: string): string | null | undefined {
  const v = value.trim();
  if (!v) return null;
  if (/^\d{8}$/.test(v) || /^\d{4}-\d{2}-\d{2}$/.test(v)) {
    const date = parseDate(v);
    return date ? `${date}T00:00:00.000Z` : undefined;
  }
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/.exec(v);
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}T${m[2]}${m[3] ?? 'Z'}`);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** A plain number (thousands separators and a leading $ tolerated); null when blank, undefined when not a number. */
export function parseAmount(value: string): number | null | undefined {
  const v = value.trim().replace(/^\$/, '').replace(/,(?=\d{3}(\D|$))/g, '');
  if (!v) return null;
  if (!/^-?\d+(\.\d+)?$/.test(v)) return undefined;
  return Number(v);
}

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
const CODE_BY_DESCRIPTION = new Map(CHARGE_CODES.flatMap((c) => [[squash(c.code), c.code] as const, ...c.descriptions.map((d) => [squash(d), c.code] as const)]));

/** The audit's charge code for a description as printed (null when the audit does not know it). */
export const chargeCodeOf = (description: string): string | null => CODE_BY_DESCRIPTION.get(squash(description)) ?? null;

export const carrierOf = (value: string): Carrier | null => CARRIER_ALIASES[squash(value)] ?? null;

const addressType = (value: string): 'RESIDENTIAL' | 'COMMERCIAL' | null => {
  const v = squash(value);
  if (['residential', 'res', 'r', 'y', 'yes', 'true'].includes(v)) return 'RESIDENTIAL';
  if (['commercial', 'com', 'business', 'c', 'n', 'no', 'false'].includes(v)) return 'COMMERCIAL';
  return null;
};


/** One data row as a shipment line, or the reason it is skipped. */
export function toShipmentLine(map: ColumnMap, values: Record<string, string>, row: number, adapterId: string | null): RowVerdict {
  const get = (c: ShipmentColumn) => {
    const key = map.columns.get(c);
    return key ? (values[key] ?? '').trim() : '';
  };
  const trackingNumber = get('trackingNumber');
  if (!trackingNumber) return skip('missing_tracking_number', 'trackingNumber');
  const invoiceNumber = get('invoiceNumber');
  if (!invoiceNumber) return skip('missing_invoice_number', 'invoiceNumber');
  const carrierText = get('carrier');
  const carrier = carrierText ? carrierOf(carrierText) : (adapterId ? (SHIP_ADAPTERS[adapterId] ?? null) : null);
  if (!carrier) return skip(carrierText ? 'unknown_carrier' : 'missing_carrier', 'carrier', carrierText || null);

  const dates: Record<string, string | null> = {};
  for (const c of ['invoiceDate', 'shipDate'] as const) {
    const parsed = parseDate(get(c));
    if (parsed === undefined) return skip('invalid_date', c, get(c));
    dates[c] = parsed;
  }
  if (!dates.shipDate) return skip('missing_ship_date', 'shipDate');
  const times: Record<string, string | null> = {};
  for (const c of ['guaranteedDelivery', 'actualDelivery'] as const) {
    const parsed = parseDateTime(get(c));
    if (parsed === undefined) return skip('invalid_date', c, get(c));
    times[c] = parsed;
  }
  const numbers: Partial<Record<ShipmentColumn, number | null>> = {};
  for (const c of ['actualWeight', 'ratedWeight', 'dimLength', 'dimWidth', 'dimHeight', 'dimDivisor', 'transportationCharge', 'netCharge'] as const) {
    const parsed = parseAmount(get(c));
    if (parsed === undefined || (parsed !== null && parsed < 0 && c !== 'netCharge')) return skip('invalid_number', c, get(c));
    numbers[c] = parsed;
  }

  const charges: ShipmentCharge[] = [];
  if (numbers.transportationCharge != null) charges.push({ code: 'FRT', description: 'Transportation Charge', amount: numbers.transportationCharge });
  for (const [, pair] of [...map.charges].sort((a, b) => a[0] - b[0])) {
    const description = pair.description ? (values[pair.description] ?? '').trim() : '';
    const amountText = pair.amount ? (values[pair.amount] ?? '').trim() : '';
    if (!description && !amountText) continue;
    const amount = parseAmount(amountText);
    if (amount === undefined || amount === null) return skip('invalid_number', 'chargeAmount', amountText);
    charges.push({ code: chargeCodeOf(description), description: description || 'Charge', amount });
  }
  const netCharge = numbers.netCharge ?? (charges.length ? round2(charges.reduce((s, c) => s + c.amount, 0)) : null);
  if (netCharge === null) return skip('missing_net_charge', 'netCharge');

  const { dimLength: length, dimWidth: width, dimHeight: height } = numbers;
  const dimensions = length && width && height ? { length, width, height, unit: 'IN' as const, divisor: numbers.dimDivisor ?? null } : null;
  const currency = get('currency').toUpperCase() || 'USD';
  if (!/^[A-Z]{3}$/.test(currency)) return skip('invalid_currency', 'currency', get('currency'));

  return {
    ok: true,
    line: {
      row,
      carrier,
      accountNumber: get('accountNumber') || null,
      invoiceNumber,
      invoiceDate: dates.invoiceDate,
      trackingNumber,
      service: get('service') || 'Unknown',
      shipDate: dates.shipDate,
      zone: get('zone') || null,
      actualWeight: numbers.actualWeight ?? null,
      ratedWeight: numbers.ratedWeight ?? null,
      dimensions,
      transportationCharge: numbers.transportationCharge ?? null,
      charges,
      netCharge,
      currency,
      guaranteedDelivery: times.guaranteedDelivery,
      actualDelivery: times.actualDelivery,
      originPostalCode: get('originPostalCode'),
      destinationPostalCode: get('destinationPostalCode'),
      recipientAddress: get('recipientAddress') || null,
      originalRecipientAddress: get('originalRecipientAddress') || null,
      recipientAddressType: addressType(get('recipientAddressType')),
      orderId: get('orderId') || null,
    },
  };
}
