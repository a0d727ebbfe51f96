import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { containsText, textArray, textIn, byCode } from '../../db/sql.ts';

export async function insertPriceList(db: Kysely<DB>, supplierId: number, internalCode: string, name: string | null) {
  const rows = await db
    .insertInto('price_lists')
    .values({ supplier_id: supplierId, internal_code: internalCode, name })
    .onConflict((oc) => oc.columns(['supplier_id', 'internal_code']).doNothing())
    .returning('id')
    .execute();
  return rows.length === 1;
}

export async function findPriceList(db: Kysely<DB>, supplierId: number, code: string) {
  return db
    .selectFrom('price_lists')
    .select(['id', 'internal_code', 'name', 'enabled', 'created_at', 'updated_at'])
    .where('supplier_id', '=', supplierId)
    .where('internal_code', '=', code)
    .executeTakeFirst();
}


/** Every price of a list, with its product's id and code, by code then units. */
export async function listEntries(db: Kysely<DB>, supplierId: number, priceListId: number) {
  return db
    .selectFrom('price_entries as e')
    .innerJoin('products as p', 'p.id', 'e.product_id')
    .select(['e.product_id', 'p.internal_code', 'e.units', 'e.price'])
    .where('e.supplier_id', '=', supplierId)
    .where('e.price_list_id', '=', priceListId)
    .orderBy(byCode('p.internal_code'))
    .orderBy('e.units')
    .execute();
}

/** A page of the supplier's price lists by code, with how many stores each serves. */
export async function listPriceLists(db: Kysely<DB>, supplierId: number, f: { search?: string; enabled?: boolean; take: number; page: number }) {
  let base = db.selectFrom('price_lists as l').where('l.supplier_id', '=', supplierId);
  if (f.search) base = base.where(containsText(['l.internal_code', 'l.name'], f.search));
  if (f.enabled !== undefined) base = base.where('l.enabled', '=', f.enabled);
  const [rows, count] = await Promise.all([
    base
      .select(['l.internal_code', 'l.name', 'l.enabled', 'l.created_at', 'l.updated_at'])
      .select((eb) =>
        eb.selectFrom('price_list_stores as x').select(sql<number>`count(*)::int`.as('n')).whereRef('x.price_list_id', '=', 'l.id').as('store_count'),
      )
      .orderBy(byCode('l.internal_code'))
      .limit(f.take)
      .offset((f.page - 1) * f.take)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

export interface EntryPageFilter {
  search?: string;
  take: number;
  page: number;
  /** Start after this (product code, units) instead of at the page's offset. */
  after?: readonly [string, number];
}

/**
 * A page of one list's entries by product code (bytes), then units. Index-backed: the
 * list's products are walked in code order on products_code_c (migration 0020) and each
 * one's entries read from the entries' primary key, so a page costs its own rows, never a
 * sort of the whole list. By offset that walk still passes the skipped rows; from a
 * cursor (`after`) it starts at the cursor, the same cost at any depth. The total counts
 * the list's primary key alone unless a search needs the products' names. One row more
 * than the page is read, to know whether another page follows.
 */
export async function listEntriesPage(db: Kysely<DB>, supplierId: number, priceListId: number, f: EntryPageFilter) {
  const code = sql<string>`p.internal_code collate "C"`;
  let base = db
    .selectFrom('price_entries as e')
    .innerJoin('products as p', 'p.id', 'e.product_id')
    .where('e.supplier_id', '=', supplierId)
    .where('e.price_list_id', '=', priceListId)
    .where('p.supplier_id', '=', supplierId);
  if (f.search) base = base.where(containsText(['p.internal_code', 'p.name'], f.search));
  let rows = base.select(['p.internal_code', 'p.name', 'e.units', 'e.price', 'e.updated_at']).orderBy(code).orderBy('e.units').limit(f.take + 1);
  if (f.after) {
    const [afterCode, afterUnits] = f.after;
    // Written as `code >= c and (code > c or units > u)`: the first half is the index's range.
    rows = rows.where(code, '>=', afterCode).where((eb) => eb.or([eb(code, '>', afterCode), eb('e.units', '>', afterUnits)]));
  } else {
    rows = rows.offset((f.page - 1) * f.take);
  }
  const count = f.search
    ? base.select(sql<number>`count(*)::int`.as('n'))
    : db
        .selectFrom('price_entries')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('supplier_id', '=', supplierId)
        .where('price_list_id', '=', priceListId);
  const [data, total] = await Promise.all([rows.execute(), count.executeTakeFirstOrThrow()]);
  return { rows: data, total: total.n };
}

export async function listStoreLinks(db: Kysely<DB>, supplierId: number, priceListId: number) {
  return db
    .selectFrom('price_list_stores')
    .select('store_code')
    .where('supplier_id', '=', supplierId)
    .where('price_list_id', '=', priceListId)
    .orderBy(byCode('store_code'))
    .execute();
}

export async function setEnabled(db: Kysely<DB>, supplierId: number, code: string, enabled: boolean) {
  return db
    .updateTable('price_lists')
    .set({ enabled, updated_at: sql`now()` })
    .where('supplier_id', '=', supplierId)
    .where('internal_code', '=', code)
    .returning(['internal_code', 'name', 'enabled'])
    .executeTakeFirst();
}

/** id by internalCode for the given codes of one supplier (one statement for a whole chunk). */
export async function priceListIds(db: Kysely<DB> | Transaction<DB>, supplierId: number, codes: string[]) {
  if (codes.length === 0) return new Map<string, number>();
  const rows = await db
    .selectFrom('price_lists')
    .select(['id', 'internal_code'])
    .where('supplier_id', '=', supplierId)
    .where(textIn('internal_code', codes))
    .execute();
  return new Map(rows.map((r) => [r.internal_code, r.id]));
}

export interface EntryWrite {
  unknownLists: Set<string>;
  unknownProducts: Set<string>;
  /** Whether every entry was new (none existed, changed or not): the caller's hint for its next call (`expectNew`). */
  allNew: boolean;
}

/**
 * Writes price entries named by their codes, resolving the price list and product codes
 * in the same statement (the hot path of a price load: one round trip per chunk instead
 * of three). Answers the codes that named nothing; their entries are not written. Codes
 * must be unique per (list, product, units) within one call: a statement cannot write a
 * row twice.
 *
 * Two forms of one statement. The upsert (ON CONFLICT DO UPDATE) is always right; a plain
 * INSERT is right when no entry exists yet, and costs PostgreSQL about a third less (no
 * speculative insertion, no per-row insertion lock; docs/benchmarks.md). With `expectNew`
 * the INSERT is tried first inside a savepoint; an entry that exists makes it fail with a
 * unique violation before anything is kept, and the upsert then does the work. So the
 * result never depends on the guess, only the cost does: a wrong guess wastes at most one
 * statement, and `allNew` tells the caller how to guess next time.
 */
export async function upsertEntriesByCode(
  trx: Transaction<DB>,
  supplierId: number,
  rows: { list: string; product: string; units: number; price: number }[],
  expectNew = false,
): Promise<EntryWrite> {
  if (rows.length === 0) return { unknownLists: new Set(), unknownProducts: new Set(), allNew: expectNew };
  // One array per column, as PostgreSQL array literals (cheaper for both sides than JSON
  // rows). A price travels as the shortest decimal text of its JSON number ("10.5") and
  // is read straight into numeric: the decimal the client sent is the decimal stored.
  const columns = [
    textArray(rows.map((r) => r.list)),
    textArray(rows.map((r) => r.product)),
    `{${rows.map((r) => r.units).join(',')}}`,
    `{${rows.map((r) => r.price).join(',')}}`,
  ] as const;
  if (expectNew) {
    await sql`savepoint price_entries_insert`.execute(trx);
    try {
      const result = await writeEntries(trx, supplierId, columns, false);
      await sql`release savepoint price_entries_insert`.execute(trx);
      return result;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await sql`rollback to savepoint price_entries_insert`.execute(trx);
    }
  }
  return writeEntries(trx, supplierId, columns, true);
}

async function writeEntries(trx: Transaction<DB>, supplierId: number, [lists, products, units, prices]: readonly string[], upsert: boolean): Promise<EntryWrite> {
  // The upsert writes only what changed, so a daily refresh costs what changed. Each row's
  // stored price is read first by its primary key (a scalar subquery: one index probe per
  // row whatever the planner estimates), and a row sent with the price it has is not
  // written at all: no row lock, no WAL, no page dirtied. `do update ... where ... is
  // distinct from` is the arbiter for the rest: it sees the latest committed version, so
  // an entry is never left with a price other than the last one sent. (The probe reads the
  // statement's snapshot; a batch writing the same keys is applied only after every earlier
  // one has committed, batch README "Ordering", which is also what makes a later price win.)
  // A row left alone is still applied (its item completes; its updated_at, the time its
  // price last changed, is kept): outcomes come from the codes that named nothing, never
  // from the rows written. `existing` counts the rows that were there before (updated or
  // left alone): the valid input rows the statement did not insert (xmax = 0 marks an
  // inserted row; an updated one carries our xid). The plain insert either inserts every
  // row or fails, so it counts nothing.
  const result = await sql<{ existing: number; list: string | null; product: string | null; list_known: boolean | null }>`
    with input as (
      select r.list, r.product, r.units, r.price, l.id as list_id, p.id as product_id${
        upsert
          ? sql`,
        (select e.price from price_entries e
         where e.supplier_id = ${supplierId} and e.price_list_id = l.id and e.product_id = p.id and e.units = r.units) as stored`
          : sql``
      }
      from unnest(${lists}::text[], ${products}::text[], ${units}::int[], ${prices}::numeric[]) as r(list, product, units, price)
      left join price_lists l on l.supplier_id = ${supplierId} and l.internal_code = r.list
      left join products p on p.supplier_id = ${supplierId} and p.internal_code = r.product),
    written as (
      insert into price_entries (supplier_id, price_list_id, product_id, units, price)
      select ${supplierId}, list_id, product_id, units, price from input
      where list_id is not null and product_id is not null${upsert ? sql` and stored is distinct from price` : sql``}
      ${
        upsert
          ? sql`on conflict (supplier_id, price_list_id, product_id, units) do update set price = excluded.price, updated_at = now()
                where price_entries.price is distinct from excluded.price
                returning xmax = 0 as inserted`
          : sql``
      })
    select w.existing, m.list, m.product, m.list_known
    from (${
      upsert
        ? sql`select ((select count(*) from input where list_id is not null and product_id is not null) - (select count(*) from written where inserted))::int as existing`
        : sql`select 0 as existing`
    }) w
    left join (select list, product, list_id is not null as list_known from input where list_id is null or product_id is null) m on true`.execute(trx);
  const unknownLists = new Set<string>();
  const unknownProducts = new Set<string>();
  for (const r of result.rows) {
    if (r.list === null || r.product === null) continue;
    if (!r.list_known) unknownLists.add(r.list);
    else unknownProducts.add(r.product);
  }
  return { unknownLists, unknownProducts, allNew: result.rows[0]!.existing === 0 };
}

/** u null: every package size of the product. */
export async function deleteEntries(trx: Transaction<DB>, supplierId: number, rows: { l: number; p: number; u: number | null }[]) {
  if (rows.length === 0) return;
  await sql`
    delete from price_entries e
    using json_to_recordset(${JSON.stringify(rows)}::json) as r(l bigint, p bigint, u int)
    where e.supplier_id = ${supplierId} and e.price_list_id = r.l and e.product_id = r.p
      and (r.u is null or e.units = r.u)`.execute(trx);
}

/** A store has at most one price list: assigning moves it. */
export async function upsertStoreLinks(trx: Transaction<DB>, supplierId: number, rows: { l: number; s: string }[]) {
  if (rows.length === 0) return;
  await sql`
    insert into price_list_stores (supplier_id, store_code, price_list_id)
    select ${supplierId}, r.s, r.l from json_to_recordset(${JSON.stringify(rows)}::json) as r(l bigint, s text)
    on conflict (supplier_id, store_code) do update set price_list_id = excluded.price_list_id, created_at = now()`.execute(trx);
}

export async function deleteStoreLinks(trx: Transaction<DB>, supplierId: number, rows: { l: number; s: string }[]) {
  if (rows.length === 0) return;
  await sql`
    delete from price_list_stores x
    using json_to_recordset(${JSON.stringify(rows)}::json) as r(l bigint, s text)
    where x.supplier_id = ${supplierId} and x.store_code = r.s and x.price_list_id = r.l`.execute(trx);
}
