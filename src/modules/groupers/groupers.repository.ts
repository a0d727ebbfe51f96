import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, GrouperKind } from '../../db/types.ts';
import { containsText, textIn, byCode } from '../../db/sql.ts';
import { offsetPage } from '../../db/paging.ts';

type Executor = Kysely<DB> | Transaction<DB>;

export async function insertGrouper(db: Executor, supplierId: number, kind: GrouperKind, code: string, name: string) {
  const rows = await db
    .insertInto('groupers')
    .values({ supplier_id: supplierId, kind, internal_code: code, name })
    .onConflict((oc) => oc.columns(['supplier_id', 'kind', 'internal_code']).doNothing())
    .returning('id')
    .execute();
  return rows.length === 1;
}

export async function updateGrouper(db: Executor, supplierId: number, kind: GrouperKind, code: string, changes: { name?: string; enabled?: boolean }) {
  const result = await db
    .updateTable('groupers')
    .set({ ...changes, updated_at: sql`now()` })
    .where('supplier_id', '=', supplierId)
    .where('kind', '=', kind)
    .where('internal_code', '=', code)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findGrouper(db: Executor, supplierId: number, kind: GrouperKind, code: string) {
  return db
    .selectFrom('groupers')
    .select(['id', 'internal_code', 'name', 'enabled', 'created_at', 'updated_at'])
    .where('supplier_id', '=', supplierId)
    .where('kind', '=', kind)
    .where('internal_code', '=', code)
    .executeTakeFirst();
}

/** A page of the supplier's groupers of one kind by code, with how many stores each holds. */
export async function listGroupers(db: Executor, supplierId: number, kind: GrouperKind, f: { search?: string; enabled?: boolean; take: number; page: number }) {
  let base = db.selectFrom('groupers as g').where('g.supplier_id', '=', supplierId).where('g.kind', '=', kind);
  if (f.search) base = base.where(containsText(['g.internal_code', 'g.name'], f.search));
  if (f.enabled !== undefined) base = base.where('g.enabled', '=', f.enabled);
  return offsetPage(
    base,
    (q) =>
      q
        .select(['g.internal_code', 'g.name', 'g.enabled', 'g.created_at', 'g.updated_at'])
        .select((eb) =>
          eb
            .selectFrom('grouper_stores as x')
            .select(sql<number>`count(*)::int`.as('n'))
            .where('x.supplier_id', '=', supplierId)
            .whereRef('x.grouper_id', '=', 'g.id')
            .as('store_count'),
        )
        .orderBy(byCode('g.internal_code')),
    f,
  );
}

export async function grouperStoreCodes(db: Executor, supplierId: number, grouperId: number) {
  const rows = await db
    .selectFrom('grouper_stores')
    .select('store_code')
    .where('supplier_id', '=', supplierId)
    .where('grouper_id', '=', grouperId)
    .orderBy(byCode('store_code'))
    .execute();
  return rows.map((r) => r.store_code);
}

export async function grouperIds(db: Executor, supplierId: number, kind: GrouperKind, codes: string[]) {
  if (codes.length === 0) return new Map<string, number>();
  const rows = await db
    .selectFrom('groupers')
    .select(['id', 'internal_code'])
    .where('supplier_id', '=', supplierId)
    .where('kind', '=', kind)
    .where(textIn('internal_code', codes))
    .execute();
  return new Map(rows.map((r) => [r.internal_code, r.id]));
}

/** Stock: a store is in one stock grouper, so adding it moves it (the partial unique index). */
export async function addStoreLinks(trx: Transaction<DB>, supplierId: number, kind: GrouperKind, rows: { g: number; s: string }[]) {
  if (rows.length === 0) return;
  const json = JSON.stringify(rows);
  if (kind === 'stock') {
    await sql`
      insert into grouper_stores (supplier_id, grouper_id, kind, store_code)
      select ${supplierId}, r.g, 'stock', r.s from json_to_recordset(${json}::json) as r(g bigint, s text)
      on conflict (supplier_id, store_code) where kind = 'stock'
      do update set grouper_id = excluded.grouper_id, created_at = now()`.execute(trx);
  } else {
    await sql`
      insert into grouper_stores (supplier_id, grouper_id, kind, store_code)
      select ${supplierId}, r.g, 'promotion', r.s from json_to_recordset(${json}::json) as r(g bigint, s text)
      on conflict (supplier_id, grouper_id, store_code) do nothing`.execute(trx);
  }
}

export async function removeStoreLinks(trx: Transaction<DB>, supplierId: number, rows: { g: number; s: string }[]) {
  if (rows.length === 0) return;
  await sql`
    delete from grouper_stores x
    using json_to_recordset(${JSON.stringify(rows)}::json) as r(g bigint, s text)
    where x.supplier_id = ${supplierId} and x.grouper_id = r.g and x.store_code = r.s`.execute(trx);
}

/** Replaces the promotion groupers of each listed store with the given set (one statement each way). */
export async function replacePromotionGroupers(trx: Transaction<DB>, supplierId: number, sets: { s: string; g: number[] }[]) {
  if (sets.length === 0) return;
  const json = JSON.stringify(sets);
  await sql`
    delete from grouper_stores x
    using json_to_recordset(${json}::json) as r(s text, g json)
    where x.supplier_id = ${supplierId} and x.kind = 'promotion' and x.store_code = r.s`.execute(trx);
  await sql`
    insert into grouper_stores (supplier_id, grouper_id, kind, store_code)
    select distinct ${supplierId}::bigint, g.value::bigint, 'promotion', r.s
    from json_to_recordset(${json}::json) as r(s text, g json), json_array_elements_text(r.g) as g(value)`.execute(trx);
}
