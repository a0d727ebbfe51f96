import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { insertElseUpsertStatement, type RowsWritten } from '../../db/insert-first.ts';
import { containsText, textIn, byCode, noRow, rowByCode } from '../../db/sql.ts';

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
export const brandIds = (db: Executor, supplierId: number, codes: string[]) => idsByCode(db, 'brands', supplierId, codes);
export const categoryIds = (db: Executor, supplierId: number, codes: string[]) => idsByCode(db, 'categories', supplierId, codes);

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

export interface ProductRow {
  code: string;
  name: string;
  brand_id: number;
  category_id: number;
  description: string | null;
  has_description: boolean;
  image: string | null;
  has_image: boolean;
  images: string[] | null;
  ean: string | null;
  has_ean: boolean;
  enabled: boolean | null;
  display_products: unknown[] | null;
}

/**
 * Writes a chunk of products, each code once (the caller merges a chunk's items per code),
 * absent fields keeping the current row's values (the merge in the SELECT, below). With
 * `expectNew` a plain INSERT is tried first and the upsert does the work only when a code
 * exists (`insertElseUpsertStatement`); answers whether every code was new, the caller's guess for
 * its next chunk.
 */
export async function writeProducts(trx: Transaction<DB>, supplierId: number, rows: ProductRow[], expectNew: boolean): Promise<RowsWritten> {
  if (rows.length === 0) return { allNew: true };
  const json = JSON.stringify(rows);
  return insertElseUpsertStatement(trx, 'products_insert', expectNew, (upsert) => productsStatement(supplierId, json, upsert));
}

// One statement in two forms, so a new code gets the same row from both. The upsert reads
// each code's current row (a probe per row, rowByCode) and merges the fields left out into
// it; the plain insert joins a relation that is empty by construction in its place, so
// every p.* is null and each column gets what the upsert gives a code that names nothing.
// The upsert answers, per row, whether it was inserted (xmax = 0: an inserted row version
// has none; an updated one carries this transaction's id).
// display_products is read from the record set as json and cast: the record set's own
// conversion of a nested value to jsonb cost PostgreSQL a sixth of the plain insert
// (docs/benchmarks.md).
const productsStatement = (supplierId: number, json: string, upsert: boolean) => sql`
    insert into products (supplier_id, internal_code, name, brand_id, category_id, description, image, images, ean, enabled, display_products)
    select ${supplierId}, r.code, r.name, r.brand_id, r.category_id,
      case when r.has_description then r.description else p.description end,
      case when r.has_image then r.image else p.image end,
      case when r.images is null then coalesce(p.images, '{}') else array(select json_array_elements_text(r.images)) end,
      case when r.has_ean then r.ean else p.ean end,
      coalesce(r.enabled, p.enabled, true),
      coalesce(r.display_products::jsonb, p.display_products, '[]')
    from json_to_recordset(${json}::json)
      as r(code text, name text, brand_id bigint, category_id bigint, description text, has_description boolean,
           image text, has_image boolean, images json, ean text, has_ean boolean, enabled boolean, display_products json)
    ${upsert ? rowByCode('products', 'p', supplierId, sql.ref('r.code')) : noRow('products', 'p')}
    ${
      upsert
        ? sql`on conflict (supplier_id, internal_code) do update set
      name = excluded.name, brand_id = excluded.brand_id, category_id = excluded.category_id,
      description = excluded.description, image = excluded.image, images = excluded.images, ean = excluded.ean,
      enabled = excluded.enabled, display_products = excluded.display_products, updated_at = now()
    returning xmax = 0 as inserted`
        : sql``
    }`;

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
  const [rows, count] = await Promise.all([
    base
      .leftJoin('categories as parent', 'parent.id', 'c.parent_id')
      .select(categoryColumns)
      .orderBy(sql`c.weight asc nulls last`)
      .orderBy(byCode('c.internal_code'))
      .limit(query.take)
      .offset((query.page - 1) * query.take)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
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
  const [rows, count] = await Promise.all([
    base
      .select(productColumns)
      .orderBy(byCode('p.internal_code'))
      .limit(f.take)
      .offset((f.page - 1) * f.take)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}
