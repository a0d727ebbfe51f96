import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { textIn } from '../../db/sql.ts';

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

/**
 * Writes price entries named by their codes, resolving the price list and product codes
 * in the same statement (the hot path of a price load: one round trip per chunk instead
 * of three). Answers the codes that named nothing; their entries are not written. Codes
 * must be unique per (list, product, units) within one call: ON CONFLICT cannot touch a
 * row twice in one statement.
 */
export async function upsertEntriesByCode(
  trx: Transaction<DB>,
  supplierId: number,
  rows: { list: string; product: string; units: number; price: number }[],
): Promise<{ unknownLists: Set<string>; unknownProducts: Set<string> }> {
  const unknownLists = new Set<string>();
  const unknownProducts = new Set<string>();
  if (rows.length === 0) return { unknownLists, unknownProducts };
  // One typed array per column (cheaper for the server to read than JSON rows). A price
  // travels as the shortest decimal text of its JSON number ("10.5") and is read straight
  // into numeric: the decimal the client sent is the decimal stored.
  const missing = await sql<{ list: string; product: string; list_known: boolean }>`
    with input as (
      select r.list, r.product, r.units, r.price, l.id as list_id, p.id as product_id
      from unnest(${rows.map((r) => r.list)}::text[], ${rows.map((r) => r.product)}::text[],
                  ${rows.map((r) => r.units)}::int[], ${rows.map((r) => String(r.price))}::numeric[]) as r(list, product, units, price)
      left join price_lists l on l.supplier_id = ${supplierId} and l.internal_code = r.list
      left join products p on p.supplier_id = ${supplierId} and p.internal_code = r.product),
    written as (
      insert into price_entries (supplier_id, price_list_id, product_id, units, price)
      select ${supplierId}, list_id, product_id, units, price from input
      where list_id is not null and product_id is not null
      on conflict (supplier_id, price_list_id, product_id, units)
      do update set price = excluded.price, updated_at = now())
    select list, product, list_id is not null as list_known from input
    where list_id is null or product_id is null`.execute(trx);
  for (const r of missing.rows) {
    if (!r.list_known) unknownLists.add(r.list);
    else unknownProducts.add(r.product);
  }
  return { unknownLists, unknownProducts };
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
