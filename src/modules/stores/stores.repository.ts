import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { idIn, textIn } from '../../db/sql.ts';

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

// Absent fields keep their value: the merge with the current row happens in the SELECT,
// which is safe because one supplier's batches apply one at a time.
export async function upsertStores(trx: Transaction<DB>, supplierId: number, rows: StoreRow[]) {
  if (rows.length === 0) return;
  await sql`
    insert into stores (supplier_id, internal_code, name, legal_name, legal_id, owner_name, phone, email, enabled, addresses, drop_size)
    select ${supplierId}, r.code, r.name,
      case when r.has_legal_name then r.legal_name else s.legal_name end,
      case when r.has_legal_id then r.legal_id else s.legal_id end,
      case when r.has_owner_name then r.owner_name else s.owner_name end,
      case when r.has_phone then r.phone else s.phone end,
      case when r.has_email then r.email else s.email end,
      coalesce(r.enabled, s.enabled, true),
      coalesce(r.addresses, s.addresses, '[]'),
      case when r.has_drop_size then r.drop_size else s.drop_size end
    from json_to_recordset(${JSON.stringify(rows)}::json) as r(
      code text, name text, legal_name text, has_legal_name boolean, legal_id text, has_legal_id boolean,
      owner_name text, has_owner_name boolean, phone text, has_phone boolean, email text, has_email boolean,
      enabled boolean, addresses jsonb, drop_size numeric, has_drop_size boolean)
    left join stores s on s.supplier_id = ${supplierId} and s.internal_code = r.code
    on conflict (supplier_id, internal_code) do update set
      name = excluded.name, legal_name = excluded.legal_name, legal_id = excluded.legal_id,
      owner_name = excluded.owner_name, phone = excluded.phone, email = excluded.email,
      enabled = excluded.enabled, addresses = excluded.addresses, drop_size = excluded.drop_size,
      updated_at = now()`.execute(trx);
}

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
      .orderBy(sql`g.internal_code collate "C"`)
      .execute(),
  ]);
  return {
    priceListCode: priceList?.internal_code ?? null,
    stockGrouperCode: groupers.find((g) => g.kind === 'stock')?.internal_code ?? null,
    promotionGrouperCodes: groupers.filter((g) => g.kind === 'promotion').map((g) => g.internal_code),
  };
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
    .orderBy('person_id')
    .execute();
}

export interface Membership {
  personId: number;
  phone: string | null;
  email: string | null;
  name: string | null;
}

/** Adds people to the store; for someone already there, what is sent now completes or renames this supplier's view. */
export async function addMemberships(trx: Transaction<DB>, supplierId: number, storeId: number, members: Membership[]) {
  if (members.length === 0) return;
  await trx
    .insertInto('store_users')
    .values(members.map((m) => ({ supplier_id: supplierId, store_id: storeId, person_id: m.personId, phone: m.phone, email: m.email, name: m.name })))
    .onConflict((oc) =>
      oc.columns(['supplier_id', 'store_id', 'person_id']).doUpdateSet({
        phone: sql`coalesce(excluded.phone, store_users.phone)`,
        email: sql`coalesce(excluded.email, store_users.email)`,
        name: sql`coalesce(excluded.name, store_users.name)`,
      }),
    )
    .execute();
}

/** Takes people off the store: those named, and those this supplier knows by the phone or email given. */
export async function removeMemberships(
  trx: Transaction<DB>,
  supplierId: number,
  storeId: number,
  who: { personIds: number[]; phones: string[]; emails: string[] },
) {
  await trx
    .deleteFrom('store_users')
    .where('supplier_id', '=', supplierId)
    .where('store_id', '=', storeId)
    .where((eb) =>
      eb.or([
        idIn('person_id', who.personIds),
        textIn('phone', who.phones),
        textIn('email', who.emails),
      ]),
    )
    .execute();
}
