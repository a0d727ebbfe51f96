import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { textArray, textIn } from '../../db/sql.ts';

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

/** Codes sort by their bytes, the same order on every database whatever its locale. */
const byCode = (column: string) => sql`${sql.ref(column)} collate "C"`;

export async function listEntries(db: Kysely<DB>, supplierId: number, priceListId: number) {
  return db
    .selectFrom('price_entries as e')
    .innerJoin('products as p', 'p.id', 'e.product_id')
    .select(['p.internal_code', 'e.units', 'e.price'])
    .where('e.supplier_id', '=', supplierId)
    .where('e.price_list_id', '=', priceListId)
    .orderBy(byCode('p.internal_code'))
    .orderBy('e.units')
    .execute();
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
  /** Whether every written entry was new: the caller's hint for its next call (`expectNew`). */
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
  // xmax = 0 marks a row the upsert inserted (an updated one carries our xid); the plain
  // insert either inserts every row or fails, so it counts nothing.
  const result = await sql<{ updated: number; list: string | null; product: string | null; list_known: boolean | null }>`
    with input as (
      select r.list, r.product, r.units, r.price, l.id as list_id, p.id as product_id
      from unnest(${lists}::text[], ${products}::text[], ${units}::int[], ${prices}::numeric[]) as r(list, product, units, price)
      left join price_lists l on l.supplier_id = ${supplierId} and l.internal_code = r.list
      left join products p on p.supplier_id = ${supplierId} and p.internal_code = r.product),
    written as (
      insert into price_entries (supplier_id, price_list_id, product_id, units, price)
      select ${supplierId}, list_id, product_id, units, price from input
      where list_id is not null and product_id is not null
      ${upsert ? sql`on conflict (supplier_id, price_list_id, product_id, units) do update set price = excluded.price, updated_at = now() returning xmax = 0 as inserted` : sql``})
    select w.updated, m.list, m.product, m.list_known
    from (${upsert ? sql`select count(*) filter (where not inserted)::int as updated from written` : sql`select 0 as updated`}) w
    left join (select list, product, list_id is not null as list_known from input where list_id is null or product_id is null) m on true`.execute(trx);
  const unknownLists = new Set<string>();
  const unknownProducts = new Set<string>();
  for (const r of result.rows) {
    if (r.list === null || r.product === null) continue;
    if (!r.list_known) unknownLists.add(r.list);
    else unknownProducts.add(r.product);
  }
  return { unknownLists, unknownProducts, allNew: result.rows[0]!.updated === 0 };
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
