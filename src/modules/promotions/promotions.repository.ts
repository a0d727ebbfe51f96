import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { DB, PromotionsTable, PromotionType } from '../../db/types.ts';
import { compiledOnce, containsText, idIn, textIn, byCode } from '../../db/sql.ts';
import { offsetPage } from '../../db/paging.ts';

type Executor = Kysely<DB> | Transaction<DB>;


/** A promotion to write: the table's columns, keyed by `code`, with its tier field as sent. */
export type PromotionRow = Omit<Selectable<PromotionsTable>, 'id' | 'supplier_id' | 'internal_code' | 'tiers' | 'created_at' | 'updated_at'> & {
  code: string;
  /** The tier field's value as sent; its JSON numbers land in jsonb as exact decimals. */
  tiers: unknown;
};

/** Creates or replaces each promotion by code (one statement); answers id by code. */
export async function upsertPromotions(trx: Transaction<DB>, supplierId: number, rows: PromotionRow[]) {
  if (rows.length === 0) return new Map<string, number>();
  const written = await sql<{ id: number; internal_code: string }>`
    insert into promotions (supplier_id, internal_code, type, name, title, description, image, enabled, start_date, end_date, tier_kind, tiers)
    select ${supplierId}, r.code, r.type, r.name, r.title, r.description, r.image, r.enabled, r.start_date, r.end_date, r.tier_kind, r.tiers
    from json_to_recordset(${JSON.stringify(rows)}::json)
      as r(code text, type text, name text, title text, description text, image text, enabled boolean,
           start_date date, end_date date, tier_kind text, tiers jsonb)
    on conflict (supplier_id, internal_code) do update set
      type = excluded.type, name = excluded.name, title = excluded.title, description = excluded.description,
      image = excluded.image, enabled = excluded.enabled, start_date = excluded.start_date, end_date = excluded.end_date,
      tier_kind = excluded.tier_kind, tiers = excluded.tiers, updated_at = now()
    returning id, internal_code`.execute(trx);
  return new Map(written.rows.map((r) => [r.internal_code, Number(r.id)]));
}

/** Replaces the products of the given promotions: one delete, one insert. */
export async function replaceProducts(
  trx: Transaction<DB>,
  supplierId: number,
  promotionIds: number[],
  rows: { pr: number; p: number; b: number; n: number }[],
) {
  if (promotionIds.length === 0) return;
  await sql`delete from promotion_products where supplier_id = ${supplierId} and promotion_id = any(${promotionIds}::bigint[])`.execute(trx);
  if (rows.length === 0) return;
  // box_ratio is read from the JSON number's text straight into numeric: the decimal sent is the decimal stored.
  await sql`
    insert into promotion_products (supplier_id, promotion_id, product_id, box_ratio, position)
    select ${supplierId}, r.pr, r.p, r.b, r.n from json_to_recordset(${JSON.stringify(rows)}::json) as r(pr bigint, p bigint, b numeric, n int)`.execute(trx);
}

/** Replaces the grouper set of the given promotions: one delete, one insert. */
export async function replaceGroupers(trx: Transaction<DB>, supplierId: number, promotionIds: number[], rows: { pr: number; g: number }[]) {
  if (promotionIds.length === 0) return;
  await sql`delete from promotion_groupers where supplier_id = ${supplierId} and promotion_id = any(${promotionIds}::bigint[])`.execute(trx);
  if (rows.length === 0) return;
  await sql`
    insert into promotion_groupers (supplier_id, promotion_id, grouper_id)
    select distinct ${supplierId}::bigint, r.pr, r.g from json_to_recordset(${JSON.stringify(rows)}::json) as r(pr bigint, g bigint)`.execute(trx);
}

/** Deletes the promotions (their products and groupers go with them); answers the codes that existed. */
export async function deletePromotions(trx: Transaction<DB>, supplierId: number, codes: string[]) {
  if (codes.length === 0) return new Set<string>();
  const rows = await trx
    .deleteFrom('promotions')
    .where('supplier_id', '=', supplierId)
    .where(textIn('internal_code', codes))
    .returning('internal_code')
    .execute();
  return new Set(rows.map((r) => r.internal_code));
}

export async function setEnabled(db: Executor, supplierId: number, code: string, enabled: boolean) {
  const result = await db
    .updateTable('promotions')
    .set({ enabled, updated_at: sql`now()` })
    .where('supplier_id', '=', supplierId)
    .where('internal_code', '=', code)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

const columns = [
  'id',
  'internal_code',
  'type',
  'name',
  'title',
  'description',
  'image',
  'enabled',
  'start_date',
  'end_date',
  'tier_kind',
  'tiers',
  'created_at',
  'updated_at',
] as const;

export async function findPromotion(db: Executor, supplierId: number, code: string) {
  return db.selectFrom('promotions').select(columns).where('supplier_id', '=', supplierId).where('internal_code', '=', code).executeTakeFirst();
}

export type StoredPromotion = NonNullable<Awaited<ReturnType<typeof findPromotion>>>;

/**
 * One promotion with its products (in the order given) and grouper codes, in one
 * statement: the GET of a promotion is the most frequent read of an integration. Its
 * links come in the same order as productsOf and grouperCodesOf give them (position;
 * code in byte order), which serve lists and pricing for many promotions at once.
 */
const promotionWithLinks = compiledOnce(
  (db, supplierId: number, code: string) =>
    db
      .selectFrom('promotions as pr')
      .select(columns.map((c) => `pr.${c}` as const))
      .select((eb) => [
        jsonArrayFrom(
          eb
            .selectFrom('promotion_products as pp')
            .innerJoin('products as p', 'p.id', 'pp.product_id')
            .select(['p.internal_code', 'pp.box_ratio'])
            .where('pp.supplier_id', '=', supplierId)
            .whereRef('pp.promotion_id', '=', 'pr.id')
            .orderBy('pp.position'),
        ).as('products'),
        jsonArrayFrom(
          eb
            .selectFrom('promotion_groupers as pg')
            .innerJoin('groupers as g', 'g.id', 'pg.grouper_id')
            .select('g.internal_code')
            .where('pg.supplier_id', '=', supplierId)
            .whereRef('pg.promotion_id', '=', 'pr.id')
            .orderBy(byCode('g.internal_code')),
        ).as('groupers'),
      ])
      .where('pr.supplier_id', '=', supplierId)
      .where('pr.internal_code', '=', code),
  [-1, '\u0000code'] as const,
);

export async function findPromotionWithLinks(db: Executor, supplierId: number, code: string) {
  const [row] = await promotionWithLinks(db, supplierId, code);
  return row;
}

export interface ListFilter {
  /** Part of the code or the name, case-insensitive, taken literally. */
  search?: string;
  type?: PromotionType;
  enabled?: boolean;
  /** Keep promotions running on some day on or after `from` ... */
  from?: string;
  /** ... and on or before `to` (both days included). */
  to?: string;
}

function filtered(db: Executor, supplierId: number, filter: ListFilter) {
  let query = db.selectFrom('promotions').where('supplier_id', '=', supplierId);
  if (filter.search !== undefined) query = query.where(containsText(['internal_code', 'name'], filter.search));
  if (filter.type !== undefined) query = query.where('type', '=', filter.type);
  if (filter.enabled !== undefined) query = query.where('enabled', '=', filter.enabled);
  // start..end overlaps from..to: it ends on or after from and starts on or before to.
  if (filter.from !== undefined) query = query.where('end_date', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('start_date', '<=', filter.to);
  return query;
}

/** One page, by start date, then code. */
export async function listPromotions(db: Executor, supplierId: number, filter: ListFilter & { take: number; page: number }) {
  const base = filtered(db, supplierId, filter);
  return offsetPage(base, (q) => q.select(columns).orderBy('start_date').orderBy(byCode('internal_code')), filter);
}

/** Every promotion of the supplier (for pricing), optionally only those in force on `today`. */
export async function allPromotions(db: Executor, supplierId: number, inForceOn?: string) {
  let query = db.selectFrom('promotions').select(columns).where('supplier_id', '=', supplierId);
  if (inForceOn !== undefined) {
    query = query.where('enabled', '=', true).where('start_date', '<=', inForceOn).where('end_date', '>=', inForceOn);
  }
  return query.orderBy(byCode('internal_code')).execute();
}

/** The products of the given promotions, each promotion's in the order sent. */
export async function productsOf(db: Executor, supplierId: number, promotionIds: number[]) {
  if (promotionIds.length === 0) return [];
  return db
    .selectFrom('promotion_products as pp')
    .innerJoin('products as p', 'p.id', 'pp.product_id')
    .select(['pp.promotion_id', 'p.internal_code', 'pp.box_ratio'])
    .where('pp.supplier_id', '=', supplierId)
    .where(idIn('pp.promotion_id', promotionIds))
    .orderBy('pp.promotion_id')
    .orderBy('pp.position')
    .execute();
}

/** The grouper codes of the given promotions, by code. */
export async function grouperCodesOf(db: Executor, supplierId: number, promotionIds: number[]) {
  if (promotionIds.length === 0) return [];
  return db
    .selectFrom('promotion_groupers as pg')
    .innerJoin('groupers as g', 'g.id', 'pg.grouper_id')
    .select(['pg.promotion_id', 'g.internal_code'])
    .where('pg.supplier_id', '=', supplierId)
    .where(idIn('pg.promotion_id', promotionIds))
    .orderBy('pg.promotion_id')
    .orderBy(byCode('g.internal_code'))
    .execute();
}
