import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { insertElseUpsert, type RowsWritten } from '../../db/insert-first.ts';
import type { StagedRun } from '../batch/batch.kinds.ts';
import { containsText, textIn, byCode, idsOf, noRow, rowByCode, sentJson } from '../../db/sql.ts';
import { registerImages } from '../images/images.repository.ts';
import { offsetPage } from '../../db/paging.ts';
import { readStagedRows } from '../batch/batch.repository.ts';

type Executor = Kysely<DB> | Transaction<DB>;

async function idsByCode(db: Executor, table: 'brands' | 'categories' | 'products', supplierId: number, codes: string[]) {
  if (codes.length === 0) return new Map<string, number>();
  const rows = await db
    .selectFrom(table)
    .select(['id', 'internal_code'])
    .where('supplier_id', '=', supplierId)
    .where(textIn('internal_code', codes))
    .execute();
  return new Map(rows.map((r) => [r.internal_code, r.id]));
}

export const productIds = (db: Executor, supplierId: number, codes: string[]) => idsByCode(db, 'products', supplierId, codes);

/** name by internalCode for the given product codes. */
export async function productNames(db: Executor, supplierId: number, codes: string[]) {
  if (codes.length === 0) return new Map<string, string>();
  const rows = await db
    .selectFrom('products')
    .select(['internal_code', 'name'])
    .where('supplier_id', '=', supplierId)
    .where(textIn('internal_code', codes))
    .execute();
  return new Map(rows.map((r) => [r.internal_code, r.name]));
}

/** Brand rows for one statement; has_* says whether the field was sent (absent keeps the current value). */
export interface BrandRow {
  code: string;
  name: string;
  weight: number | null;
  has_weight: boolean;
  image: string | null;
  has_image: boolean;
  enabled: boolean | null;
}

// The merge with the current row happens in the SELECT (a probe per row, rowByCode), because
// ON CONFLICT cannot see whether a field was sent. Safe: batches that write the same code
// apply one at a time (their key ranges meet, batch README "Ordering"), and two chunks
// applied side by side write different codes.
export async function upsertBrands(trx: Transaction<DB>, supplierId: number, rows: BrandRow[]) {
  if (rows.length === 0) return;
  await sql`
    insert into brands (supplier_id, internal_code, name, weight, image, enabled)
    select ${supplierId}, r.code, r.name,
      case when r.has_weight then r.weight else b.weight end,
      case when r.has_image then r.image else b.image end,
      coalesce(r.enabled, b.enabled, true)
    from json_to_recordset(${JSON.stringify(rows)}::json)
      as r(code text, name text, weight float8, has_weight boolean, image text, has_image boolean, enabled boolean)
    ${rowByCode('brands', 'b', supplierId, sql.ref('r.code'))}
    on conflict (supplier_id, internal_code) do update set
      name = excluded.name, weight = excluded.weight, image = excluded.image, enabled = excluded.enabled, updated_at = now()`.execute(trx);
}

/**
 * POST /batch/product's staging table (migration 0030): a row per chunk of a batch, the
 * items' values as arrays, brand and category codes once per chunk. The batch engine
 * writes it with COPY when it accepts a request (batch README, "Staging"); `sent` says
 * which of description (1), image (2) and ean (4) an item sent, since each takes null to
 * clear the stored value and keeps it when absent.
 */
export const productItemsStaging = {
  table: 'batch_product_chunks',
  columns: [
    { values: 'codes' },
    { values: 'names' },
    { values: 'descriptions' },
    { values: 'brands', index: 'brand_ix' },
    { values: 'categories', index: 'category_ix' },
    { values: 'image_urls' },
    { values: 'images', json: true },
    { values: 'eans' },
    { values: 'enabled' },
    { values: 'display_products', json: true },
    { values: 'sent' },
    { values: 'min_units' },
    { values: 'max_units' },
    { values: 'multiples' },
  ],
} as const;

/** The bits of `sent`: the nullable fields (null clears, absent keeps), the case rules since migration 0041. */
export const SENT = { description: 1, image: 2, ean: 4, minUnits: 8, maxUnits: 16, multiple: 32 } as const;
/** Whether a staged item (its `sent`) sent the field. */
const sent = (field: keyof typeof SENT) => sql<boolean>`(sent & ${sql.lit(SENT[field])} <> 0)`;

export interface StagedProduct {
  code: string;
  name: string;
  description: string | null;
  brand: string;
  category: string;
  image: string | null;
  images: string[] | null;
  ean: string | null;
  enabled: boolean | null;
  display_products: unknown[] | null;
  sent: number;
  min_units: number | null;
  max_units: number | null;
  multiple: number | null;
}

/**
 * A chunk's items, one row each, in order: the arrays and the json arrays (images,
 * display_products) zipped by place (ROWS FROM), a JSON null where an item sent nothing.
 */
const itemsOfChunk = sql`rows from (
      unnest(c.codes), unnest(c.names), unnest(c.descriptions), unnest(c.brand_ix), unnest(c.category_ix), unnest(c.image_urls),
      json_array_elements(c.images), unnest(c.eans), unnest(c.enabled), json_array_elements(c.display_products), unnest(c.sent),
      unnest(c.min_units), unnest(c.max_units), unnest(c.multiples))
    with ordinality as o(code, name, description, bx, cx, image, images, ean, enabled, display_products, sent, min_units, max_units, multiple, n)`;

/** A staged batch's items, in order. */
export async function readStagedProducts(db: Kysely<DB>, batchSeq: number): Promise<StagedProduct[]> {
  const columns = sql`o.code, o.name, o.description, c.brands[o.bx] as brand, c.categories[o.cx] as category,
      o.image, ${sentJson('o.images')}::json as images, o.ean, o.enabled, ${sentJson('o.display_products')}::json as display_products, o.sent,
      o.min_units, o.max_units, o.multiple`;
  return readStagedRows(db, 'batch_product_chunks', columns, itemsOfChunk, batchSeq);
}

/**
 * A staged product that named a brand or a category the supplier does not have, or sent a
 * minUnits above its maxUnits: nothing of it is written.
 */
export interface UnresolvedProduct {
  idx: number;
  brand: string;
  category: string;
  brand_known: boolean;
  /** Brand and category known, but the item's minUnits is above its maxUnits. */
  rules_conflict?: true;
}

export interface ProductWrite extends RowsWritten {
  unresolved: UnresolvedProduct[];
}

/**
 * Writes the staged products [from, to) of a batch (`run`) by one statement, with `expectNew`
 * a plain INSERT first (`insertElseUpsert`): no item passes through Node. Answers the
 * items whose brand or category named nothing; nothing of them is written.
 */
export function writeStagedProducts(trx: Transaction<DB>, supplierId: number, run: StagedRun, expectNew: boolean): Promise<ProductWrite> {
  return insertElseUpsert(trx, 'products_insert', expectNew, (upsert) => writeProducts(trx, supplierId, run, upsert));
}

// The statement, in the order it reads:
// - chunk: the staging row, with the ids of the brand and category codes it names, each
//   resolved once (idsOf); materialized, so never once per item.
// - input: the run's items, each with its batch index and its brand's and category's id.
// - rows: one row per code, as if the items had been applied one after another: a later
//   item wins for every field it sends, and a field it leaves out keeps what an earlier
//   item of the run sent (ON CONFLICT cannot touch a row twice in one statement, and
//   keeping only the last item would lose those fields). Codes named once, nearly all,
//   are taken as they are; only codes named more than once are aggregated.
// - written: the insert. The upsert reads each code's current row (a probe per row,
//   rowByCode) and keeps a field left out from it; the plain insert joins a relation that
//   is empty by construction in its place (noRow), so a new code gets the same row from
//   both. The upsert answers, per row, whether it was inserted (xmax = 0).
// - registered: the image URLs the rows send, registered for download (registerImages).
// The answer is one row: how many rows existed, and the items that named nothing.
// Safe beside other writes: batches that write the same codes apply one at a time (their
// key ranges meet, batch README "Ordering"), and two chunks applied side by side write
// different codes.
async function writeProducts(trx: Transaction<DB>, supplierId: number, run: StagedRun, upsert: boolean): Promise<ProductWrite> {
  const result = await sql<{ existing: number; unresolved: UnresolvedProduct[] | null }>`
    with chunk as materialized (
      select c.*, ${idsOf('brands', supplierId, sql`c.brands`)} as brand_ids, ${idsOf('categories', supplierId, sql`c.categories`)} as category_ids
      from batch_product_chunks c where c.batch_seq = ${run.batchSeq} and c.chunk = ${run.chunk}),
    input as (
      select (${run.first - 1} + o.n)::int as idx, o.code, o.name, o.description, o.bx, o.cx, c.brand_ids[o.bx] as brand_id, c.category_ids[o.cx] as category_id,
        o.image, ${sentJson('o.images')} as images, o.ean, o.enabled, ${sentJson('o.display_products')} as display_products, o.sent,
        o.min_units, o.max_units, o.multiple
      from chunk c
      cross join lateral ${itemsOfChunk}
      where o.n > ${run.from - run.first} and o.n <= ${run.to - run.first}),
    valid as (select * from input where brand_id is not null and category_id is not null and not coalesce(min_units > max_units, false)),
    twice as (select code from valid group by code having count(*) > 1),
    rows as (
      select code, name, brand_id, category_id, description, ${sent('description')} as has_description, image, ${sent('image')} as has_image,
        images, ean, ${sent('ean')} as has_ean, enabled, display_products,
        min_units, ${sent('minUnits')} as has_min_units, max_units, ${sent('maxUnits')} as has_max_units, multiple, ${sent('multiple')} as has_multiple
      from valid where code not in (select code from twice)
      union all
      select code, (array_agg(name order by idx desc))[1], (array_agg(brand_id order by idx desc))[1], (array_agg(category_id order by idx desc))[1],
        (array_agg(description order by idx desc) filter (where ${sent('description')}))[1], bool_or(${sent('description')}),
        (array_agg(image order by idx desc) filter (where ${sent('image')}))[1], bool_or(${sent('image')}),
        (array_agg(images order by idx desc) filter (where images is not null))[1],
        (array_agg(ean order by idx desc) filter (where ${sent('ean')}))[1], bool_or(${sent('ean')}),
        (array_agg(enabled order by idx desc) filter (where enabled is not null))[1],
        (array_agg(display_products order by idx desc) filter (where display_products is not null))[1],
        (array_agg(min_units order by idx desc) filter (where ${sent('minUnits')}))[1], bool_or(${sent('minUnits')}),
        (array_agg(max_units order by idx desc) filter (where ${sent('maxUnits')}))[1], bool_or(${sent('maxUnits')}),
        (array_agg(multiple order by idx desc) filter (where ${sent('multiple')}))[1], bool_or(${sent('multiple')})
      from valid where code in (select code from twice) group by code),
    written as (
      insert into products (supplier_id, internal_code, name, brand_id, category_id, description, image, images, ean, enabled, display_products,
                            min_units, max_units, multiple)
      select ${supplierId}, r.code, r.name, r.brand_id, r.category_id,
        case when r.has_description then r.description else p.description end,
        case when r.has_image then r.image else p.image end,
        case when r.images is null then coalesce(p.images, '{}') else array(select json_array_elements_text(r.images::json)) end,
        case when r.has_ean then r.ean else p.ean end,
        coalesce(r.enabled, p.enabled, true),
        coalesce(r.display_products::jsonb, p.display_products, '[]'),
        case when r.has_min_units then r.min_units else p.min_units end,
        case when r.has_max_units then r.max_units else p.max_units end,
        case when r.has_multiple then r.multiple else p.multiple end
      from rows r
      ${upsert ? rowByCode('products', 'p', supplierId, sql.ref('r.code')) : noRow('products', 'p')}
      ${
        upsert
          ? sql`on conflict (supplier_id, internal_code) do update set
        name = excluded.name, brand_id = excluded.brand_id, category_id = excluded.category_id,
        description = excluded.description, image = excluded.image, images = excluded.images, ean = excluded.ean,
        enabled = excluded.enabled, display_products = excluded.display_products,
        min_units = excluded.min_units, max_units = excluded.max_units, multiple = excluded.multiple, updated_at = now()
      returning xmax = 0 as inserted`
          : sql``
      }),
    registered as (${registerImages(supplierId, sql`select image from rows union all select json_array_elements_text(images::json) from rows where images is not null`)})
    select ${upsert ? sql`(select count(*) from written where not inserted)::int` : sql`0`} as existing,
      (select json_agg(case when i.brand_id is not null and i.category_id is not null
                              then json_build_object('idx', i.idx, 'brand', c.brands[i.bx], 'category', c.categories[i.cx], 'brand_known', true, 'rules_conflict', true)
                              else json_build_object('idx', i.idx, 'brand', c.brands[i.bx], 'category', c.categories[i.cx], 'brand_known', i.brand_id is not null) end
                       order by i.idx)
       from input i cross join chunk c where i.brand_id is null or i.category_id is null or i.min_units > i.max_units) as unresolved`.execute(trx);
  const row = result.rows[0]!;
  return { allNew: row.existing === 0, unresolved: row.unresolved ?? [] };
}

export async function findBrand(db: Executor, supplierId: number, code: string) {
  return db.selectFrom('brands').selectAll().where('supplier_id', '=', supplierId).where('internal_code', '=', code).executeTakeFirst();
}

const categoryColumns = [
  'c.id',
  'c.internal_code',
  'c.name',
  'c.weight',
  'c.image',
  'c.enabled',
  'c.parent_id',
  'c.created_at',
  'c.updated_at',
  'parent.internal_code as parent_code',
] as const;

export async function findCategory(db: Executor, supplierId: number, code: string) {
  return db
    .selectFrom('categories as c')
    .leftJoin('categories as parent', 'parent.id', 'c.parent_id')
    .select(categoryColumns)
    .where('c.supplier_id', '=', supplierId)
    .where('c.internal_code', '=', code)
    .executeTakeFirst();
}

export type CategoryRow = NonNullable<Awaited<ReturnType<typeof findCategory>>>;

/**
 * Inserts or updates the category; false when the code exists at the other level. The
 * level is checked in the statement itself (not only before it), so two concurrent first
 * writes of one code at both levels cannot both succeed: the later one waits for the
 * first to commit, then finds the row at the other level and leaves it alone.
 */
export async function upsertCategory(
  trx: Transaction<DB>,
  supplierId: number,
  input: { code: string; name: string; parentId: number | null; weight?: number | null; image?: string | null; enabled?: boolean },
): Promise<boolean> {
  const values = {
    supplier_id: supplierId,
    internal_code: input.code,
    name: input.name,
    parent_id: input.parentId,
    ...(input.weight !== undefined ? { weight: input.weight } : {}),
    ...(input.image !== undefined ? { image: input.image } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
  };
  const { supplier_id: _s, internal_code: _c, ...changes } = values;
  const written = await trx
    .insertInto('categories')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['supplier_id', 'internal_code'])
        .doUpdateSet({ ...changes, updated_at: sql`now()` })
        .where(sql<boolean>`(categories.parent_id is null) = (excluded.parent_id is null)`),
    )
    .returning('id')
    .execute();
  return written.length === 1;
}


/** Level-1 categories of a page, ordered by weight (nulls last), then code. */
export async function listTopCategories(db: Executor, supplierId: number, query: { enabled?: boolean; take: number; page: number }) {
  let base = db.selectFrom('categories as c').where('c.supplier_id', '=', supplierId).where('c.parent_id', 'is', null);
  if (query.enabled !== undefined) base = base.where('c.enabled', '=', query.enabled);
  return offsetPage(
    base,
    (q) =>
      q
        .leftJoin('categories as parent', 'parent.id', 'c.parent_id')
        .select(categoryColumns)
        .orderBy(sql`c.weight asc nulls last`)
        .orderBy(byCode('c.internal_code')),
    query,
  );
}

export async function listSubcategories(db: Executor, supplierId: number, parentIds: number[], enabled?: boolean) {
  if (parentIds.length === 0) return [];
  let query = db
    .selectFrom('categories as c')
    .leftJoin('categories as parent', 'parent.id', 'c.parent_id')
    .select(categoryColumns)
    .where('c.supplier_id', '=', supplierId)
    .where('c.parent_id', 'in', parentIds);
  if (enabled !== undefined) query = query.where('c.enabled', '=', enabled);
  return query.orderBy(sql`c.weight asc nulls last`).orderBy(byCode('c.internal_code')).execute();
}

const productColumns = [
  'p.internal_code',
  'p.name',
  'p.description',
  'b.internal_code as brand_code',
  'c.internal_code as category_code',
  'p.image',
  'p.images',
  'p.enabled',
  'p.ean',
  'p.display_products',
  'p.min_units',
  'p.max_units',
  'p.multiple',
  'p.created_at',
  'p.updated_at',
] as const;

const products = (db: Executor) =>
  db
    .selectFrom('products as p')
    .innerJoin('brands as b', 'b.id', 'p.brand_id')
    .innerJoin('categories as c', 'c.id', 'p.category_id');

export async function findProduct(db: Executor, supplierId: number, code: string) {
  return products(db)
    .select(productColumns)
    .where('p.supplier_id', '=', supplierId)
    .where('p.internal_code', '=', code)
    .executeTakeFirst();
}

export type ProductRecord = NonNullable<Awaited<ReturnType<typeof findProduct>>>;

export interface ProductFilter {
  search?: string;
  enabled?: boolean;
  brand?: string;
  category?: string;
  take: number;
  page: number;
}

/** A page of the supplier's products by code; a category takes in its subcategories' products. */
export async function listProducts(db: Executor, supplierId: number, f: ProductFilter) {
  let base = products(db).where('p.supplier_id', '=', supplierId);
  if (f.search) base = base.where(containsText(['p.internal_code', 'p.name'], f.search));
  if (f.enabled !== undefined) base = base.where('p.enabled', '=', f.enabled);
  if (f.brand) base = base.where('b.internal_code', '=', f.brand);
  if (f.category) {
    const category = f.category;
    base = base.where((eb) =>
      eb.or([
        eb('c.internal_code', '=', category),
        eb('c.parent_id', 'in', eb.selectFrom('categories').select('id').where('supplier_id', '=', supplierId).where('internal_code', '=', category)),
      ]),
    );
  }
  return offsetPage(base, (q) => q.select(productColumns).orderBy(byCode('p.internal_code')), f);
}
