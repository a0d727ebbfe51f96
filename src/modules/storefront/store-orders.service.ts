// A store's orders: placed from the priced cart, listed, read and cancelled while PENDING.
// Placing an order and recording its order.created event are one transaction, and so are
// a store's cancellation and its order.cancelled event: an order exists if and only if
// its webhook is queued (store-app.md).
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { page } from '../../lib/pagination.ts';
import { requireCancelCode } from '../orders/cancel-codes.ts';
import * as orders from '../orders/orders.repository.ts';
import * as rules from '../orders/orders.rules.ts';
import { orderView } from '../orders/orders.service.ts';
import { priceCart } from '../pricing/pricing.engine.ts';
import type { CartLine } from '../pricing/pricing.types.ts';
import { recordEvent } from '../webhooks/webhooks.events.ts';
import { pricingInputFor } from './pricing-context.ts';
import { membershipOf, productsByCode, storePriceList, type StoreOfPerson } from './storefront.repository.ts';
import { refusalOf, requireStore, type StorefrontContext } from './storefront.service.ts';

export interface PlaceOrderInput {
  lines: CartLine[];
  address?: object;
  notes?: string;
}

function defaultAddress(store: StoreOfPerson) {
  const addresses = store.addresses as { default?: boolean }[];
  return addresses.find((a) => a.default) ?? addresses[0] ?? null;
}

export async function placeOrder(ctx: StorefrontContext, personId: number, storeId: number, input: PlaceOrderInput, at: string) {
  const store = await requireStore(ctx.db, personId, storeId);
  if (!store.enabled) throw new AppError('STORE_DISABLED', 'this store is disabled and cannot place orders');
  const id = await ctx.db.transaction().execute(async (trx) => {
    // Priced inside the transaction, exactly as the preview prices it, and stored as computed.
    const pricingInput = await pricingInputFor(trx, store, input.lines, ctx.today, ctx.currencyDecimals);
    const result = priceCart(pricingInput);
    const refusal = refusalOf(result);
    if (refusal) throw refusal;
    // The buyer as the supplier knows them: never what another supplier registered.
    const [person, products] = await Promise.all([
      membershipOf(trx, store.id, personId),
      productsByCode(trx, store.supplier_id, result.lines.map((l) => l.productInternalCode)),
    ]);
    const names = new Map(products.map((p) => [p.internal_code, p.name]));
    const lines: rules.OrderLine[] = result.lines.map((l) => {
      if ('error' in l) throw new Error('a refused line reached placement');
      return { internalCode: l.productInternalCode, name: names.get(l.productInternalCode) ?? null, units: l.units, quantity: l.quantity, unitPrice: l.unitPrice, subtotal: l.subtotal, discount: l.discount, total: l.total, deliveredQuantity: 0, returnedQuantity: 0 };
    });
    const priceList = await storePriceList(trx, store.supplier_id, store.internal_code);
    const orderId = await orders.insertOrder(trx, {
      supplier_id: store.supplier_id,
      store_id: store.id,
      status: 'PENDING',
      external_id: null,
      imported: false,
      buyer: {
        storeInternalCode: store.internal_code,
        storeName: store.name,
        legalName: store.legal_name,
        legalId: store.legal_id,
        user: person ? { name: person.name, phone: person.phone, email: person.email } : null,
      },
      address: input.address ?? defaultAddress(store),
      price_list_code: priceList?.internal_code ?? null,
      products: lines,
      promotions: { rewards: result.rewards, discounts: result.discounts },
      subtotal: result.subtotal,
      discount_total: result.discountTotal,
      total: result.total,
      notes: input.notes ?? null,
      history: [{ status: 'PENDING', at, by: 'STORE' }],
      placed_by: personId,
      created_at: at,
    });
    const row = (await orders.findOrder(trx, store.supplier_id, orderId))!;
    await recordEvent(trx, { supplierId: store.supplier_id, type: 'order.created', orderingKey: `order:${orderId}`, body: orderView(row) });
    return orderId;
  });
  ctx.wake();
  return orderView((await orders.findOrder(ctx.db, store.supplier_id, id))!);
}

/** An order of one of the person's stores, or 404. */
async function requireOrderOfPerson(db: Kysely<DB>, personId: number, orderId: number) {
  const row = await orders.findOrderOfPerson(db, personId, orderId);
  if (!row) throw notFound('order', String(orderId), '/params/id');
  return row;
}

export async function getStoreOrder(db: Kysely<DB>, personId: number, orderId: number) {
  return orderView(await requireOrderOfPerson(db, personId, orderId));
}

export async function listStoreOrders(db: Kysely<DB>, personId: number, storeId: number, query: { take: number; page: number }, timezone: string) {
  const store = await requireStore(db, personId, storeId);
  const { rows, total } = await orders.listOrders(db, store.supplier_id, { ...query, storeId: store.id }, timezone);
  return page(rows.map(orderView), total, query.page, query.take);
}

export async function cancelStoreOrder(ctx: StorefrontContext, personId: number, orderId: number, input: { cancelCode: string; message?: string }, at: string) {
  const { db } = ctx;
  const found = await requireOrderOfPerson(db, personId, orderId);
  const code = await requireCancelCode(db, found.supplier_id, input.cancelCode, 'STORE');
  await db.transaction().execute(async (trx) => {
    const [row] = await orders.lockOrders(trx, found.supplier_id, [orderId]);
    const state = rules.cancel(
      { status: row!.status, products: row!.products as rules.OrderLine[], deliveryDate: row!.delivery_date, cancellation: null, history: row!.history as rules.HistoryEntry[] },
      'STORE',
      { code: code.code, reason: code.reason, message: input.message ?? null },
      at,
    );
    await orders.saveChanges(trx, found.supplier_id, [
      { id: orderId, status: state.status, products: state.products, delivery_date: state.deliveryDate, cancellation: state.cancellation, history: state.history },
    ]);
    const updated = (await orders.findOrder(trx, found.supplier_id, orderId))!;
    await recordEvent(trx, { supplierId: found.supplier_id, type: 'order.cancelled', orderingKey: `order:${orderId}`, body: orderView(updated) });
  });
  ctx.wake();
  return getStoreOrder(db, personId, orderId);
}
