// Every SQL statement of the sandbox: twins, their clocks, their test inbox and checklist,
// and emptying or filling a twin (README.md).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { offsetPage } from '../../db/paging.ts';

type Executor = Kysely<DB> | Transaction<DB>;

/** NOTIFY channel of every change to a twin's clock (sandbox.clocks.ts forgets on it). */
export const SANDBOX_CLOCK_CHANGED = 'sandbox_clock_changed';

/** The supplier row with its live supplier's id (null: it is live itself). */
export async function findSupplierRow(db: Executor, id: number) {
  return db.selectFrom('suppliers').select(['id', 'code', 'name', 'enabled', 'live_supplier_id']).where('id', '=', id).executeTakeFirst();
}

export async function findTwinOf(db: Executor, liveId: number) {
  return db.selectFrom('suppliers').select(['id', 'code', 'name', 'enabled']).where('live_supplier_id', '=', liveId).executeTakeFirst();
}

/**
 * Makes the live supplier's twin unless it has one: its code, name, state and settings
 * (minimum order, cancel codes). Two callers at once make one twin (the unique key).
 */
export async function insertTwin(db: Executor, liveId: number) {
  await sql`
    insert into suppliers (code, name, enabled, minimum_order, cancel_codes, live_supplier_id)
    select code, name, enabled, minimum_order, cancel_codes, id from suppliers
    where id = ${liveId} and live_supplier_id is null
    on conflict (live_supplier_id) do nothing`.execute(db);
}

// The clock.

/** Every twin's moved time: its offset from real time is set_now - set_at. */
export async function clockRows(db: Executor) {
  return db.selectFrom('sandbox_clocks').select(['supplier_id', 'set_now', 'set_at']).execute();
}

export async function clockRow(db: Executor, supplierId: number) {
  return db.selectFrom('sandbox_clocks').select(['supplier_id', 'set_now', 'set_at']).where('supplier_id', '=', supplierId).executeTakeFirst();
}

/** Sets a twin's time and, in the same transaction, tells every process's clocks to forget. */
export async function saveClock(trx: Transaction<DB>, supplierId: number, setNow: Date, setAt: Date) {
  await trx
    .insertInto('sandbox_clocks')
    .values({ supplier_id: supplierId, set_now: setNow, set_at: setAt })
    .onConflict((oc) => oc.column('supplier_id').doUpdateSet({ set_now: setNow, set_at: setAt }))
    .execute();
  await sql`select pg_notify(${SANDBOX_CLOCK_CHANGED}, '')`.execute(trx);
}

export async function deleteClock(trx: Transaction<DB>, supplierId: number) {
  await trx.deleteFrom('sandbox_clocks').where('supplier_id', '=', supplierId).execute();
  await sql`select pg_notify(${SANDBOX_CLOCK_CHANGED}, '')`.execute(trx);
}

// The test inbox.

export async function inboxPage(db: Executor, supplierId: number, f: { take: number; page: number }) {
  const base = db.selectFrom('messages').where('supplier_id', '=', supplierId);
  return offsetPage(
    base,
    (q) =>
      q
        .select(['id', 'purpose', 'to_kind', 'recipient', 'channel', 'subject', 'body', 'status', 'last_error', 'created_at'])
        .orderBy('id', 'desc'),
    f,
  );
}

// Emptying and filling a twin.

/** Tables with a supplier_id column, and the foreign keys between tables (child, parent). */
export async function supplierTables(db: Executor) {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.columns
    where column_name = 'supplier_id' and table_schema = current_schema()`.execute(db);
  const edges = await sql<{ child: string; parent: string }>`
    select cl.relname as child, pl.relname as parent
    from pg_constraint c
    join pg_class cl on cl.oid = c.conrelid
    join pg_class pl on pl.oid = c.confrelid
    join pg_namespace n on n.oid = c.connamespace
    where c.contype = 'f' and n.nspname = current_schema()`.execute(db);
  const staged = await sql<{ name: string }>`
    select table_name as name from information_schema.columns
    where column_name = 'batch_seq' and table_schema = current_schema()`.execute(db);
  return { tables: tables.rows.map((r) => r.name), edges: edges.rows, staged: staged.rows.map((r) => r.name) };
}

/** The staged chunks of the supplier's batches (tables keyed by batch_seq, with no key to batches). */
export async function deleteStagedChunks(trx: Transaction<DB>, table: string, supplierId: number) {
  await sql`delete from ${sql.table(table)} where batch_seq in (select seq from batches where supplier_id = ${supplierId})`.execute(trx);
}

export async function deleteRowsOf(trx: Transaction<DB>, table: string, supplierId: number) {
  await sql`delete from ${sql.table(table)} where supplier_id = ${supplierId}`.execute(trx);
}

/**
 * Copies the live supplier's catalog, groupers, price lists, stores and promotions (with
 * their links and images) into its empty twin, each row's references resolved by code in
 * the twin; never orders, tickets, store users or anything of people.
 */
export async function copyCatalog(trx: Transaction<DB>, liveId: number, twinId: number) {
  /**
   * `join <table> l<x> on l<x>.id = <ref> join <table> t<x> on ...`: as t<x>, the twin's row
   * of `table` with the code of the live row that `ref` names (a grouper's, with its kind).
   * Only this file's own names are written into the text.
   */
  const twinOf = (table: 'brands' | 'categories' | 'groupers' | 'price_lists' | 'products' | 'promotions', x: string, ref: string) => {
    const kind = table === 'groupers' ? ` and t${x}.kind = l${x}.kind` : '';
    return sql`join ${sql.raw(`${table} l${x} on l${x}.id = ${ref} join ${table} t${x} on t${x}.supplier_id`)} = ${twinId}${sql.raw(`${kind} and t${x}.internal_code = l${x}.internal_code`)}`;
  };
  const statements = [
    sql`update suppliers t set minimum_order = l.minimum_order, cancel_codes = l.cancel_codes, name = l.name, updated_at = now()
        from suppliers l where l.id = ${liveId} and t.id = ${twinId}`,
    sql`insert into images (supplier_id, url, status, attempts, next_attempt_at, error, content_hash, variants)
        select ${twinId}, url, status, attempts, next_attempt_at, error, content_hash, variants from images where supplier_id = ${liveId}`,
    sql`insert into brands (supplier_id, internal_code, name, weight, image, enabled)
        select ${twinId}, internal_code, name, weight, image, enabled from brands where supplier_id = ${liveId}`,
    sql`insert into categories (supplier_id, internal_code, name, weight, image, enabled)
        select ${twinId}, internal_code, name, weight, image, enabled from categories where supplier_id = ${liveId}`,
    sql`update categories t set parent_id = tp.id
        from categories l ${twinOf('categories', 'p', 'l.parent_id')}
        where l.supplier_id = ${liveId} and t.supplier_id = ${twinId} and t.internal_code = l.internal_code`,
    sql`insert into products (supplier_id, internal_code, name, description, brand_id, category_id, image, images, enabled, ean, display_products)
        select ${twinId}, p.internal_code, p.name, p.description, tb.id, tc.id, p.image, p.images, p.enabled, p.ean, p.display_products
        from products p
        ${twinOf('brands', 'b', 'p.brand_id')}
        ${twinOf('categories', 'c', 'p.category_id')}
        where p.supplier_id = ${liveId}`,
    sql`insert into price_lists (supplier_id, internal_code, name, enabled)
        select ${twinId}, internal_code, name, enabled from price_lists where supplier_id = ${liveId}`,
    sql`insert into price_entries (supplier_id, price_list_id, product_id, units, price)
        select ${twinId}, tl.id, tp.id, e.units, e.price
        from price_entries e
        ${twinOf('price_lists', 'l', 'e.price_list_id')}
        ${twinOf('products', 'p', 'e.product_id')}
        where e.supplier_id = ${liveId}`,
    sql`insert into stores (supplier_id, internal_code, name, legal_name, legal_id, owner_name, phone, email, addresses, drop_size, enabled)
        select ${twinId}, internal_code, name, legal_name, legal_id, owner_name, phone, email, addresses, drop_size, enabled from stores where supplier_id = ${liveId}`,
    sql`insert into price_list_stores (supplier_id, store_code, price_list_id)
        select ${twinId}, s.store_code, tl.id
        from price_list_stores s ${twinOf('price_lists', 'l', 's.price_list_id')}
        where s.supplier_id = ${liveId}`,
    sql`insert into groupers (supplier_id, kind, internal_code, name, enabled)
        select ${twinId}, kind, internal_code, name, enabled from groupers where supplier_id = ${liveId}`,
    sql`insert into grouper_stores (supplier_id, grouper_id, kind, store_code)
        select ${twinId}, tg.id, s.kind, s.store_code
        from grouper_stores s ${twinOf('groupers', 'g', 's.grouper_id')}
        where s.supplier_id = ${liveId}`,
    sql`insert into stock_rules (supplier_id, grouper_id, product_id, units, available)
        select ${twinId}, tg.id, tp.id, r.units, r.available
        from stock_rules r
        ${twinOf('groupers', 'g', 'r.grouper_id')}
        ${twinOf('products', 'p', 'r.product_id')}
        where r.supplier_id = ${liveId}`,
    sql`insert into promotions (supplier_id, internal_code, type, name, title, description, image, enabled, start_date, end_date, tier_kind, tiers)
        select ${twinId}, internal_code, type, name, title, description, image, enabled, start_date, end_date, tier_kind, tiers from promotions where supplier_id = ${liveId}`,
    sql`insert into promotion_products (supplier_id, promotion_id, product_id, box_ratio, position)
        select ${twinId}, tpr.id, tp.id, x.box_ratio, x.position
        from promotion_products x
        ${twinOf('promotions', 'pr', 'x.promotion_id')}
        ${twinOf('products', 'p', 'x.product_id')}
        where x.supplier_id = ${liveId}`,
    sql`insert into promotion_groupers (supplier_id, promotion_id, grouper_id)
        select ${twinId}, tpr.id, tg.id
        from promotion_groupers x
        ${twinOf('promotions', 'pr', 'x.promotion_id')}
        ${twinOf('groupers', 'g', 'x.grouper_id')}
        where x.supplier_id = ${liveId}`,
  ];
  for (const statement of statements) await statement.execute(trx);
}

export interface TwinCounts {
  credentials: number;
  groupers: number;
  brands: number;
  categories: number;
  products: number;
  stock: number;
  priceLists: number;
  stores: number;
  users: number;
  prices: number;
  promotions: number;
  importedOrders: number;
  deliveredOrders: number;
}

/** How many rows of each kind the twin holds (GET /sandbox/checklist, copy-live's answer). */
export async function twinCounts(db: Executor, twinId: number) {
  const result = await sql<TwinCounts>`
    select
      (select count(*)::int from api_clients where supplier_id = ${twinId} and revoked_at is null) as credentials,
      (select count(*)::int from groupers where supplier_id = ${twinId}) as groupers,
      (select count(*)::int from brands where supplier_id = ${twinId}) as brands,
      (select count(*)::int from categories where supplier_id = ${twinId}) as categories,
      (select count(*)::int from products where supplier_id = ${twinId}) as products,
      (select count(*)::int from stock_rules where supplier_id = ${twinId}) + (select count(*)::int from grouper_stores where supplier_id = ${twinId} and kind = 'stock') as stock,
      (select count(*)::int from price_lists where supplier_id = ${twinId}) as "priceLists",
      (select count(*)::int from stores where supplier_id = ${twinId}) as stores,
      (select count(*)::int from store_users where supplier_id = ${twinId}) as users,
      (select count(*)::int from price_entries where supplier_id = ${twinId}) as prices,
      (select count(*)::int from promotions where supplier_id = ${twinId}) as promotions,
      (select count(*)::int from orders where supplier_id = ${twinId} and imported) as "importedOrders",
      (select count(*)::int from orders where supplier_id = ${twinId} and not imported and status in ('DELIVERED', 'RETURNED')) as "deliveredOrders"`.execute(db);
  return result.rows[0]!;
}

/** The event types the twin's webhook answered 2xx to, at least once. */
export async function deliveredEventTypes(db: Executor, twinId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select('event_type')
    .distinct()
    .where('supplier_id', '=', twinId)
    .where('status', '=', 'delivered')
    .execute();
  return rows.map((r) => r.event_type);
}

// What an event made happen.

/** The twin's store by code, or its first store. */
export async function findStore(db: Executor, supplierId: number, code: string | undefined) {
  let query = db.selectFrom('stores').select(['id', 'internal_code']).where('supplier_id', '=', supplierId);
  query = code === undefined ? query.orderBy('id').limit(1) : query.where('internal_code', '=', code);
  return query.executeTakeFirst();
}

/** The store's first user (the contact the supplier registered). */
export async function firstStoreUser(db: Executor, storeId: number) {
  return db.selectFrom('store_users').select(['phone', 'email']).where('store_id', '=', storeId).orderBy('id').limit(1).executeTakeFirst();
}

export async function findOrderOf(db: Executor, supplierId: number, orderId: number) {
  return db.selectFrom('orders').select(['id', 'store_id', 'status', 'placed_by']).where('supplier_id', '=', supplierId).where('id', '=', orderId).executeTakeFirst();
}

export async function findTicketOf(db: Executor, supplierId: number, ticketId: number) {
  return db.selectFrom('tickets').select(['id', 'store_id', 'status', 'opened_by']).where('supplier_id', '=', supplierId).where('id', '=', ticketId).executeTakeFirst();
}

/** The newest delivery of the newest event of a type about a resource (`order:12`). */
export async function latestDelivery(db: Executor, supplierId: number, type: string, orderingKey: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', (join) => join.onRef('e.supplier_id', '=', 'd.supplier_id').onRef('e.id', '=', 'd.event_id'))
    .select(['d.id', 'e.message_id'])
    .where('d.supplier_id', '=', supplierId)
    .where('e.type', '=', type)
    .where('e.ordering_key', '=', orderingKey)
    .orderBy('e.id', 'desc')
    .orderBy('d.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
