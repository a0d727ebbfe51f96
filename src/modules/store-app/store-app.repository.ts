import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { textIn, byCode } from '../../db/sql.ts';
import { type RawBuilder, type SqlBool } from 'kysely';

// Membership in SQL (store-app.membership.ts holds the guard): a membership row names one
// of the person's proven identifiers.

/** The membership row under `alias` names one of the person's proven identifiers. */
export function namesPerson(personId: number, alias: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.ref(`${alias}.phone`)} = (select phone from people where id = ${personId})
    or ${sql.ref(`${alias}.email`)} = (select email from people where id = ${personId}))`;
}

/** The person is a member of the store whose id is the column `storeIdColumn` (e.g. `n.store_id`). */
export function isMember(personId: number, storeIdColumn: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from store_users m where m.store_id = ${sql.ref(storeIdColumn)} and ${namesPerson(personId, 'm')})`;
}

/**
 * A seller of the store's supplier (src/modules/sellers) serving the store under
 * `storeAlias` (by its code) names one of the person's proven identifiers: the same rule
 * as a membership's, so a seller reaches a store by proving a phone or email its
 * supplier gave, never by what another supplier registered.
 */
export function sellerServes(personId: number, storeAlias: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from seller_stores x join sellers v on v.id = x.seller_id
    where x.supplier_id = ${sql.ref(`${storeAlias}.supplier_id`)} and v.supplier_id = ${sql.ref(`${storeAlias}.supplier_id`)}
      and x.store_code = ${sql.ref(`${storeAlias}.internal_code`)} and ${namesPerson(personId, 'v')})`;
}

/**
 * A store the person is a member of (`seller`: a store they serve as its supplier's
 * seller), with what pricing and orders need; undefined for any other store.
 */
export async function memberStore(db: Kysely<DB>, personId: number, storeId: number, access: 'member' | 'seller' = 'member') {
  return db
    .selectFrom('stores as s')
    .innerJoin('suppliers as p', 'p.id', 's.supplier_id')
    .select([
      's.id',
      's.supplier_id',
      's.internal_code',
      's.name',
      's.legal_name',
      's.legal_id',
      // A disabled supplier's stores are closed to their buyers (no cart, no order).
      sql<boolean>`s.enabled and p.enabled`.as('enabled'),
      's.addresses',
      's.drop_size',
      'p.minimum_order',
      // Null for a store without a delivery zone: its cart and orders then read no zone at all.
      's.delivery_zone_id',
    ])
    .where('s.id', '=', storeId)
    .where(access === 'member' ? isMember(personId, 's.id') : sellerServes(personId, 's'))
    .executeTakeFirst();
}

/** The person as the store's supplier knows them (the contact it gave when adding them; the earliest when several name them). */
export async function buyerOf(db: Kysely<DB>, storeId: number, personId: number) {
  return db
    .selectFrom('store_users')
    .select(['phone', 'email', 'name'])
    .where('store_id', '=', storeId)
    .where(namesPerson(personId, 'store_users'))
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export type MemberStore = NonNullable<Awaited<ReturnType<typeof memberStore>>>;

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
    .select(['id', 'internal_code', 'name', 'enabled', 'min_units', 'max_units', 'multiple'])
    .where('supplier_id', '=', supplierId)
    .where(textIn('internal_code', codes))
    .execute();
}

/**
 * Every product a store with this price list and stock grouper can buy: enabled, priced
 * in the list in at least one size that the grouper does not mark unavailable (a size
 * rule wins over the product's rule). Ordered by name, then code: the catalogue's order.
 * With the names of its brand, category and parent category (the filters' choices).
 */
export async function catalogProducts(db: Kysely<DB>, supplierId: number, priceListId: number, stockGrouperId: number | undefined) {
  const available = sql<boolean>`exists (
    select 1 from price_entries e
    where e.supplier_id = ${supplierId} and e.price_list_id = ${priceListId} and e.product_id = p.id
      and coalesce((select r.available from stock_rules r
                    where r.supplier_id = ${supplierId} and r.grouper_id = ${stockGrouperId ?? null}::bigint
                      and r.product_id = p.id and r.units in (e.units, 0)
                    order by r.units desc limit 1), true))`;
  return db
    .selectFrom('products as p')
    .innerJoin('brands as b', 'b.id', 'p.brand_id')
    .innerJoin('categories as c', 'c.id', 'p.category_id')
    .leftJoin('categories as parent', 'parent.id', 'c.parent_id')
    .where('p.supplier_id', '=', supplierId)
    .where('p.enabled', '=', true)
    .where(available)
    .select([
      'p.id',
      'p.internal_code',
      'p.name',
      'p.description',
      'p.image',
      'p.images',
      'p.display_products',
      'b.internal_code as brand_code',
      'b.name as brand_name',
      'c.internal_code as category_code',
      'c.name as category_name',
      'parent.internal_code as parent_category_code',
      'parent.name as parent_category_name',
    ])
    .orderBy('p.name')
    .orderBy(byCode('p.internal_code'))
    .execute();
}

export type CatalogProductRow = Awaited<ReturnType<typeof catalogProducts>>[number];

/** Every rule of a stock grouper, with its product's code. */
export async function grouperStockRules(db: Kysely<DB>, supplierId: number, grouperId: number) {
  return db
    .selectFrom('stock_rules as r')
    .innerJoin('products as p', 'p.id', 'r.product_id')
    .select(['r.product_id', 'p.internal_code', 'r.units', 'r.available'])
    .where('r.supplier_id', '=', supplierId)
    .where('r.grouper_id', '=', grouperId)
    .execute();
}

/** Every product of the supplier: code, name, enabled. */
export async function allProducts(db: Kysely<DB>, supplierId: number) {
  return db.selectFrom('products').select(['internal_code', 'name', 'enabled', 'min_units', 'max_units', 'multiple']).where('supplier_id', '=', supplierId).execute();
}

/** The prices in a list of the products with these codes (by code: no lookup of ids first). */
export async function pricesByCode(db: Kysely<DB>, supplierId: number, priceListId: number, codes: string[]) {
  if (codes.length === 0) return [];
  return db
    .selectFrom('price_entries as e')
    .innerJoin('products as p', 'p.id', 'e.product_id')
    .select(['p.internal_code', 'e.units', 'e.price'])
    .where('e.supplier_id', '=', supplierId)
    .where('e.price_list_id', '=', priceListId)
    .where('p.supplier_id', '=', supplierId)
    .where(textIn('p.internal_code', codes))
    .execute();
}

/** A stock grouper's rules for the products with these codes. */
export async function stockRulesByCode(db: Kysely<DB>, supplierId: number, grouperId: number, codes: string[]) {
  if (codes.length === 0) return [];
  return db
    .selectFrom('stock_rules as r')
    .innerJoin('products as p', 'p.id', 'r.product_id')
    .select(['p.internal_code', 'r.units', 'r.available'])
    .where('r.supplier_id', '=', supplierId)
    .where('r.grouper_id', '=', grouperId)
    .where('p.supplier_id', '=', supplierId)
    .where(textIn('p.internal_code', codes))
    .execute();
}
