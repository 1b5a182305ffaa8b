// The `carrier_agreement_upload` job (spec 4.3; the freight-audit reference section 4, "carrier agreement
// contents"): one row per term, `recordType` saying which (columns in fixtures/freight/README.md):
//   rate        carrier, service, zone, maxWeight (LB), amount: the contract transportation charge of a weight band
//   accessorial carrier, chargeCode or chargeDescription, status (allowed | waived), amount (cap, optional)
//   term        carrier, term (dim_divisor | gsr_waiver | agreement_number), value
// The file replaces the tenant's agreement with each carrier it names; later audits read it.
import type { KernelDeps } from '../../kernel/deps.js';
import { cellOf, headerColumns } from '../../kernel/uploads/header-columns.js';
import { noUsableHeader, readTableRows, skippedRowLog, stillStored } from '../../kernel/uploads/table-processor.js';
import type { JobOutcome, JobProcessor } from '../jobs/index.js';
import type { AgreementStore } from './agreement.store.js';
import { carrierOf, chargeCodeOf, parseAmount } from './shipment-columns.js';
import type { AgreementRecord, AgreementUploadInput, Carrier } from './ship.types.js';

const ALIASES: Record<string, readonly string[]> = {
  recordType: ['recordType', 'type', 'record'],
  carrier: ['carrier'],
  agreementNumber: ['agreementNumber', 'agreement', 'contractNumber'],
  service: ['service', 'serviceType'],
  zone: ['zone'],
  maxWeight: ['maxWeight', 'maxWeightLb', 'weightTo', 'weightUpTo'],
  amount: ['amount', 'rate', 'netRate'],
  chargeCode: ['chargeCode', 'code'],
  chargeDescription: ['chargeDescription', 'description', 'charge'],
  status: ['status', 'treatment'],
  term: ['term', 'key'],
  value: ['value'],
};

type Verdict = { ok: true } | { ok: false; reason: string; field: string; value: string };

export function agreementUploadProcessor(deps: Pick<KernelDeps, 'store' | 'clocks'>, agreements: AgreementStore): JobProcessor {
  return async (job): Promise<JobOutcome> => {
    const { file, document } = job.input as AgreementUploadInput;
    await stillStored(file);
    // A PDF agreement is a document for the record: the sandbox reads no terms from it (sandbox decision).
    if (document) {
      return {
        result: { fileName: file.fileName, document: 'pdf', agreements: [], note: 'PDF agreements are kept as documents; upload the terms as CSV or XLSX (recordType rows) for the audit to rate against them' },
        reconciliation: { rowsUploaded: 0, rowsSkipped: 0, rowsDeduplicated: 0, skusFound: 0, skusScreened: 0, skusNotApplicable: 0 },
        warnings: { termsNotRead: 1 },
      };
    }
    const tenantId = job.tenantId;
    const now = deps.clocks.of(tenantId).nowIso();
    const built = new Map<Carrier, AgreementRecord>();
    let keyOf = new Map<string, string>();
    const skipped = skippedRowLog();
    let used = 0;
    const empty = 'send a header row (recordType, carrier, service, zone, maxWeight, amount, ...) and one row per term';
    const { rows } = await readTableRows(file, { stored: { empty } }, {
      header: (event) => {
        keyOf = headerColumns(event.keys, ALIASES);
        if (!keyOf.has('recordType') || !keyOf.has('carrier')) throw noUsableHeader(file.fileName, 'an agreement file names recordType and carrier columns (see the sandbox README)');
      },
      row: (event) => {
        const get = (column: string) => cellOf(keyOf, event.values, column);
        const verdict = ((): Verdict => {
          const carrier = carrierOf(get('carrier'));
          if (!carrier) return { ok: false, reason: 'unknown_carrier', field: 'carrier', value: get('carrier') };
          const agreement = built.get(carrier) ?? { id: agreements.idOf(tenantId, carrier), tenantId, carrier, agreementNumber: null, rates: [], accessorials: [], dimDivisor: null, gsrWaived: false, jobId: job.id, updatedAt: now };
          built.set(carrier, agreement);
          if (get('agreementNumber')) agreement.agreementNumber = get('agreementNumber');
          const type = get('recordType').toLowerCase();
          if (type === 'rate') {
            const maxWeight = parseAmount(get('maxWeight'));
            const amount = parseAmount(get('amount'));
            if (!get('service') || !get('zone')) return { ok: false, reason: 'missing_service_or_zone', field: get('service') ? 'zone' : 'service', value: '' };
            if (maxWeight == null || maxWeight <= 0) return { ok: false, reason: 'invalid_number', field: 'maxWeight', value: get('maxWeight') };
            if (amount == null || amount < 0) return { ok: false, reason: 'invalid_number', field: 'amount', value: get('amount') };
            agreement.rates.push({ service: get('service'), zone: get('zone'), maxWeight, amount });
          } else if (type === 'accessorial') {
            const code = get('chargeCode').toUpperCase() || chargeCodeOf(get('chargeDescription'));
            if (!code) return { ok: false, reason: 'unknown_charge', field: 'chargeDescription', value: get('chargeDescription') };
            const status = get('status').toLowerCase() || 'allowed';
            if (status !== 'allowed' && status !== 'waived') return { ok: false, reason: 'invalid_status', field: 'status', value: get('status') };
            const amount = parseAmount(get('amount'));
            if (amount === undefined || (amount !== null && amount < 0)) return { ok: false, reason: 'invalid_number', field: 'amount', value: get('amount') };
            agreement.accessorials = [...agreement.accessorials.filter((a) => a.code !== code), { code, status, amount }];
          } else if (type === 'term') {
            const term = get('term').toLowerCase();
            const value = get('value');
            if (term === 'dim_divisor') {
              const divisor = parseAmount(value);
              if (!divisor || divisor <= 0 || !Number.isInteger(divisor)) return { ok: false, reason: 'invalid_number', field: 'value', value };
              agreement.dimDivisor = divisor;
            } else if (term === 'gsr_waiver') agreement.gsrWaived = ['true', 'yes', 'y', '1', 'waived'].includes(value.toLowerCase());
            else if (term === 'agreement_number') agreement.agreementNumber = value || agreement.agreementNumber;
            else return { ok: false, reason: 'unknown_term', field: 'term', value: get('term') };
          } else return { ok: false, reason: 'unknown_record_type', field: 'recordType', value: get('recordType') };
          return { ok: true };
        })();
        if (verdict.ok) used += 1;
        else skipped.skip(verdict.reason, { row: event.line, reason: verdict.reason, field: verdict.field, value: verdict.value });
      },
    });
    for (const agreement of built.values()) {
      agreement.rates.sort((a, b) => a.maxWeight - b.maxWeight);
      await agreements.put(agreement);
    }
    return {
      result: {
        fileName: file.fileName,
        agreements: [...built.values()].map((a) => ({ carrier: a.carrier, agreementNumber: a.agreementNumber, rates: a.rates.length, accessorials: a.accessorials.length, dimDivisor: a.dimDivisor, gsrWaived: a.gsrWaived })),
      },
      reconciliation: { rowsUploaded: used, rowsSkipped: rows - used, rowsDeduplicated: 0, skusFound: 0, skusScreened: 0, skusNotApplicable: 0 },
      skippedRows: skipped.rows,
    };
  };
}
