import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { insertElseUpsertStatement, type RowsWritten } from '../../db/insert-first.ts';
import { containsText, textIn, byCode, noRow, rowByCode } from '../../db/sql.ts';

type Executor = Kysely<DB> | Transaction<DB>;

/** The codes among `codes` that name an existing store of the supplier. */
export async function existingStoreCodes(db: Executor, supplierId: number, codes: string[]) {
  if (codes.length === 0) return new Set<string>();
  const rows = await db
    .selectFrom('stores')
    .select('internal_code')
    .where('supplier_id', '=', supplierId)
    .where(textIn('internal_code', codes))
    .execute();
  return new Set(rows.map((r) => r.internal_code));
}

export interface StoreRow {
  code: string;
  name: string;
  legal_name: string | null;
  has_legal_name: boolean;
  legal_id: string | null;
  has_legal_id: boolean;
  owner_name: string | null;
  has_owner_name: boolean;
  phone: string | null;
  has_phone: boolean;
  email: string | null;
  has_email: boolean;
  enabled: boolean | null;
  addresses: unknown[] | null;
  drop_size: number | null;
  has_drop_size: boolean;
}

/**
 * Writes a chunk of stores, each code once (the caller merges a chunk's items per code),
 * absent fields keeping their value. With `expectNew` a plain INSERT is tried first and
 * the upsert does the work only when a code exists (`insertElseUpsertStatement`); answers whether
 * every code was new, the caller's guess for its next chunk.
 */
export async function writeStores(trx: Transaction<DB>, supplierId: number, rows: StoreRow[], expectNew: boolean): Promise<RowsWritten> {
  if (rows.length === 0) return { allNew: true };
  const json = JSON.stringify(rows);
  return insertElseUpsertStatement(trx, 'stores_insert', expectNew, (upsert) => storesStatement(supplierId, json, upsert));
}

// One statement in two forms, so a new code gets the same row from both. The upsert merges
// the fields left out with the current row, read in the SELECT (a probe per row,
// rowByCode), which is safe because batches that write the same store apply one at a time
// (their key ranges meet, batch README "Ordering"); chunks applied side by side write
// different stores. The plain insert joins a relation that is empty by construction in its
// place, so every s.* is null and each column gets what the upsert gives a code that names
// nothing. The upsert answers, per row, whether it was inserted (xmax = 0). The addresses
// are read from the record set as json and cast: the record set's own conversion of a
// nested value to jsonb cost PostgreSQL a fifth of the plain insert (docs/benchmarks.md).
const storesStatement = (supplierId: number, json: string, upsert: boolean) => sql`
    insert into stores (supplier_id, internal_code, name, legal_name, legal_id, owner_name, phone, email, enabled, addresses, drop_size)
    select ${supplierId}, r.code, r.name,
      case when r.has_legal_name then r.legal_name else s.legal_name end,
      case when r.has_legal_id then r.legal_id else s.legal_id end,
      case when r.has_owner_name then r.owner_name else s.owner_name end,
      case when r.has_phone then r.phone else s.phone end,
      case when r.has_email then r.email else s.email end,
      coalesce(r.enabled, s.enabled, true),
      coalesce(r.addresses::jsonb, s.addresses, '[]'),
      case when r.has_drop_size then r.drop_size else s.drop_size end
    from json_to_recordset(${json}::json) as r(
      code text, name text, legal_name text, has_legal_name boolean, legal_id text, has_legal_id boolean,
      owner_name text, has_owner_name boolean, phone text, has_phone boolean, email text, has_email boolean,
      enabled boolean, addresses json, drop_size numeric, has_drop_size boolean)
    ${upsert ? rowByCode('stores', 's', supplierId, sql.ref('r.code')) : noRow('stores', 's')}
    ${
      upsert
        ? sql`on conflict (supplier_id, internal_code) do update set
      name = excluded.name, legal_name = excluded.legal_name, legal_id = excluded.legal_id,
      owner_name = excluded.owner_name, phone = excluded.phone, email = excluded.email,
      enabled = excluded.enabled, addresses = excluded.addresses, drop_size = excluded.drop_size,
      updated_at = now()
    returning xmax = 0 as inserted`
        : sql``
    }`;

export async function findStore(db: Executor, supplierId: number, code: string) {
  return db.selectFrom('stores').selectAll().where('supplier_id', '=', supplierId).where('internal_code', '=', code).executeTakeFirst();
}

/** The store's price list, stock grouper and promotion groupers, all kept by store code. */
export async function storeLinks(db: Executor, supplierId: number, code: string) {
  const [priceList, groupers] = await Promise.all([
    db
      .selectFrom('price_list_stores as x')
      .innerJoin('price_lists as l', 'l.id', 'x.price_list_id')
      .select('l.internal_code')
      .where('x.supplier_id', '=', supplierId)
      .where('x.store_code', '=', code)
      .executeTakeFirst(),
    db
      .selectFrom('grouper_stores as x')
      .innerJoin('groupers as g', 'g.id', 'x.grouper_id')
      .select(['g.internal_code', 'x.kind'])
      .where('x.supplier_id', '=', supplierId)
      .where('x.store_code', '=', code)
      .orderBy(byCode('g.internal_code'))
      .execute(),
  ]);
  return {
    priceListCode: priceList?.internal_code ?? null,
    stockGrouperCode: groupers.find((g) => g.kind === 'stock')?.internal_code ?? null,
    promotionGrouperCodes: groupers.filter((g) => g.kind === 'promotion').map((g) => g.internal_code),
  };
}

/** A page of the supplier's stores by code. */
export async function listStores(db: Executor, supplierId: number, f: { search?: string; enabled?: boolean; take: number; page: number }) {
  let base = db.selectFrom('stores').where('supplier_id', '=', supplierId);
  if (f.search) base = base.where(containsText(['internal_code', 'name'], f.search));
  if (f.enabled !== undefined) base = base.where('enabled', '=', f.enabled);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy(byCode('internal_code'))
      .limit(f.take)
      .offset((f.page - 1) * f.take)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

/** The links of several stores at once (two queries for a whole page), by store code. */
export async function storeLinksOf(db: Executor, supplierId: number, codes: string[]) {
  if (codes.length === 0) return () => ({ priceListCode: null, stockGrouperCode: null, promotionGrouperCodes: [] as string[] });
  const [priceLists, groupers] = await Promise.all([
    db
      .selectFrom('price_list_stores as x')
      .innerJoin('price_lists as l', 'l.id', 'x.price_list_id')
      .select(['x.store_code', 'l.internal_code'])
      .where('x.supplier_id', '=', supplierId)
      .where(textIn('x.store_code', codes))
      .execute(),
    db
      .selectFrom('grouper_stores as x')
      .innerJoin('groupers as g', 'g.id', 'x.grouper_id')
      .select(['x.store_code', 'g.internal_code', 'x.kind'])
      .where('x.supplier_id', '=', supplierId)
      .where(textIn('x.store_code', codes))
      .orderBy(byCode('g.internal_code'))
      .execute(),
  ]);
  const priceListOf = new Map(priceLists.map((r) => [r.store_code, r.internal_code]));
  return (code: string) => ({
    priceListCode: priceListOf.get(code) ?? null,
    stockGrouperCode: groupers.find((g) => g.store_code === code && g.kind === 'stock')?.internal_code ?? null,
    promotionGrouperCodes: groupers.filter((g) => g.store_code === code && g.kind === 'promotion').map((g) => g.internal_code),
  });
}

/**
 * The store as the store app's pricing reads it (the store app's memberStore, the same
 * columns), found by the supplier's code instead of through a person's membership.
 */
export async function storeForPricing(db: Executor, supplierId: number, code: string) {
  return db
    .selectFrom('stores as s')
    .innerJoin('suppliers as p', 'p.id', 's.supplier_id')
    .select(['s.id', 's.supplier_id', 's.internal_code', 's.name', 's.legal_name', 's.legal_id', 's.enabled', 's.addresses', 's.drop_size', 'p.minimum_order'])
    .where('s.supplier_id', '=', supplierId)
    .where('s.internal_code', '=', code)
    .executeTakeFirst();
}

export async function unlinkPriceLists(trx: Transaction<DB>, supplierId: number, storeCodes: string[]) {
  if (storeCodes.length === 0) return;
  await trx.deleteFrom('price_list_stores').where('supplier_id', '=', supplierId).where(textIn('store_code', storeCodes)).execute();
}

export async function unlinkStockGroupers(trx: Transaction<DB>, supplierId: number, storeCodes: string[]) {
  if (storeCodes.length === 0) return;
  await trx
    .deleteFrom('grouper_stores')
    .where('supplier_id', '=', supplierId)
    .where('kind', '=', 'stock')
    .where(textIn('store_code', storeCodes))
    .execute();
}

/** The store's users as this supplier gave them (never another supplier's view of the person). */
export async function storeUsers(db: Executor, supplierId: number, storeId: number) {
  return db
    .selectFrom('store_users')
    .select(['phone', 'email', 'name'])
    .where('supplier_id', '=', supplierId)
    .where('store_id', '=', storeId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Only one request changes a store's users at a time (matching, then writing, must not interleave). */
export async function lockStore(trx: Transaction<DB>, storeId: number) {
  await trx.selectFrom('stores').select('id').where('id', '=', storeId).forUpdate().executeTakeFirst();
}

/** The store's membership a contact names: by phone first, else by email (the supplier's own data only). */
export async function findMembership(trx: Transaction<DB>, storeId: number, phone: string | null, email: string | null) {
  const rows = await trx
    .selectFrom('store_users')
    .select(['id', 'phone', 'email'])
    .where('store_id', '=', storeId)
    .where((eb) => eb.or([...(phone ? [eb('phone', '=', phone)] : []), ...(email ? [eb('email', '=', email)] : [])]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return (phone ? rows.find((r) => r.phone === phone) : undefined) ?? rows[0];
}

export interface Membership {
  phone: string | null;
  email: string | null;
  name: string | null;
}

export async function insertMembership(trx: Transaction<DB>, supplierId: number, storeId: number, m: Membership) {
  await trx.insertInto('store_users').values({ supplier_id: supplierId, store_id: storeId, phone: m.phone, email: m.email, name: m.name }).execute();
}

/** What is sent now completes or replaces the supplier's view; what is left out stays. */
export async function updateMembership(trx: Transaction<DB>, id: number, m: Membership) {
  await trx
    .updateTable('store_users')
    .set({ phone: sql`coalesce(${m.phone}::text, phone)`, email: sql`coalesce(${m.email}::text, email)`, name: sql`coalesce(${m.name}::text, name)` })
    .where('id', '=', id)
    .execute();
}

/** Takes off the store every membership naming one of the phones or emails given. */
export async function removeMemberships(
  trx: Transaction<DB>,
  supplierId: number,
  storeId: number,
  who: { phones: string[]; emails: string[] },
) {
  await trx
    .deleteFrom('store_users')
    .where('supplier_id', '=', supplierId)
    .where('store_id', '=', storeId)
    .where((eb) =>
      eb.or([
        textIn('phone', who.phones),
        textIn('email', who.emails),
      ]),
    )
    .execute();
}
