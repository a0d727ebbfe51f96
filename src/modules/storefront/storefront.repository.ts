import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { idIn, textIn } from '../../db/sql.ts';

/** A store the person belongs to, with what pricing and orders need; undefined for any other store. */
export async function storeOfPerson(db: Kysely<DB>, personId: number, storeId: number) {
  return db
    .selectFrom('stores as s')
    .innerJoin('store_users as u', (j) => j.onRef('u.store_id', '=', 's.id').on('u.person_id', '=', personId))
    .innerJoin('suppliers as p', 'p.id', 's.supplier_id')
    .select([
      's.id',
      's.supplier_id',
      's.internal_code',
      's.name',
      's.legal_name',
      's.legal_id',
      's.enabled',
      's.addresses',
      's.drop_size',
      'p.minimum_order',
    ])
    .where('s.id', '=', storeId)
    .executeTakeFirst();
}

/** The person as the store's supplier knows them (the contact it gave when adding them). */
export async function membershipOf(db: Kysely<DB>, storeId: number, personId: number) {
  return db
    .selectFrom('store_users')
    .select(['phone', 'email', 'name'])
    .where('store_id', '=', storeId)
    .where('person_id', '=', personId)
    .executeTakeFirst();
}

export type StoreOfPerson = NonNullable<Awaited<ReturnType<typeof storeOfPerson>>>;

/** The store's price list (kept by store code) and its state. */
export async function storePriceList(db: Kysely<DB>, supplierId: number, storeCode: string) {
  return db
    .selectFrom('price_list_stores as x')
    .innerJoin('price_lists as l', 'l.id', 'x.price_list_id')
    .select(['l.id', 'l.internal_code', 'l.enabled'])
    .where('x.supplier_id', '=', supplierId)
    .where('x.store_code', '=', storeCode)
    .executeTakeFirst();
}

/** The store's stock grouper id and its promotion grouper codes. */
export async function storeGroupers(db: Kysely<DB>, supplierId: number, storeCode: string) {
  const rows = await db
    .selectFrom('grouper_stores as x')
    .innerJoin('groupers as g', 'g.id', 'x.grouper_id')
    .select(['g.id', 'g.internal_code', 'x.kind'])
    .where('x.supplier_id', '=', supplierId)
    .where('x.store_code', '=', storeCode)
    .execute();
  return {
    stockGrouperId: rows.find((r) => r.kind === 'stock')?.id,
    promotionGrouperCodes: rows.filter((r) => r.kind === 'promotion').map((r) => r.internal_code),
  };
}

export async function promotionGroupers(db: Kysely<DB>, supplierId: number) {
  return db.selectFrom('groupers').select(['internal_code', 'enabled']).where('supplier_id', '=', supplierId).where('kind', '=', 'promotion').execute();
}

export async function productsByCode(db: Kysely<DB>, supplierId: number, codes: string[]) {
  if (codes.length === 0) return [];
  return db
    .selectFrom('products')
    .select(['id', 'internal_code', 'name', 'enabled'])
    .where('supplier_id', '=', supplierId)
    .where(textIn('internal_code', codes))
    .execute();
}

export async function pricesOf(db: Kysely<DB>, supplierId: number, priceListId: number, productIds: number[]) {
  if (productIds.length === 0) return [];
  return db
    .selectFrom('price_entries')
    .select(['product_id', 'units', 'price'])
    .where('supplier_id', '=', supplierId)
    .where('price_list_id', '=', priceListId)
    .where(idIn('product_id', productIds))
    .execute();
}

export async function stockRulesOf(db: Kysely<DB>, supplierId: number, grouperId: number, productIds: number[]) {
  if (productIds.length === 0) return [];
  return db
    .selectFrom('stock_rules')
    .select(['product_id', 'units', 'available'])
    .where('supplier_id', '=', supplierId)
    .where('grouper_id', '=', grouperId)
    .where(idIn('product_id', productIds))
    .execute();
}

export interface CatalogFilter {
  search?: string;
  category?: string;
  brand?: string;
  take: number;
  page: number;
}

/**
 * A page of the products a store can buy: enabled, priced in its list in at least one
 * size that its stock grouper does not mark unavailable (a size rule wins over the
 * product's rule). Ordered by name, then code.
 */
export async function catalogPage(db: Kysely<DB>, supplierId: number, priceListId: number, stockGrouperId: number | undefined, f: CatalogFilter) {
  const available = sql<boolean>`exists (
    select 1 from price_entries e
    where e.supplier_id = ${supplierId} and e.price_list_id = ${priceListId} and e.product_id = p.id
      and coalesce((select r.available from stock_rules r
                    where r.supplier_id = ${supplierId} and r.grouper_id = ${stockGrouperId ?? null}::bigint
                      and r.product_id = p.id and r.units in (e.units, 0)
                    order by r.units desc limit 1), true))`;
  let query = db
    .selectFrom('products as p')
    .innerJoin('brands as b', 'b.id', 'p.brand_id')
    .innerJoin('categories as c', 'c.id', 'p.category_id')
    .leftJoin('categories as parent', 'parent.id', 'c.parent_id')
    .where('p.supplier_id', '=', supplierId)
    .where('p.enabled', '=', true)
    .where(available);
  if (f.search) {
    const like = `%${f.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    query = query.where((eb) => eb.or([eb('p.name', 'ilike', like), eb('p.internal_code', 'ilike', like)]));
  }
  if (f.category) query = query.where((eb) => eb.or([eb('c.internal_code', '=', f.category!), eb('parent.internal_code', '=', f.category!)]));
  if (f.brand) query = query.where('b.internal_code', '=', f.brand);
  const [rows, count] = await Promise.all([
    query
      .select(['p.id', 'p.internal_code', 'p.name', 'p.description', 'p.image', 'p.images', 'p.display_products', 'b.internal_code as brand_code', 'c.internal_code as category_code'])
      .orderBy('p.name')
      .orderBy(sql`p.internal_code collate "C"`)
      .limit(f.take)
      .offset((f.page - 1) * f.take)
      .execute(),
    query.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}
