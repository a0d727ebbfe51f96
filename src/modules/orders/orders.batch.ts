// POST /batch/order (the four lifecycle operations, in lifecycle order) and
// POST /order/bulk-import (a one-time history load) on the batch engine.
import { Decimal } from 'decimal.js';
import { actionFor, completed, defineBatchKind, failed, lastPerKey, type BatchAction } from '../batch/batch.kinds.ts';
import { productNames } from '../catalog/catalog.repository.ts';
import * as repo from './orders.repository.ts';
import { supplierNow } from '../sandbox/sandbox.clocks.ts';
import type { OrderLine } from './orders.rules.ts';
import { BulkImportBody, OrderBatchBody } from './orders.schemas.ts';
import { applyOperations, type Operation, type OperationItem } from './orders.service.ts';

const orderAction = actionFor(OrderBatchBody);
const importAction = actionFor(BulkImportBody);
const route = { scope: 'supplier/order.bulkwrite', tags: ['orders'] };

function lifecycle<Op extends Operation['op']>(op: Op): BatchAction {
  return orderAction<OperationItem<Op>>({
    name: op,
    select: (body) => body[op],
    code: (item) => String(item.id),
    async apply(trx, supplierId, items) {
      // The supplier's time: a test twin's clock may have been moved (src/modules/sandbox).
      const at = (await supplierNow(trx, supplierId)).toISOString();
      const outcomes = await applyOperations(trx, supplierId, items.map((item) => ({ ...item, op }) as Operation), at);
      return outcomes.map((o) => (o.ok ? completed : failed(o.error.code, o.error.message)));
    },
  });
}

export const orderBatchKind = defineBatchKind({
  endpoint: '/batch/order',
  body: OrderBatchBody,
  route: { ...route, summary: 'Confirm, deliver, return and cancel many orders (asynchronous)' },
  actions: () => [lifecycle('confirm'), lifecycle('deliver'), lifecycle('return'), lifecycle('cancel')],
});

/** A calendar date alone means the start of that day (UTC); a timestamp is taken as given. */
const timestamp = (value: string) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.000Z` : value);

const importOrders = importAction({
  name: 'orders',
  select: (body) => body.orders,
  code: (o) => o.externalId ?? `${o.storeInternalCode}/${o.createdAt}`,
  async apply(trx, supplierId, items) {
    const stores = await repo.storesByCode(trx, supplierId, [...new Set(items.map((o) => o.storeInternalCode))]);
    const names = await productNames(trx, supplierId, [...new Set(items.flatMap((o) => o.products.map((p) => p.internalCode)))]);
    const rows: repo.NewOrder[] = [];
    const outcomes = items.map((o) => {
      const store = stores.get(o.storeInternalCode);
      if (!store) return failed('UNKNOWN_STORE', `store ${o.storeInternalCode} does not exist`);
      const at = timestamp(o.createdAt);
      if (Number.isNaN(at.getTime())) return failed('INVALID_FORMAT', `createdAt ${o.createdAt} is not a date or timestamp`);
      const delivered = o.status === 'DELIVERED' || o.status === 'RETURNED';
      const lines: OrderLine[] = o.products.map((p) => {
        const subtotal = new Decimal(p.unitPrice).times(p.quantity).toNumber();
        return {
          internalCode: p.internalCode,
          name: names.get(p.internalCode) ?? null,
          units: p.units,
          quantity: p.quantity,
          unitPrice: p.unitPrice,
          subtotal,
          discount: 0,
          total: subtotal,
          deliveredQuantity: delivered ? p.quantity : 0,
          returnedQuantity: o.status === 'RETURNED' ? p.quantity : 0,
        };
      });
      const subtotal = lines.reduce((sum, l) => sum.plus(l.subtotal), new Decimal(0));
      const total = o.total === undefined ? subtotal : new Decimal(o.total);
      rows.push({
        supplier_id: supplierId,
        store_id: store.id,
        status: o.status,
        external_id: o.externalId ?? null,
        imported: true,
        buyer: { storeInternalCode: o.storeInternalCode, storeName: store.name, legalName: store.legal_name, legalId: store.legal_id, user: null },
        address: null,
        price_list_code: null,
        products: lines,
        promotions: { rewards: [], discounts: [] },
        subtotal: subtotal.toString(),
        // An imported total below the lines' sum is read as a discount the ERP gave.
        discount_total: Decimal.max(subtotal.minus(total), 0).toString(),
        total: total.toString(),
        notes: null,
        history: [{ status: o.status, at: at.toISOString(), by: 'IMPORT' }],
        placed_by: null,
        created_at: at.toISOString(),
      });
      return completed;
    });
    // Re-importing an externalId updates that order; inside one chunk the last one wins.
    const withId = lastPerKey(rows.filter((r) => r.external_id !== null), (r) => r.external_id!);
    await repo.upsertImported(trx, [...withId, ...rows.filter((r) => r.external_id === null)]);
    return outcomes;
  },
});

export const orderImportKind = defineBatchKind({
  endpoint: '/order/bulk-import',
  body: BulkImportBody,
  route: { ...route, summary: 'One-time load of historical orders (asynchronous; never for live orders; re-importing an externalId updates it)' },
  actions: () => [importOrders],
});
