// The supplier's side of orders: read, list, and move them through their lifecycle, one
// at a time or many in a batch. Both paths run `applyOperations`, so an item of
// POST /batch/order succeeds or fails exactly as the single endpoint would.
import type { Kysely, Transaction } from 'kysely';
import type { Static } from 'typebox';
import type { CancelCode, CreditHold, DB, OrderSeller, PaymentMethod } from '../../db/types.ts';
import { GroupCommit } from '../../db/group-commit.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { page } from '../../lib/pagination.ts';
import { recordNotifications } from '../store-app/store-app.notifications.ts';
import type { NotificationType } from '../store-app/store-app.notifications.types.ts';
import { cancelCodes, requireCancelCode, unknownCancelCode } from './cancel-codes.ts';
import { creationEvent, recordCreations, recordEvent, type NewEventAbout } from '../webhooks/webhooks.events.ts';
import * as repo from './orders.repository.ts';
import type { Order, OrderBatchBody } from './orders.schemas.ts';
import * as rules from './orders.rules.ts';

const money = (value: string | number) => Number(value);

export type OrderJson = Static<typeof Order>;

/** A stored address without a street is the empty object an earlier bug saved for every store order: none. */
const addressOf = (stored: unknown) =>
  stored && typeof stored === 'object' && 'street' in stored ? (stored as NonNullable<OrderJson['address']>) : null;

/** The order as every API and webhook shows it; its JSON columns were written in this shape. */
/** What an order's answer is made of: a stored row, or one about to be written. */
type OrderViewSource = Omit<
  repo.OrderRow,
  'store_code' | 'supplier_id' | 'store_id' | 'imported' | 'placed_by' | 'updated_at' | 'subtotal' | 'discount_total' | 'total' | 'delivery_zone_id' | 'delivery_fee'
> & {
  subtotal: string | number;
  discount_total: string | number;
  total: string | number;
  delivery_fee: string | number | null;
  /** Read for the channel (ERP_IMPORT); absent: not imported (a store order about to be written). */
  imported?: boolean;
};

/**
 * `currencyDecimals` (CURRENCY_DECIMALS): with it, a delivered order also answers
 * `deliveredTotal`, what the store keeps (orders.rules.ts, keptTotal). The answers to the
 * store and to the supplier pass it; an event's body is written before any delivery.
 */
export function orderView(row: OrderViewSource, currencyDecimals?: number): OrderJson {
  return {
    id: row.id,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    externalId: row.external_id,
    buyer: row.buyer as OrderJson['buyer'],
    address: addressOf(row.address),
    priceListCode: row.price_list_code,
    products: row.products as OrderJson['products'],
    promotions: row.promotions as OrderJson['promotions'],
    subtotal: money(row.subtotal),
    discountTotal: money(row.discount_total),
    // Only an order charged a zone's fee has it (src/modules/pricing/README.md, "Minimum order").
    ...(row.delivery_fee === null ? {} : { deliveryFee: money(row.delivery_fee) }),
    total: money(row.total),
    // Once delivered: what the store keeps, at each line's net price (issue 34: a partial delivery changes what is paid).
    ...((row.status === 'DELIVERED' || row.status === 'RETURNED') && currencyDecimals !== undefined
      ? { deliveredTotal: rules.keptTotal(row.products as rules.OrderLine[], currencyDecimals) }
      : {}),
    deliveryDate: row.delivery_date,
    // Only an order placed under a delivery zone has it: every other order answers as before.
    ...(row.after_cutoff === null ? {} : { afterCutoff: row.after_cutoff }),
    // Only an order of a store with payment methods has them (src/modules/credit/README.md).
    ...(row.payment_method === null
      ? {}
      : { paymentMethod: row.payment_method, paymentStatus: row.payment_status ?? 'NOT_INVOICED', ...(row.credit_hold === null ? {} : { creditHold: row.credit_hold as NonNullable<OrderJson['creditHold']> }) }),
    notes: row.notes,
    cancellation: row.cancellation as OrderJson['cancellation'],
    history: row.history as OrderJson['history'],
    // Only on an order a seller placed or the ERP imported (README.md, "Channels"): a store
    // user's order answers as before, and an answer without `channel` is STORE_APP.
    ...(row.seller !== null ? { placedBy: row.seller, channel: 'SELLER' as const } : row.imported ? { channel: 'ERP_IMPORT' as const } : {}),
  };
}

export async function getOrder(db: Kysely<DB>, supplierId: number, id: number, currencyDecimals?: number) {
  const row = await repo.findOrder(db, supplierId, id);
  if (!row) throw notFound('order', String(id), '/params/id');
  return orderView(row, currencyDecimals);
}

export async function listOrders(db: Kysely<DB>, supplierId: number, query: repo.OrderListQuery, timezone: string, currencyDecimals?: number) {
  const { rows, total } = await repo.listOrders(db, supplierId, query, timezone);
  return page(
    rows.map((row) => orderView(row, currencyDecimals)),
    total,
    query.page,
    query.take,
  );
}

type OrderBatch = Static<typeof OrderBatchBody>;
/** One lifecycle operation: an item of POST /batch/order's node `op` (the single routes send the same shape), typed by its schema. */
export type OperationItem<Op extends keyof OrderBatch> = NonNullable<OrderBatch[Op]>[number];
export type Operation = { [Op in keyof OrderBatch]-?: { op: Op } & OperationItem<Op> }[keyof OrderBatch];

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
      if (!code) throw unknownCancelCode(codes, operation.cancelCode, 'SUPPLIER');
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
  const held = new Set(rows.filter((r) => r.credit_hold !== null).map((r) => r.id));
  const codes = operations.some((o) => o.op === 'cancel') ? await cancelCodes(trx, supplierId) : [];
  const changed = new Set<number>();
  const outcomes = operations.map((operation): OperationOutcome => {
    const state = states.get(operation.id);
    if (!state) return { ok: false, error: notFound('order', String(operation.id), '/params/id') };
    // An order on credit hold waits for the supplier's release (src/modules/credit): confirming it would take credit the store lacks.
    if (operation.op === 'confirm' && state.status === 'PENDING' && held.has(operation.id)) {
      return { ok: false, error: new AppError('CREDIT_HOLD', `order ${operation.id} is on credit hold: release it (PUT /order/${operation.id}/release) or cancel it`) };
    }
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
      // A delivery says how much came, so a partial one is not told as the whole order (issue 34).
      const packages = operation.op === 'deliver' ? rules.packagesDelivered(states.get(operation.id)!.products) : undefined;
      return [{ supplierId, storeId: store, type, orderId: operation.id, message: operation.op === 'cancel' ? (operation.message ?? null) : null, ...(packages ? { packages } : {}) }];
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

export async function operate(db: Kysely<DB>, supplierId: number, operation: Operation, at: string, currencyDecimals?: number) {
  const [outcome] = await inTransaction(db, (trx) => applyOperations(trx, supplierId, [operation], at));
  if (!outcome!.ok) throw outcome!.error;
  return getOrder(db, supplierId, operation.id, currencyDecimals);
}

// The store's side (src/modules/store-app calls these): an order placed from a priced cart,
// and a store's cancellation while PENDING. Placing an order and recording its
// order.created event are one statement, and so are a store's cancellation and its
// order.cancelled event: an order exists if and only if its webhook is queued.

/** Any order by id, with its supplier and store (the store app checks the person's membership of that store). */
export async function orderById(db: Kysely<DB>, id: number, currencyDecimals?: number) {
  const row = await repo.findOrderById(db, id);
  return row && { supplierId: row.supplier_id, storeId: row.store_id, view: orderView(row, currencyDecimals) };
}

/** A store's order as the store side hands it over: priced, PENDING, its id not yet known. */
export type StoreOrder = repo.PlacedOrder &
  Pick<repo.NewOrder, 'buyer' | 'address' | 'price_list_code' | 'products' | 'promotions' | 'notes' | 'history'> & {
    created_at: string;
    /** The delivery the store asked for or was given (src/modules/delivery); absent or null: none, no flag. */
    delivery_date?: string | null;
    after_cutoff?: boolean | null;
    /** The fee of a zone's minimum in mode fee, already in `total`; absent or null: none. */
    delivery_fee?: number | null;
    /** How the store pays (src/modules/credit); absent or null: the store has no payment methods. */
    payment_method?: PaymentMethod | null;
    /** An order on credit sent for approval (src/modules/credit); absent or null: not held. */
    credit_hold?: CreditHold | null;
    /** The seller who placed it (src/modules/sellers); absent or null: the store's own user. */
    seller?: OrderSeller | null;
  };

/** A store's order ready to be written: its row's own columns, its answer and its order.created event. */
interface OrderToPlace {
  order: repo.PlacedOrder;
  view: OrderJson;
  event: NewEventAbout;
}

/**
 * Inserts store orders and the order.created event of each; answers each order as stored.
 * The orders, their events and the events' deliveries are one statement (recordCreations):
 * written together or not at all, in one round trip and one commit, each id drawn by the
 * database and written into its event's body by SQL. Each answer is built once; its JSON
 * is the event's body and the source of the row's JSON columns (placedOrdersInsert), so
 * the answer, the row and the webhook cannot differ.
 */
async function placeStoreOrders(db: Kysely<DB>, orders: OrderToPlace[]): Promise<OrderJson[]> {
  const created = await recordCreations(
    db,
    'order.created',
    { table: 'orders', keyPrefix: 'order:', insert: (resource) => repo.placedOrdersInsert(orders.map((o) => o.order), resource) },
    orders.map((o) => o.event),
  );
  return created.map(({ id }, n) => ({ ...orders[n]!.view, id }));
}

/**
 * At most 12 orders a statement (about 75 kB of JSON), up to four statements at once, and
 * while one is being written the next starts only once 6 orders wait, else when a group
 * ends. The cap keeps several groups going round: with room for 64, one group took nearly
 * every waiting order (20 – 32 of 32 connections), so the requests moved in step, Node
 * pricing the next orders while PostgreSQL idled and PostgreSQL writing while Node idled;
 * with 12, one group is written while Node prices the orders of the next (order ÷ cart
 * 0.45 became 0.54 – 0.56). Smaller groups (started at 2 waiting) cost PostgreSQL more per
 * order than they overlap; one group at a time tied every order to the commit's latency.
 * docs/benchmarks.md, `bench:orders`.
 */
const PLACEMENT_GROUPS = { maxItems: 12, maxInFlight: 4, minItemsWhileBusy: 6 };

export type StoreOrderPlacer = (order: StoreOrder) => Promise<OrderJson>;

/**
 * Places a store's order, answered once it is durably stored with its event. The orders
 * of the requests that arrive together are written together (GroupCommit, src/db): under
 * load an order's cost is mostly its statement's and its commit's, not its rows'. An
 * order the database refuses fails alone. Built once per process, over its pool.
 */
export function storeOrderPlacer(db: Kysely<DB>): StoreOrderPlacer {
  const group = new GroupCommit((orders: OrderToPlace[]) => placeStoreOrders(db, orders), PLACEMENT_GROUPS);
  return (order) => group.submit(toPlace(order));
}

/**
 * The order's answer and event, built before its id is known; the id keeps its place
 * (first) when it is set. The event is made here, in the request's context, so its
 * delivery carries its trace.
 */
function toPlace(order: StoreOrder): OrderToPlace {
  const view = orderView({
    ...order,
    id: 0,
    status: 'PENDING',
    external_id: null,
    created_at: new Date(order.created_at),
    delivery_date: order.delivery_date ?? null,
    after_cutoff: order.after_cutoff ?? null,
    delivery_fee: order.delivery_fee ?? null,
    payment_method: order.payment_method ?? null,
    credit_hold: order.credit_hold ?? null,
    seller: order.seller ?? null,
    payment_status: null,
    cancellation: null,
  });
  return { order, view, event: creationEvent(order.supplier_id, view) };
}

/**
 * Places a store's order whose minimum counts the store's other orders for its delivery
 * date (README.md, "A top-up order"): in one transaction, under the store's row lock, it
 * reads what the store's orders for that date add up to (not cancelled), lets `settle`
 * decide with it (refuse, charge the fee, or place as it is), and writes the order and
 * its event. Two such orders of one store are therefore checked one after the other, the
 * second counting the first. Not group-committed: only an order that alone is below its
 * minimum comes here; every other order takes the group placer, with no extra read.
 */
export async function placeCountingOtherOrders(db: Kysely<DB>, storeId: number, deliveryDate: string, settle: (alreadyOrdered: string) => StoreOrder): Promise<OrderJson> {
  return inTransaction(db, async (trx) => {
    // A store deleted meanwhile: no lock to take, and the insert's foreign key refuses the order.
    await repo.lockStoreForPlacement(trx, storeId);
    return placeStoreOrderIn(trx, settle(await repo.orderedForDate(trx, storeId, deliveryDate)));
  });
}

/** Places one store order (with its order.created event) inside the caller's transaction, which holds the lock its check needs. */
export async function placeStoreOrderIn(trx: Transaction<DB>, order: StoreOrder): Promise<OrderJson> {
  const [placed] = await placeStoreOrders(trx, [toPlace(order)]);
  return placed!;
}

/** The store cancels its order with one of the supplier's STORE codes; records order.cancelled. */
export async function cancelAsStore(db: Kysely<DB>, supplierId: number, orderId: number, input: { cancelCode: string; message?: string }, at: string) {
  const code = await requireCancelCode(db, supplierId, input.cancelCode, 'STORE');
  await db.transaction().execute(async (trx) => {
    const [row] = await repo.lockOrders(trx, supplierId, [orderId]);
    const state = rules.cancel(
      { status: row!.status, products: row!.products as rules.OrderLine[], deliveryDate: row!.delivery_date, cancellation: null, history: row!.history as rules.HistoryEntry[] },
      'STORE',
      { code: code.code, reason: code.reason, message: input.message ?? null },
      at,
    );
    await repo.saveChanges(trx, supplierId, [
      { id: orderId, status: state.status, products: state.products, delivery_date: state.deliveryDate, cancellation: state.cancellation, history: state.history },
    ]);
    const updated = (await repo.findOrder(trx, supplierId, orderId))!;
    await recordEvent(trx, { supplierId, type: 'order.cancelled', orderingKey: `order:${orderId}`, body: orderView(updated) });
  });
}
