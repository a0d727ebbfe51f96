import { sql, type Kysely, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { DB, OrdersTable, OrderStatus } from '../../db/types.ts';
import { offsetPage } from '../../db/paging.ts';
import { containsText, idIn } from '../../db/sql.ts';
import { paymentStatusOf } from '../credit/credit.repository.ts';

type Executor = Kysely<DB> | Transaction<DB>;
export type OrderRow = Omit<Selectable<OrdersTable>, 'delivery_zone_id'> & {
  store_code: string;
  /** Read from the invoices naming the order (src/modules/credit); null for an order without a payment method. */
  payment_status: 'NOT_INVOICED' | 'INVOICED' | 'PARTIALLY_PAID' | 'PAID' | null;
};

const columns = [
  'o.id',
  'o.supplier_id',
  'o.store_id',
  'o.status',
  'o.external_id',
  'o.imported',
  'o.buyer',
  'o.address',
  'o.price_list_code',
  'o.products',
  'o.promotions',
  'o.subtotal',
  'o.discount_total',
  'o.total',
  'o.delivery_date',
  'o.after_cutoff',
  'o.delivery_fee',
  'o.payment_method',
  'o.credit_hold',
  paymentStatusOf('o').as('payment_status'),
  'o.notes',
  'o.cancellation',
  'o.history',
  'o.placed_by',
  'o.seller',
  'o.created_at',
  'o.updated_at',
  's.internal_code as store_code',
] as const;

function base(db: Executor) {
  return db.selectFrom('orders as o').innerJoin('stores as s', 's.id', 'o.store_id').select(columns);
}

export async function findOrder(db: Executor, supplierId: number, id: number): Promise<OrderRow | undefined> {
  return base(db).where('o.supplier_id', '=', supplierId).where('o.id', '=', id).executeTakeFirst();
}

/** Any supplier's order by id (the store app then checks the person's membership of its store). */
export async function findOrderById(db: Executor, id: number): Promise<OrderRow | undefined> {
  return base(db).where('o.id', '=', id).executeTakeFirst();
}

/** The orders of one chunk or request, locked for their lifecycle change. */
export async function lockOrders(trx: Transaction<DB>, supplierId: number, ids: number[]): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  return base(trx)
    .where('o.supplier_id', '=', supplierId)
    .where(idIn('o.id', ids))
    .forUpdate('o')
    .execute();
}

export interface OrderListQuery {
  status?: OrderStatus;
  from?: string;
  to?: string;
  storeInternalCode?: string;
  /** Part of the store's name or code, case-insensitive (`%` and `_` are characters). */
  store?: string;
  storeId?: number;
  deliveryDate?: string;
  /** A delivery zone's code: the orders placed for it (orders.delivery_zone_id). */
  deliveryZone?: string;
  take: number;
  page: number;
}

/** Newest first; `from`/`to` are calendar days of creation in the platform's timezone. */
export async function listOrders(db: Executor, supplierId: number | undefined, q: OrderListQuery, timezone: string) {
  let query = db.selectFrom('orders as o').innerJoin('stores as s', 's.id', 'o.store_id');
  if (supplierId !== undefined) query = query.where('o.supplier_id', '=', supplierId);
  if (q.storeId !== undefined) query = query.where('o.store_id', '=', q.storeId);
  if (q.status) query = query.where('o.status', '=', q.status);
  if (q.storeInternalCode) query = query.where('s.internal_code', '=', q.storeInternalCode);
  if (q.store) query = query.where(containsText(['s.name', 's.internal_code'], q.store));
  if (q.from) query = query.where(sql<boolean>`(o.created_at at time zone ${timezone})::date >= ${q.from}::date`);
  if (q.to) query = query.where(sql<boolean>`(o.created_at at time zone ${timezone})::date <= ${q.to}::date`);
  if (q.deliveryDate) query = query.where('o.delivery_date', '=', q.deliveryDate);
  if (q.deliveryZone) {
    const zone = q.deliveryZone;
    query = query.where(sql<boolean>`o.delivery_zone_id = (select z.id from delivery_zones z where z.supplier_id = o.supplier_id and z.internal_code = ${zone})`);
  }
  return offsetPage(query, (page) => page.select(columns).orderBy('o.id', 'desc'), q);
}

export interface OrderChange {
  id: number;
  status: OrderStatus;
  products: unknown[];
  delivery_date: string | null;
  cancellation: unknown;
  history: unknown[];
}

/** Writes lifecycle changes of many orders in one statement. */
export async function saveChanges(trx: Transaction<DB>, supplierId: number, changes: OrderChange[]) {
  if (changes.length === 0) return;
  await sql`
    update orders o set
      status = c.status, products = c.products, delivery_date = c.delivery_date::date,
      cancellation = c.cancellation, history = c.history, updated_at = now()
    from json_to_recordset(${JSON.stringify(changes)}::json)
      as c(id bigint, status text, products jsonb, delivery_date text, cancellation jsonb, history jsonb)
    where o.supplier_id = ${supplierId} and o.id = c.id`.execute(trx);
}

export interface NewOrder {
  supplier_id: number;
  store_id: number;
  status: OrderStatus;
  external_id: string | null;
  imported: boolean;
  buyer: unknown;
  address: unknown;
  price_list_code: string | null;
  products: unknown[];
  promotions: unknown;
  subtotal: number | string;
  discount_total: number | string;
  total: number | string;
  notes: string | null;
  history: unknown[];
  placed_by: number | null;
  created_at?: string;
}

/** A store's order as placed: what its answer does not hold, or holds only as a number. */
export interface PlacedOrder {
  supplier_id: number;
  store_id: number;
  placed_by: number;
  /** The pricing engine's exact decimals (the answer's numbers may round them). */
  subtotal: number | string;
  discount_total: number | string;
  total: number | string;
  /** The store's delivery zone when it has one (src/modules/delivery); the date and the flag are the answer's. */
  delivery_zone_id?: number | null;
}

/**
 * What a store's orders for one delivery date add up to (goods after discounts, without
 * their fees), not cancelled: the amount a top-up order counts towards the minimum.
 */
export async function orderedForDate(db: Executor, storeId: number, deliveryDate: string): Promise<string> {
  const row = await db
    .selectFrom('orders')
    .select(sql<string>`coalesce(sum(subtotal - discount_total), 0)::text`.as('ordered'))
    .where('store_id', '=', storeId)
    .where('delivery_date', '=', deliveryDate)
    .where('status', '<>', 'CANCELLED')
    .executeTakeFirstOrThrow();
  return row.ordered;
}

/**
 * Takes the store's row lock for the rest of the transaction (FOR NO KEY UPDATE: an
 * order's foreign key check, FOR KEY SHARE, is not blocked by it), so the top-up orders
 * of one store are checked and written one after another. False when the store is gone.
 */
export async function lockStoreForPlacement(trx: Transaction<DB>, storeId: number): Promise<boolean> {
  const row = await trx.selectFrom('stores').select('id').where('id', '=', storeId).forNoKeyUpdate().executeTakeFirst();
  return row !== undefined;
}

/**
 * The INSERT of store orders, answering their ids. `resource` is a table expression with a
 * row per order (EventsAboutNewRows): `n`, the order's place in `orders` from 1, `id`, the
 * id drawn for it, and `json`, the order as the API answers it (jsonb, camelCase, its id
 * included): what is stored is what was answered, and the order's JSON is sent and parsed
 * once for the row and its event (recordCreations). The status, buyer, address (a null one
 * is SQL null), price list, lines, promotions, notes, history, creation time, delivery date,
 * afterCutoff (absent: null, an order placed without a delivery zone), deliveryFee
 * (absent: null, an order charged none), paymentMethod and creditHold (absent: null, a
 * store without payment methods; an order not held) are the answer's;
 * external_id and imported keep their defaults (null, false).
 */
export function placedOrdersInsert(orders: PlacedOrder[], resource: RawBuilder<unknown>): RawBuilder<unknown> {
  const column = <K extends keyof PlacedOrder>(key: K) => orders.map((o) => o[key]);
  return sql`
    insert into orders (id, supplier_id, store_id, status, buyer, address, price_list_code, products, promotions,
                        subtotal, discount_total, total, notes, history, placed_by, created_at,
                        delivery_date, after_cutoff, delivery_zone_id, delivery_fee, payment_method, credit_hold, seller) overriding system value
    select a.id, o.supplier_id, o.store_id, a.json->>'status', a.json->'buyer', nullif(a.json->'address', 'null'),
           a.json->>'priceListCode', a.json->'products', a.json->'promotions', o.subtotal, o.discount_total,
           o.total, a.json->>'notes', a.json->'history', o.placed_by, (a.json->>'createdAt')::timestamptz,
           (a.json->>'deliveryDate')::date, (a.json->>'afterCutoff')::boolean, o.delivery_zone_id, (a.json->>'deliveryFee')::numeric,
           a.json->>'paymentMethod', a.json->'creditHold', a.json->'placedBy'
    from ${resource} as a
    join unnest(${column('supplier_id')}::bigint[], ${column('store_id')}::bigint[], ${column('placed_by')}::bigint[],
                ${column('subtotal')}::numeric[], ${column('discount_total')}::numeric[], ${column('total')}::numeric[],
                ${orders.map((o) => o.delivery_zone_id ?? null)}::bigint[])
         with ordinality as o(supplier_id, store_id, placed_by, subtotal, discount_total, total, delivery_zone_id, n) on o.n = a.n
    returning id`;
}

/**
 * History import: inserts new orders and updates those whose externalId was imported
 * before, one statement for a whole chunk. Orders without an externalId are always new.
 */
export async function upsertImported(trx: Transaction<DB>, rows: NewOrder[]) {
  if (rows.length === 0) return;
  const json = JSON.stringify(rows.map((r) => ({ ...r, created_at: r.created_at ?? new Date().toISOString() })));
  await sql`
    insert into orders (supplier_id, store_id, status, external_id, imported, buyer, address, price_list_code, products,
                        promotions, subtotal, discount_total, total, notes, history, placed_by, created_at)
    select r.supplier_id, r.store_id, r.status, r.external_id, true, r.buyer, r.address, r.price_list_code, r.products,
           r.promotions, r.subtotal, r.discount_total, r.total, r.notes, r.history, null, r.created_at
    from json_to_recordset(${json}::json) as r(supplier_id bigint, store_id bigint, status text, external_id text,
      buyer jsonb, address jsonb, price_list_code text, products jsonb, promotions jsonb, subtotal numeric,
      discount_total numeric, total numeric, notes text, history jsonb, created_at timestamptz)
    on conflict (supplier_id, external_id) where external_id is not null do update set
      store_id = excluded.store_id, status = excluded.status, buyer = excluded.buyer, products = excluded.products,
      subtotal = excluded.subtotal, discount_total = excluded.discount_total, total = excluded.total,
      history = excluded.history, created_at = excluded.created_at, updated_at = now()`.execute(trx);
}

/** Stores by code with what an order's buyer shows. */
export async function storesByCode(db: Executor, supplierId: number, codes: string[]) {
  if (codes.length === 0) return new Map<string, { id: number; name: string; legal_name: string | null; legal_id: string | null }>();
  const rows = await db
    .selectFrom('stores')
    .select(['id', 'internal_code', 'name', 'legal_name', 'legal_id'])
    .where('supplier_id', '=', supplierId)
    .where(sql<boolean>`internal_code = any(${codes}::text[])`)
    .execute();
  return new Map(rows.map((r) => [r.internal_code, r]));
}
