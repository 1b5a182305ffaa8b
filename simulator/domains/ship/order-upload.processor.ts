// The `order_upload` job (spec 4.3 `ingestMode`): the file's orders are written into the tenant's orders.
// PATCH merges: each order in the file is created or replaced, the others stay. SNAPSHOT replaces: after
// the file, every order of the tenant the file did not name is removed. Both are observable in the job's
// result (ordersCreated, ordersUpdated, ordersRemoved, ordersTotal) and in the audit, which reads an
// order's consignee type when an invoice row references it (residential-misapplied rule). An order is the
// rows sharing an orderId (one line each). Run again after a crash (issue 30 item 3), the job rewrites the
// orders its earlier run wrote (their ids are the tenant's order ids) and counts each as that run found it:
// an order carries whether it existed before the job that wrote it (writtenBy), so the re-run does not count
// the orders it created itself as updated, and each removal is recorded before the order goes (removedBy), so
// it counts the removals its earlier run made.
import { cooperative } from '../../kernel/cooperate.js';
import type { KernelDeps } from '../../kernel/deps.js';
import { cellOf, headerColumns } from '../../kernel/uploads/header-columns.js';
import { noUsableHeader, readTableRows, skippedRowLog } from '../../kernel/uploads/table-processor.js';
import { writtenBy, type JobOutcome, type JobProcessor } from '../jobs/index.js';
import type { OrderStore } from './agreement.store.js';
import { parseAmount, parseDate } from './shipment-columns.js';
import type { OrderRecord, OrderUploadInput } from './ship.types.js';

const ALIASES: Record<string, readonly string[]> = {
  orderId: ['orderId', 'orderNumber', 'order', 'salesOrder'],
  sku: ['sku', 'itemSku'],
  quantity: ['quantity', 'qty'],
  originCountry: ['originCountry', 'countryOfOrigin'],
  destinationCountry: ['destinationCountry', 'shipToCountry'],
  orderedAt: ['orderedAt', 'orderDate'],
  recipientAddressType: ['recipientAddressType', 'addressType', 'consigneeType'],
};
const BATCH = 500;

export function orderUploadProcessor(deps: Pick<KernelDeps, 'store' | 'clocks'>, orders: OrderStore): JobProcessor {
  return async (job, context): Promise<JobOutcome> => {
    const { file, ingestMode } = job.input as OrderUploadInput;
    const tenantId = job.tenantId;
    const now = deps.clocks.of(tenantId).nowIso();
    let keyOf = new Map<string, string>();
    const written = new Set<string>();
    const skipped = skippedRowLog();
    const skip = (row: number, reason: string, field: string) => skipped.skip(reason, { row, reason, field });
    let uploaded = 0;
    let created = 0;
    let updated = 0;
    const { rows } = await readTableRows(file, { stored: { empty: 'send a header row (orderId, sku, quantity, ...) and one row per order line' } }, {
      header: (event) => {
        keyOf = headerColumns(event.keys, ALIASES);
        if (!keyOf.has('orderId')) throw noUsableHeader(file.fileName, `name an order id column (${ALIASES.orderId.join(', ')})`);
      },
      row: async (event) => {
        const get = (column: string) => cellOf(keyOf, event.values, column);
        const orderId = get('orderId');
        if (!orderId) return skip(event.line, 'missing_order_id', 'orderId');
        const quantity = parseAmount(get('quantity'));
        if (quantity === undefined || (quantity !== null && quantity < 0)) return skip(event.line, 'invalid_quantity', 'quantity');
        const orderedAt = parseDate(get('orderedAt'));
        if (orderedAt === undefined) return skip(event.line, 'invalid_date', 'orderedAt');
        const type = get('recipientAddressType').toUpperCase();
        const line = { sku: get('sku') || null, quantity };
        const id = orders.idOf(tenantId, orderId);
        const before = await orders.get(tenantId, orderId);
        if (written.has(id) && before) {
          await orders.put({ ...before, lines: [...before.lines, line] }); // a later line of an order of this file
        } else {
          const record: OrderRecord = {
            id, tenantId, orderId, lines: [line], originCountry: get('originCountry').toUpperCase() || null, destinationCountry: get('destinationCountry').toUpperCase() || null,
            orderedAt, recipientAddressType: type === 'RESIDENTIAL' || type === 'COMMERCIAL' ? type : null, ...writtenBy(job.id, before), updatedAt: now,
          };
          await orders.put(record);
          written.add(id);
          if (record.existedBefore) updated += 1;
          else created += 1;
        }
        uploaded += 1;
      },
      batch: {
        rows: BATCH,
        step: async (event) => {
          await deps.store.flush();
          await context.progress(event.fraction * 90);
        },
      },
    });
    let removed = 0;
    const giveWay = cooperative();
    if (ingestMode === 'SNAPSHOT') {
      // The snapshot replaces the tenant's orders: what the file did not name goes. Counted from the removals
      // recorded for this job, so a run after a crash mid-way counts its earlier run's too.
      for await (const order of orders.notFromJob(tenantId, job.id)) {
        await giveWay();
        await orders.remove(job.id, order);
      }
      removed = await orders.removedBy(job.id);
    }
    return {
      result: { fileName: file.fileName, ingestMode, ordersCreated: created, ordersUpdated: updated, ordersRemoved: removed, ordersInFile: written.size, ordersTotal: await orders.count(tenantId) },
      reconciliation: { rowsUploaded: uploaded, rowsSkipped: rows - uploaded, rowsDeduplicated: 0, skusFound: 0, skusScreened: 0, skusNotApplicable: 0 },
      skippedRows: skipped.rows,
    };
  };
}
