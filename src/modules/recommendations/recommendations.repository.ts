// Every SQL statement of recommendations (README.md). Writes are set-based: a run of
// recommendations is one statement (the rows, then their targets); a store's read starts
// from its own code and groupers (recommendation_targets_code) and the supplier's
// recommendations for everyone (recommendations_everyone).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, RecommendationReason, RecommendedProduct } from '../../db/types.ts';
import { byCode, containsText, textIn } from '../../db/sql.ts';

type Executor = Kysely<DB> | Transaction<DB>;

export interface RecommendationRow {
  id: number;
  internal_code: string;
  name: string;
  reason: RecommendationReason;
  start_date: string;
  end_date: string;
  products: RecommendedProduct[];
  created_at: Date;
  updated_at: Date;
  stores: string[];
  groupers: string[];
}

/** A recommendation to write, its references checked. */
export interface RecommendationWrite {
  code: string;
  name: string;
  reason: RecommendationReason;
  start: string;
  end: string;
  products: RecommendedProduct[];
  stores: string[];
  groupers: string[];
}

/** The codes among these that name one of the supplier's products. */
export async function existingProductCodes(db: Executor, supplierId: number, codes: string[]): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const rows = await db.selectFrom('products').select('internal_code').where('supplier_id', '=', supplierId).where(textIn('internal_code', codes)).execute();
  return new Set(rows.map((r) => r.internal_code));
}

/**
 * Upserts the recommendations (one per code: the caller keeps the last of a chunk) and
 * makes each one's targets exactly those sent, in one statement: the rows, the targets no
 * longer named deleted, the new ones inserted. The delete and the insert never touch the
 * same target, so neither sees the other's work.
 */
export async function writeRecommendations(trx: Transaction<DB>, supplierId: number, items: RecommendationWrite[]): Promise<void> {
  if (items.length === 0) return;
  const input = JSON.stringify(
    items.map((i) => ({
      code: i.code,
      name: i.name,
      reason: i.reason,
      start_date: i.start,
      end_date: i.end,
      everyone: i.stores.length === 0 && i.groupers.length === 0,
      products: i.products.map(({ productInternalCode, units, quantity }) => ({ productInternalCode, units, quantity })),
      stores: i.stores,
      groupers: i.groupers,
    })),
  );
  await sql`
    with input as (
      select * from json_to_recordset(${input}::json)
        as i(code text, name text, reason text, start_date date, end_date date, everyone boolean, products jsonb, stores text[], groupers text[])
    ), up as (
      insert into recommendations (supplier_id, internal_code, name, reason, start_date, end_date, everyone, products)
      select ${supplierId}, code, name, reason, start_date, end_date, everyone, products from input
      on conflict (supplier_id, internal_code) do update
        set name = excluded.name, reason = excluded.reason, start_date = excluded.start_date, end_date = excluded.end_date,
            everyone = excluded.everyone, products = excluded.products, updated_at = now()
      returning id, internal_code
    ), wanted as (
      select distinct up.id, t.kind, t.code
        from up join input i on i.code = up.internal_code
        cross join lateral (select 'store' as kind, s as code from unnest(i.stores) s
                            union all select 'grouper', g from unnest(i.groupers) g) t
    ), gone as (
      delete from recommendation_targets r using up
       where r.recommendation_id = up.id
         and not exists (select 1 from wanted w where w.id = r.recommendation_id and w.kind = r.kind and w.code = r.code)
    )
    insert into recommendation_targets (recommendation_id, supplier_id, kind, code)
    select id, ${supplierId}, kind, code from wanted
    on conflict do nothing`.execute(trx);
}

/** Removes the supplier's recommendations with these codes (their targets go with them); answers the codes removed. */
export async function removeRecommendations(trx: Transaction<DB>, supplierId: number, codes: string[]): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const rows = await trx.deleteFrom('recommendations').where('supplier_id', '=', supplierId).where(textIn('internal_code', codes)).returning('internal_code').execute();
  return new Set(rows.map((r) => r.internal_code));
}

const targetsOf = (kind: 'store' | 'grouper') =>
  sql<string[]>`array(select t.code from recommendation_targets t where t.recommendation_id = r.id and t.kind = ${kind} order by t.code collate "C")`;

const columns = ['r.id', 'r.internal_code', 'r.name', 'r.reason', 'r.start_date', 'r.end_date', 'r.products', 'r.created_at', 'r.updated_at'] as const;

export async function recommendationByCode(db: Executor, supplierId: number, code: string): Promise<RecommendationRow | undefined> {
  return db
    .selectFrom('recommendations as r')
    .select([...columns, targetsOf('store').as('stores'), targetsOf('grouper').as('groupers')])
    .where('r.supplier_id', '=', supplierId)
    .where('r.internal_code', '=', code)
    .executeTakeFirst();
}

/** A page of the supplier's recommendations by start, then code (docs/conventions.md, "Lists"). */
export async function listRecommendations(
  db: Kysely<DB>,
  supplierId: number,
  query: { search?: string; reason?: RecommendationReason; active?: boolean; today: string; take: number; page: number },
): Promise<{ rows: RecommendationRow[]; total: number }> {
  let base = db.selectFrom('recommendations as r').where('r.supplier_id', '=', supplierId);
  if (query.search) base = base.where(containsText(['r.internal_code', 'r.name'], query.search));
  if (query.reason) base = base.where('r.reason', '=', query.reason);
  if (query.active !== undefined) {
    const active = sql<boolean>`(r.start_date <= ${query.today}::date and r.end_date >= ${query.today}::date)`;
    base = base.where(query.active ? active : sql<boolean>`not ${active}`);
  }
  const [rows, count] = await Promise.all([
    base
      .select([...columns, targetsOf('store').as('stores'), targetsOf('grouper').as('groupers')])
      .orderBy('r.start_date')
      .orderBy(byCode('r.internal_code'))
      .limit(query.take)
      .offset((query.page - 1) * query.take)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/**
 * The supplier's recommendations shown to a store today: those naming its code, one of
 * the promotion groupers given (the store's enabled ones), or no one (everyone). Each
 * part is read through its own index, so the read costs what it answers.
 */
export async function recommendationsForStore(db: Kysely<DB>, supplierId: number, storeCode: string, grouperCodes: string[], today: string) {
  return db
    .selectFrom('recommendations as r')
    .select(['r.internal_code', 'r.name', 'r.reason', 'r.start_date', 'r.end_date', 'r.products'])
    .where(
      'r.id',
      'in',
      sql<number>`(select t.recommendation_id from recommendation_targets t where t.supplier_id = ${supplierId} and t.kind = 'store' and t.code = ${storeCode}
        union select t.recommendation_id from recommendation_targets t where t.supplier_id = ${supplierId} and t.kind = 'grouper' and t.code = any(${grouperCodes}::text[])
        union select e.id from recommendations e where e.supplier_id = ${supplierId} and e.everyone and e.end_date >= ${today}::date)`,
    )
    .where('r.start_date', '<=', today)
    .where('r.end_date', '>=', today)
    .orderBy('r.start_date')
    .orderBy(byCode('r.internal_code'))
    .execute();
}
