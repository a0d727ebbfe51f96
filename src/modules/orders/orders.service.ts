// The supplier's side of orders: read, list, and move them through their lifecycle, one
// at a time or many in a batch. Both paths run `applyOperations`, so an item of
// POST /batch/order succeeds or fails exactly as the single endpoint would.
import type { Kysely, Transaction } from 'kysely';
import type { Static } from 'typebox';
import type { CancelCode, DB } from '../../db/types.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { page } from '../../lib/pagination.ts';
import { recordNotifications } from '../notifications/notifications.service.ts';
import type { NotificationType } from '../notifications/notifications.types.ts';
import { cancelCodes } from './cancel-codes.ts';
import * as repo from './orders.repository.ts';
import type { Order } from './orders.schemas.ts';
import * as rules from './orders.rules.ts';

const money = (value: string | number) => Number(value);

export type OrderJson = Static<typeof Order>;

/** The order as every API and webhook shows it; its JSON columns were written in this shape. */
export function orderView(row: repo.OrderRow): OrderJson {
  return {
    id: row.id,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    externalId: row.external_id,
    buyer: row.buyer as OrderJson['buyer'],
    address: row.address as OrderJson['address'],
    priceListCode: row.price_list_code,
    products: row.products as OrderJson['products'],
    promotions: row.promotions as OrderJson['promotions'],
    subtotal: money(row.subtotal),
    discountTotal: money(row.discount_total),
    total: money(row.total),
    deliveryDate: row.delivery_date,
    notes: row.notes,
    cancellation: row.cancellation as OrderJson['cancellation'],
    history: row.history as OrderJson['history'],
  };
}

export async function getOrder(db: Kysely<DB>, supplierId: number, id: number) {
  const row = await repo.findOrder(db, supplierId, id);
  if (!row) throw notFound('order', String(id), '/params/id');
  return orderView(row);
}

export async function listOrders(db: Kysely<DB>, supplierId: number, query: repo.OrderListQuery, timezone: string) {
  const { rows, total } = await repo.listOrders(db, supplierId, query, timezone);
  return page(rows.map(orderView), total, query.page, query.take);
}

export type Operation =
  | { op: 'confirm'; id: number; deliveryDate?: string }
  | { op: 'deliver'; id: number; complete?: boolean; products?: rules.QuantityInput[] }
  | { op: 'return'; id: number; complete?: boolean; products?: rules.QuantityInput[]; reason?: string }
  | { op: 'cancel'; id: number; cancelCode: string; message?: string };

const NOTIFY: Partial<Record<Operation['op'], NotificationType>> = { confirm: 'ORDER_CONFIRMED', deliver: 'ORDER_DELIVERED', cancel: 'ORDER_CANCELLED' };

export type OperationOutcome = { ok: true } | { ok: false; error: AppError };

const stateOf = (row: repo.OrderRow): rules.OrderState => ({
  status: row.status,
  products: row.products as rules.OrderLine[],
  deliveryDate: row.delivery_date,
  cancellation: row.cancellation as rules.Cancellation | null,
  history: row.history as rules.HistoryEntry[],
});

function step(state: rules.OrderState, operation: Operation, codes: readonly CancelCode[], at: string): rules.OrderState {
  switch (operation.op) {
    case 'confirm':
      return rules.confirm(state, operation, at);
    case 'deliver':
      return rules.deliver(state, operation, at);
    case 'return':
      return rules.returnGoods(state, operation, at);
    case 'cancel': {
      const code = codes.find((c) => c.code === operation.cancelCode && c.usage === 'SUPPLIER');
      if (!code) {
        throw new AppError('INVALID_CANCEL_CODE', `${operation.cancelCode} is not a cancellation code for the supplier`, {
          errors: [{ pointer: '/cancelCode', code: 'INVALID_CANCEL_CODE', message: 'not one of the supplier cancellation codes' }],
        });
      }
      return rules.cancel(state, 'SUPPLIER', { code: code.code, reason: code.reason, message: operation.message ?? null }, at);
    }
  }
}

/**
 * Applies operations in order inside the caller's transaction: the orders are locked
 * with one query and written back with one statement; operations on the same order see
 * each other's effect. A supplier's change sends no webhook (the supplier made it).
 */
export async function applyOperations(trx: Transaction<DB>, supplierId: number, operations: Operation[], at: string): Promise<OperationOutcome[]> {
  const rows = await repo.lockOrders(trx, supplierId, [...new Set(operations.map((o) => o.id))]);
  const states = new Map(rows.map((r) => [r.id, stateOf(r)]));
  const codes = operations.some((o) => o.op === 'cancel') ? await cancelCodes(trx, supplierId) : [];
  const changed = new Set<number>();
  const outcomes = operations.map((operation): OperationOutcome => {
    const state = states.get(operation.id);
    if (!state) return { ok: false, error: notFound('order', String(operation.id), '/params/id') };
    try {
      states.set(operation.id, step(state, operation, codes, at));
      changed.add(operation.id);
      return { ok: true };
    } catch (error) {
      if (error instanceof AppError) return { ok: false, error };
      throw error;
    }
  });
  // The store hears of every confirmation, delivery and cancellation the supplier made.
  await recordNotifications(
    trx,
    operations.flatMap((operation, n) => {
      const type = NOTIFY[operation.op];
      const store = rows.find((r) => r.id === operation.id)?.store_id;
      if (!outcomes[n]!.ok || !type || store === undefined) return [];
      return [{ supplierId, storeId: store, type, orderId: operation.id, message: operation.op === 'cancel' ? (operation.message ?? null) : null }];
    }),
  );
  await repo.saveChanges(
    trx,
    supplierId,
    [...changed].map((id) => {
      const s = states.get(id)!;
      return { id, status: s.status, products: s.products, delivery_date: s.deliveryDate, cancellation: s.cancellation, history: s.history };
    }),
  );
  return outcomes;
}

export async function operate(db: Kysely<DB>, supplierId: number, operation: Operation, at: string) {
  const [outcome] = await db.transaction().execute((trx) => applyOperations(trx, supplierId, [operation], at));
  if (!outcome!.ok) throw outcome!.error;
  return getOrder(db, supplierId, operation.id);
}
