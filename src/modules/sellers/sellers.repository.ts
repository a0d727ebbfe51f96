// Every SQL statement of sellers (README.md). A run of sellers is written by one statement
// (the rows, then their stores). Who a seller serves is written once in SQL, next to the
// store side's membership rule it extends (`sellerServes`, ../store-app/store-app.repository.ts).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, OrderSeller, SellerProposalStatus } from '../../db/types.ts';
import { byCode, containsText, textIn } from '../../db/sql.ts';
import { namesPerson } from '../store-app/store-app.repository.ts';

type Executor = Kysely<DB> | Transaction<DB>;

/** The seller through whom the person serves the store (the first by id when several name them). */
export async function sellerOfPersonAt(db: Executor, personId: number, storeId: number) {
  return db
    .selectFrom('sellers as v')
    .innerJoin('seller_stores as x', 'x.seller_id', 'v.id')
    .innerJoin('stores as s', (j) => j.onRef('s.supplier_id', '=', 'x.supplier_id').onRef('s.internal_code', '=', 'x.store_code'))
    .select(['v.id', 'v.internal_code', 'v.name'])
    .where('s.id', '=', storeId)
    .whereRef('v.supplier_id', '=', 's.supplier_id')
    .where(namesPerson(personId, 'v'))
    .orderBy('v.id')
    .limit(1)
    .executeTakeFirst();
}

export interface SellerWrite {
  code: string;
  name: string;
  phone: string | null;
  email: string | null;
  stores: string[];
}

/**
 * Upserts the sellers (one per code: the caller keeps the last of a run) and makes each
 * one's stores exactly those sent, in one statement: the rows, the links no longer named
 * deleted, the new ones inserted (the two never touch the same link).
 */
export async function writeSellers(trx: Transaction<DB>, supplierId: number, items: SellerWrite[]): Promise<void> {
  if (items.length === 0) return;
  await sql`
    with input as (
      select * from json_to_recordset(${JSON.stringify(items)}::json) as i(code text, name text, phone text, email text, stores text[])
    ), up as (
      insert into sellers (supplier_id, internal_code, name, phone, email)
      select ${supplierId}, code, name, phone, email from input
      on conflict (supplier_id, internal_code) do update
        set name = excluded.name, phone = excluded.phone, email = excluded.email, updated_at = now()
      returning id, internal_code
    ), wanted as (
      select distinct up.id, s.code from up join input i on i.code = up.internal_code cross join lateral unnest(i.stores) as s(code)
    ), gone as (
      delete from seller_stores x using up
       where x.seller_id = up.id and not exists (select 1 from wanted w where w.id = x.seller_id and w.code = x.store_code)
    )
    insert into seller_stores (seller_id, supplier_id, store_code)
    select id, ${supplierId}, code from wanted
    on conflict do nothing`.execute(trx);
}

/** Removes the supplier's sellers with these codes (their links go with them); answers the codes removed. */
export async function removeSellers(trx: Transaction<DB>, supplierId: number, codes: string[]): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const rows = await trx.deleteFrom('sellers').where('supplier_id', '=', supplierId).where(textIn('internal_code', codes)).returning('internal_code').execute();
  return new Set(rows.map((r) => r.internal_code));
}

const storesOf = sql<string[]>`array(select x.store_code from seller_stores x where x.seller_id = v.id order by x.store_code collate "C")`;
const columns = ['v.internal_code', 'v.name', 'v.phone', 'v.email', 'v.created_at', 'v.updated_at'] as const;
export type SellerRow = NonNullable<Awaited<ReturnType<typeof sellerByCode>>>;

export async function sellerByCode(db: Executor, supplierId: number, code: string) {
  return db.selectFrom('sellers as v').select([...columns, storesOf.as('stores')]).where('v.supplier_id', '=', supplierId).where('v.internal_code', '=', code).executeTakeFirst();
}

/** A page of the supplier's sellers by code (docs/conventions.md, "Lists"). */
export async function listSellers(db: Kysely<DB>, supplierId: number, query: { search?: string; storeInternalCode?: string; take: number; page: number }) {
  let base = db.selectFrom('sellers as v').where('v.supplier_id', '=', supplierId);
  if (query.search) base = base.where(containsText(['v.internal_code', 'v.name'], query.search));
  if (query.storeInternalCode) {
    const code = query.storeInternalCode;
    base = base.where((eb) => eb.exists(eb.selectFrom('seller_stores as x').select('x.seller_id').whereRef('x.seller_id', '=', 'v.id').where('x.store_code', '=', code)));
  }
  const [rows, count] = await Promise.all([
    base
      .select([...columns, storesOf.as('stores')])
      .orderBy(byCode('v.internal_code'))
      .limit(query.take)
      .offset((query.page - 1) * query.take)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

// The store's setting and its sellers' proposals.

export async function setConfirmSellerOrders(db: Kysely<DB>, storeId: number, value: boolean) {
  await db.updateTable('stores').set({ confirm_seller_orders: value }).where('id', '=', storeId).execute();
}

export async function confirmSellerOrders(db: Executor, storeId: number): Promise<boolean> {
  const row = await db.selectFrom('stores').select('confirm_seller_orders').where('id', '=', storeId).executeTakeFirst();
  return row?.confirm_seller_orders ?? false;
}

const proposalColumns = ['id', 'status', 'seller', 'body', 'order_id', 'created_at', 'decided_at'] as const;

export async function insertProposal(db: Kysely<DB>, p: { supplierId: number; storeId: number; sellerId: number; seller: OrderSeller; body: unknown }) {
  return db
    .insertInto('seller_order_proposals')
    .values({ supplier_id: p.supplierId, store_id: p.storeId, seller_id: p.sellerId, seller: JSON.stringify(p.seller), body: JSON.stringify(p.body) })
    .returning(proposalColumns)
    .executeTakeFirstOrThrow();
}

export async function proposalsOf(db: Kysely<DB>, storeId: number, status?: SellerProposalStatus) {
  let q = db.selectFrom('seller_order_proposals').select(proposalColumns).where('store_id', '=', storeId);
  if (status) q = q.where('status', '=', status);
  return q.orderBy('id', 'desc').limit(100).execute();
}

export type ProposalRow = Awaited<ReturnType<typeof proposalsOf>>[number];

export async function proposalById(db: Kysely<DB>, storeId: number, id: number) {
  return db.selectFrom('seller_order_proposals').select(proposalColumns).where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
}

/** Moves a proposal out of AWAITING_STORE; undefined when it was not (any more) awaiting: whoever moves it first wins. */
export async function decideProposal(db: Kysely<DB>, storeId: number, id: number, status: 'ACCEPTED' | 'DECLINED') {
  return db
    .updateTable('seller_order_proposals')
    .set({ status, decided_at: sql`now()` })
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .where('status', '=', 'AWAITING_STORE')
    .returning(proposalColumns)
    .executeTakeFirst();
}

/** Puts an accepted proposal back to AWAITING_STORE when its order was refused (the store sees why and may try again). */
export async function reopenProposal(db: Kysely<DB>, id: number) {
  await db.updateTable('seller_order_proposals').set({ status: 'AWAITING_STORE', decided_at: null }).where('id', '=', id).execute();
}

export async function recordProposalOrder(db: Kysely<DB>, id: number, orderId: number) {
  return db.updateTable('seller_order_proposals').set({ order_id: orderId }).where('id', '=', id).returning(proposalColumns).executeTakeFirstOrThrow();
}
