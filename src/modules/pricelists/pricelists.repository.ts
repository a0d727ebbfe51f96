import { sql, type Kysely, type Transaction } from 'kysely';
import type { StagedRun } from '../batch/batch.kinds.ts';
import type { DB } from '../../db/types.ts';
import { insertElseUpsert } from '../../db/insert-first.ts';
import { containsText, byCode, idsOf } from '../../db/sql.ts';
import { offsetPage } from '../../db/paging.ts';
import { readStagedRows } from '../batch/batch.repository.ts';

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
  return offsetPage(
    base,
    (q) =>
      q
        .select(['l.internal_code', 'l.name', 'l.enabled', 'l.created_at', 'l.updated_at'])
        .select((eb) =>
          eb.selectFrom('price_list_stores as x').select(sql<number>`count(*)::int`.as('n')).whereRef('x.price_list_id', '=', 'l.id').as('store_count'),
        )
        .orderBy(byCode('l.internal_code')),
    f,
  );
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
 * list's products are walked in code order on their unique (supplier_id, internal_code)
 * index (its codes compare by bytes since migration 0025) and each
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

/**
 * POST /batch/pricelist's staging table (migration 0026): a row per chunk of a batch, the
 * items' values as arrays (`code` being the product's code for entries and the store's for
 * links), list and product codes once per chunk. The batch engine writes it with COPY
 * when it accepts a request (batch README, "Staging").
 */
export const priceItemsStaging = {
  table: 'batch_price_chunks',
  columns: [{ values: 'lists', index: 'list_ix' }, { values: 'codes', index: 'code_ix' }, { values: 'units' }, { values: 'prices' }],
} as const;

/** A staged batch's items, in order. */
export async function readStagedPriceItems(db: Kysely<DB>, batchSeq: number) {
  return readStagedRows<{ list_code: string; code: string; units: number | null; price: string | null }>(
    db,
    'batch_price_chunks',
    sql`c.lists[o.lx] as list_code, c.codes[o.cx] as code, o.units, o.price`,
    sql`unnest(c.list_ix, c.code_ix, c.units, c.prices) with ordinality as o(lx, cx, units, price, n)`,
    batchSeq,
  );
}

/** A staged item that named nothing: its code, and whether its list was found. */
export interface UnresolvedItem {
  idx: number;
  list_code: string;
  code: string;
  list_known: boolean;
}

/**
 * The run's items with their list's id and, for entries, their product's id (null when the
 * code names nothing), resolved in the statement that uses them: the head of every
 * statement below. Each code of the chunk is resolved once, by one probe of its table's
 * unique (supplier_id, internal_code) index (a scalar subquery: never a join the planner
 * could turn into a scan of the supplier's rows), and the items pick their ids by place,
 * so a chunk costs a probe per code it names, not per item. `chunk` is materialized: the
 * id arrays are computed once, never once per item. An item carries the places of its
 * codes (`lx`, `cx`); the codes' text is read (`named`) only where it is needed, since
 * reaching element n of a text array walks the n before it. Store links need their
 * store's code (`code`), entries only for the items that named nothing.
 */
const stagedInput = (supplierId: number, run: StagedRun, of: 'entries' | 'links') => sql`
  chunk as materialized (
    select c.lists, c.list_ix, c.codes, c.code_ix, c.units, c.prices,
      ${idsOf('price_lists', supplierId, sql`c.lists`)} as list_ids${of === 'entries' ? sql`, ${idsOf('products', supplierId, sql`c.codes`)} as product_ids` : sql``}
    from batch_price_chunks c where c.batch_seq = ${run.batchSeq} and c.chunk = ${run.chunk}),
  input as (
    select (${run.first - 1} + o.n)::int as idx, o.lx, o.cx, o.units, o.price, c.list_ids[o.lx] as list_id,
      ${of === 'entries' ? sql`c.product_ids[o.cx] as product_id` : sql`c.codes[o.cx] as code`}
    from chunk c
    cross join lateral unnest(c.list_ix, c.code_ix, c.units, c.prices) with ordinality as o(lx, cx, units, price, n)
    where o.n > ${run.from - run.first} and o.n <= ${run.to - run.first})`;

/** Items of `input` (as `i`) with their list's and product's or store's code, for the answers. */
const named = sql`(select i.*, c.lists[i.lx] as list_code, c.codes[i.cx] as code_named from input i cross join chunk c)`;

export interface EntryWrite {
  unresolved: UnresolvedItem[];
  /** Whether every entry was new (none existed, changed or not): the caller's hint for its next call (`expectNew`). */
  allNew: boolean;
}

/**
 * Writes the staged price entries [from, to) of a batch, resolving list and product codes
 * in the same statement: one round trip per chunk, and no item passes through Node.
 * Answers the items whose codes named nothing; their entries are not written. Within the
 * run the last item per (list, product, units) wins, as if applied one after the other.
 *
 * Two forms of one statement. The upsert (ON CONFLICT DO UPDATE) is always right; a plain
 * INSERT is right when no entry exists yet and the run names each one once, and costs
 * PostgreSQL about a third less (no speculative insertion, no per-row insertion lock, no
 * sort; docs/benchmarks.md). With `expectNew` the INSERT is tried first inside a
 * savepoint; an entry that exists, or one named twice, makes it fail with a unique
 * violation before anything is kept, and the upsert then does the work. So the result
 * never depends on the guess, only the cost does: a wrong guess wastes at most one
 * statement, and `allNew` tells the caller how to guess next time.
 */
export async function writeStagedEntries(trx: Transaction<DB>, supplierId: number, run: StagedRun, expectNew: boolean): Promise<EntryWrite> {
  return insertElseUpsert(trx, 'price_entries_insert', expectNew, (upsert) => writeEntries(trx, supplierId, run, upsert));
}

async function writeEntries(trx: Transaction<DB>, supplierId: number, run: StagedRun, upsert: boolean): Promise<EntryWrite> {
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
  // left alone): the distinct valid rows the statement did not insert (xmax = 0 marks an
  // inserted row; an updated one carries our xid). The plain insert either inserts every
  // row or fails, so it counts nothing.
  const result = await sql<{ existing: number } & { [K in keyof UnresolvedItem]: UnresolvedItem[K] | null }>`
    with ${stagedInput(supplierId, run, 'entries')},
    ${
      upsert
        ? sql`last as (
      select distinct on (list_id, product_id, units) list_id, product_id, units, price from input
      where list_id is not null and product_id is not null
      order by list_id, product_id, units, idx desc),
    rows as (
      select list_id, product_id, units, price,
        (select e.price from price_entries e
         where e.supplier_id = ${supplierId} and e.price_list_id = last.list_id and e.product_id = last.product_id and e.units = last.units) as stored
      from last),`
        : sql`rows as (select list_id, product_id, units, price from input where list_id is not null and product_id is not null),`
    }
    written as (
      insert into price_entries (supplier_id, price_list_id, product_id, units, price)
      select ${supplierId}, list_id, product_id, units, price from rows${upsert ? sql` where stored is distinct from price` : sql``}
      ${
        upsert
          ? sql`on conflict (supplier_id, price_list_id, product_id, units) do update set price = excluded.price, updated_at = now()
                where price_entries.price is distinct from excluded.price
                returning xmax = 0 as inserted`
          : sql``
      })
    select w.existing, m.idx, m.list_code, m.code, m.list_known
    from (${
      upsert ? sql`select ((select count(*) from rows) - (select count(*) from written where inserted))::int as existing` : sql`select 0 as existing`
    }) w
    left join (select idx, list_code, code_named as code, list_id is not null as list_known from ${named} i where list_id is null or product_id is null) m on true`.execute(trx);
  return { unresolved: unresolvedOf(result.rows), allNew: result.rows[0]!.existing === 0 };
}

const unresolvedOf = (rows: { [K in keyof UnresolvedItem]: UnresolvedItem[K] | null }[]): UnresolvedItem[] =>
  rows.filter((r): r is UnresolvedItem => r.idx !== null).sort((a, b) => a.idx - b.idx);

/** Removes the staged entries [from, to) (units null: every package size of the product); answers the items that named nothing. */
export async function deleteStagedEntries(trx: Transaction<DB>, supplierId: number, run: StagedRun): Promise<UnresolvedItem[]> {
  const result = await sql<UnresolvedItem>`
    with ${stagedInput(supplierId, run, 'entries')},
    gone as (
      delete from price_entries e using input i
      where i.list_id is not null and i.product_id is not null
        and e.supplier_id = ${supplierId} and e.price_list_id = i.list_id and e.product_id = i.product_id
        and (i.units is null or e.units = i.units))
    select idx, list_code, code_named as code, list_id is not null as list_known from ${named} i
    where list_id is null or product_id is null`.execute(trx);
  return unresolvedOf(result.rows);
}

/**
 * Links the staged stores [from, to) to their lists (a store has at most one: assigning
 * moves it; the last item per store wins). Answers the items whose list is unknown, and
 * those whose store does not exist yet (list_known true): their link is kept and takes
 * effect when the store is created.
 */
export async function linkStagedStores(trx: Transaction<DB>, supplierId: number, run: StagedRun): Promise<UnresolvedItem[]> {
  const result = await sql<UnresolvedItem>`
    with ${stagedInput(supplierId, run, 'links')},
    last as (select distinct on (code) code, list_id from input where list_id is not null order by code, idx desc),
    written as (
      insert into price_list_stores (supplier_id, store_code, price_list_id)
      select ${supplierId}, code, list_id from last
      on conflict (supplier_id, store_code) do update set price_list_id = excluded.price_list_id, created_at = now())
    select i.idx, i.list_code, i.code, i.list_id is not null as list_known from ${named} i
    where i.list_id is null or not exists (select 1 from stores st where st.supplier_id = ${supplierId} and st.internal_code = i.code)`.execute(trx);
  return unresolvedOf(result.rows);
}

/** Unlinks the staged stores [from, to) from the lists named; answers the items whose list is unknown. */
export async function unlinkStagedStores(trx: Transaction<DB>, supplierId: number, run: StagedRun): Promise<UnresolvedItem[]> {
  const result = await sql<UnresolvedItem>`
    with ${stagedInput(supplierId, run, 'links')},
    gone as (
      delete from price_list_stores x using input i
      where i.list_id is not null and x.supplier_id = ${supplierId} and x.store_code = i.code and x.price_list_id = i.list_id)
    select idx, list_code, code, false as list_known from ${named} i where list_id is null`.execute(trx);
  return unresolvedOf(result.rows);
}

/** A store has at most one price list: assigning moves it. */
export async function upsertStoreLinks(trx: Transaction<DB>, supplierId: number, rows: { l: number; s: string }[]) {
  if (rows.length === 0) return;
  await sql`
    insert into price_list_stores (supplier_id, store_code, price_list_id)
    select ${supplierId}, r.s, r.l from json_to_recordset(${JSON.stringify(rows)}::json) as r(l bigint, s text)
    on conflict (supplier_id, store_code) do update set price_list_id = excluded.price_list_id, created_at = now()`.execute(trx);
}
