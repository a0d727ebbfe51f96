import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, StoresTable } from '../../db/types.ts';
import { insertElseUpsert, type RowsWritten } from '../../db/insert-first.ts';
import type { StagedRun } from '../batch/batch.kinds.ts';
import { containsText, textIn, byCode, idIn, idOf, idsOf, noRow, rowByCode, sentJson } from '../../db/sql.ts';
import { offsetPage } from '../../db/paging.ts';
import { readStagedRows } from '../batch/batch.repository.ts';

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

/**
 * POST /batch/store's staging table (migration 0031): a row per chunk of a batch, the
 * items' values as arrays, price list and stock grouper codes once per chunk, addresses
 * and promotion grouper codes as one JSON array each. The batch engine writes it with
 * COPY when it accepts a request (batch README, "Staging"). `sent` says which of the
 * fields that take null to clear (or unlink) an item sent (STORE_SENT).
 */
export const storeItemsStaging = {
  table: 'batch_store_chunks',
  columns: [
    { values: 'codes' },
    { values: 'names' },
    { values: 'legal_names' },
    { values: 'legal_ids' },
    { values: 'owner_names' },
    { values: 'phones' },
    { values: 'emails' },
    { values: 'enabled' },
    { values: 'addresses', json: true },
    { values: 'drop_sizes' },
    { values: 'price_lists', index: 'price_list_ix' },
    { values: 'stock_groupers', index: 'stock_grouper_ix' },
    { values: 'promotion_groupers', json: true },
    { values: 'sent' },
    { values: 'delivery_zones', index: 'delivery_zone_ix' },
    { values: 'credits', json: true },
  ],
} as const;

/** The bits of `sent`. */
export const STORE_SENT = {
  legalName: 1,
  legalId: 2,
  ownerName: 4,
  phone: 8,
  email: 16,
  dropSize: 32,
  priceListCode: 64,
  stockGrouperCode: 128,
  settings: 256,
  deliveryZoneCode: 512,
  credit: 1024,
} as const;

/** A staged item: the store's own text columns as sent, then what the item says about the rest. */
export interface StagedStore extends Pick<StoresTable, 'name' | 'legal_name' | 'legal_id' | 'owner_name' | 'phone' | 'email'> {
  code: string;
  enabled: boolean | null;
  addresses: unknown[] | null;
  /** Exact decimal text. */
  drop_size: string | null;
  price_list: string | null;
  stock_grouper: string | null;
  promotion_groupers: string[] | null;
  sent: number;
  delivery_zone: string | null;
  /** The item's credit as sent (../credit), null when not sent or sent as null (`sent` tells). */
  credit: unknown;
}

/** A chunk's items, one row each, in order: the arrays and the json arrays zipped by place (ROWS FROM). */
const storesOfChunk = sql`rows from (
      unnest(c.codes), unnest(c.names), unnest(c.legal_names), unnest(c.legal_ids), unnest(c.owner_names), unnest(c.phones), unnest(c.emails),
      unnest(c.enabled), json_array_elements(c.addresses), unnest(c.drop_sizes), unnest(c.price_list_ix), unnest(c.stock_grouper_ix),
      json_array_elements(c.promotion_groupers), unnest(c.sent), unnest(c.delivery_zone_ix), json_array_elements(c.credits))
    with ordinality as o(code, name, legal_name, legal_id, owner_name, phone, email, enabled, addresses, drop_size, lx, gx, promotion_groupers, sent, zx, credit, n)`;

/** A staged batch's items, in order. */
export async function readStagedStores(db: Kysely<DB>, batchSeq: number): Promise<StagedStore[]> {
  const columns = sql`o.code, o.name, o.legal_name, o.legal_id, o.owner_name, o.phone, o.email, o.enabled,
      ${sentJson('o.addresses')}::json as addresses, o.drop_size::text as drop_size,
      c.price_lists[o.lx] as price_list, c.stock_groupers[o.gx] as stock_grouper,
      ${sentJson('o.promotion_groupers')}::json as promotion_groupers, o.sent, c.delivery_zones[o.zx] as delivery_zone,
      ${sentJson('o.credit')}::json as credit`;
  return readStagedRows(db, 'batch_store_chunks', columns, storesOfChunk, batchSeq);
}

/** Why a staged store item failed: the first code it names that the supplier does not have. */
export interface UnresolvedStore {
  idx: number;
  failure: 'price list' | 'stock grouper' | 'promotion grouper' | 'delivery zone';
  code: string;
}

/**
 * The links a written store's items sent: when `list_sent`, its price list becomes `list`
 * (null: none); when `stock_sent`, its stock grouper becomes `stock` (null: none); when
 * `promotions` is not null, its promotion groupers become those. What was not sent stays.
 */
export interface StoreLinkChange {
  s: string;
  list_sent: boolean;
  list: number | null;
  stock_sent: boolean;
  stock: number | null;
  promotions: number[] | null;
}

export interface StoreWrite extends RowsWritten {
  unresolved: UnresolvedStore[];
  links: StoreLinkChange[];
}

/**
 * Writes the staged stores [from, to) of a batch (`run`) by one statement, with `expectNew`
 * a plain INSERT first (`insertElseUpsert`). Answers the items that named a price list or
 * grouper the supplier does not have (nothing of them is written), and the link changes of
 * the stores written, one per store that sent any (the caller applies them).
 */
export function writeStagedStores(trx: Transaction<DB>, supplierId: number, run: StagedRun, expectNew: boolean): Promise<StoreWrite> {
  return insertElseUpsert(trx, 'stores_insert', expectNew, (upsert) => writeStores(trx, supplierId, run, upsert));
}

/** Whether a staged item (its `sent`, of `alias` when given) sent the field. */
const sent = (field: keyof typeof STORE_SENT, alias?: string) => sql<boolean>`(${sql.ref(alias ? `${alias}.sent` : 'sent')} & ${sql.lit(STORE_SENT[field])} <> 0)`;

// The statement, in the order it reads:
// - chunk: the staging row, with the ids of the price list and stock grouper codes it
//   names, each resolved once (idsOf); materialized, so never once per item.
// - input: the run's items, each with its batch index and those ids; promotion: the ids
//   of the promotion grouper codes the run names, each once (an item's, in its order, as
//   JSON text: arrays of different lengths cannot be aggregated as arrays).
// - checked: each item's first unknown code (price list, then stock grouper, then its
//   promotion groupers in order); such an item writes nothing.
// - rows: one row per code, as if the valid items had been applied one after another (a
//   later item wins for every field it sends, a field it leaves out keeps what an earlier
//   item sent); codes named once are taken as they are, only the others aggregated.
// - written: the insert. The upsert reads each code's current row (rowByCode) and keeps
//   the fields left out; the plain insert joins an empty relation in its place (noRow), so
//   a new code gets the same row from both. The upsert answers whether each row was new.
// The answer is one row: how many rows existed, the failures, and the link changes (links
// are kept by store code, in their own tables, and one change replaces what another
// statement's delete removes, so the caller writes them in statements of their own).
// Safe beside other writes: batches that write the same codes apply one at a time (their
// key ranges meet, batch README "Ordering"); chunks applied side by side write different
// stores.
async function writeStores(trx: Transaction<DB>, supplierId: number, run: StagedRun, upsert: boolean): Promise<StoreWrite> {
  const result = await sql<{ existing: number; unresolved: UnresolvedStore[] | null; links: StoreLinkChange[] | null }>`
    with chunk as materialized (
      select c.*, ${idsOf('price_lists', supplierId, sql`c.price_lists`)} as list_ids,
        ${idsOf('groupers', supplierId, sql`c.stock_groupers`, sql`t.kind = 'stock'`)} as stock_ids,
        ${idsOf('delivery_zones', supplierId, sql`c.delivery_zones`)} as zone_ids
      from batch_store_chunks c where c.batch_seq = ${run.batchSeq} and c.chunk = ${run.chunk}),
    input as (
      select (${run.first - 1} + o.n)::int as idx, o.code, o.name, o.legal_name, o.legal_id, o.owner_name, o.phone, o.email, o.enabled,
        ${sentJson('o.addresses')} as addresses, o.drop_size, c.price_lists[o.lx] as list_code, c.list_ids[o.lx] as list_id,
        c.stock_groupers[o.gx] as stock_code, c.stock_ids[o.gx] as stock_id, ${sentJson('o.promotion_groupers')}::json as promotion_codes, o.sent,
        c.delivery_zones[o.zx] as zone_code, c.zone_ids[o.zx] as zone_id
      from chunk c
      cross join lateral ${storesOfChunk}
      where o.n > ${run.from - run.first} and o.n <= ${run.to - run.first}),
    promotion as (
      select p.code, ${idOf('groupers', supplierId, sql`p.code`, sql`t.kind = 'promotion'`)} as id
      from (select distinct x.code from input i cross join lateral json_array_elements_text(i.promotion_codes) as x(code) where i.promotion_codes is not null) p),
    checked as (
      select i.*,
        case
          when i.list_code is not null and i.list_id is null then 'price list'
          when i.stock_code is not null and i.stock_id is null then 'stock grouper'
          when i.zone_code is not null and i.zone_id is null then 'delivery zone'
        end as failed,
        case
          when i.list_code is not null and i.list_id is null then i.list_code
          when i.stock_code is not null and i.stock_id is null then i.stock_code
          when i.zone_code is not null and i.zone_id is null then i.zone_code
        end as failed_code,
        case when i.promotion_codes is null then null else
          (select x.code from json_array_elements_text(i.promotion_codes) with ordinality as x(code, n)
           join promotion p on p.code = x.code where p.id is null order by x.n limit 1) end as unknown_promotion,
        case when i.promotion_codes is null then null else
          coalesce((select json_agg(p.id order by x.n) from json_array_elements_text(i.promotion_codes) with ordinality as x(code, n)
                    join promotion p on p.code = x.code)::text, '[]') end as promotion_ids
      from input i),
    valid as (select * from checked where failed is null and unknown_promotion is null),
    twice as (select code from valid group by code having count(*) > 1),
    rows as (
      select code, name, legal_name, legal_id, owner_name, phone, email, enabled, addresses, drop_size, list_id, stock_id, promotion_ids, sent, zone_id
      from valid where code not in (select code from twice)
      union all
      select code, (array_agg(name order by idx desc))[1],
        (array_agg(legal_name order by idx desc) filter (where ${sent('legalName')}))[1],
        (array_agg(legal_id order by idx desc) filter (where ${sent('legalId')}))[1],
        (array_agg(owner_name order by idx desc) filter (where ${sent('ownerName')}))[1],
        (array_agg(phone order by idx desc) filter (where ${sent('phone')}))[1],
        (array_agg(email order by idx desc) filter (where ${sent('email')}))[1],
        (array_agg(enabled order by idx desc) filter (where enabled is not null))[1],
        (array_agg(addresses order by idx desc) filter (where addresses is not null))[1],
        (array_agg(drop_size order by idx desc) filter (where ${sent('dropSize')}))[1],
        (array_agg(list_id order by idx desc) filter (where ${sent('priceListCode')}))[1],
        (array_agg(stock_id order by idx desc) filter (where ${sent('stockGrouperCode')}))[1],
        (array_agg(promotion_ids order by idx desc) filter (where promotion_ids is not null))[1],
        bit_or(sent),
        (array_agg(zone_id order by idx desc) filter (where ${sent('deliveryZoneCode')}))[1]
      from valid where code in (select code from twice) group by code),
    written as (
      insert into stores (supplier_id, internal_code, name, legal_name, legal_id, owner_name, phone, email, enabled, addresses, drop_size, delivery_zone_id)
      select ${supplierId}, r.code, r.name,
        case when ${sent('legalName', 'r')} then r.legal_name else s.legal_name end,
        case when ${sent('legalId', 'r')} then r.legal_id else s.legal_id end,
        case when ${sent('ownerName', 'r')} then r.owner_name else s.owner_name end,
        case when ${sent('phone', 'r')} then r.phone else s.phone end,
        case when ${sent('email', 'r')} then r.email else s.email end,
        coalesce(r.enabled, s.enabled, true),
        coalesce(r.addresses::jsonb, s.addresses, '[]'),
        case when ${sent('dropSize', 'r')} then r.drop_size else s.drop_size end,
        case when ${sent('deliveryZoneCode', 'r')} then r.zone_id else s.delivery_zone_id end
      from rows r
      ${upsert ? rowByCode('stores', 's', supplierId, sql.ref('r.code')) : noRow('stores', 's')}
      ${
        upsert
          ? sql`on conflict (supplier_id, internal_code) do update set
        name = excluded.name, legal_name = excluded.legal_name, legal_id = excluded.legal_id,
        owner_name = excluded.owner_name, phone = excluded.phone, email = excluded.email,
        enabled = excluded.enabled, addresses = excluded.addresses, drop_size = excluded.drop_size,
        delivery_zone_id = excluded.delivery_zone_id, updated_at = now()
      returning xmax = 0 as inserted`
          : sql``
      })
    select ${upsert ? sql`(select count(*) from written where not inserted)::int` : sql`0`} as existing,
      (select json_agg(json_build_object('idx', idx, 'failure', coalesce(failed, 'promotion grouper'), 'code', coalesce(failed_code, unknown_promotion)) order by idx)
       from checked where failed is not null or unknown_promotion is not null) as unresolved,
      (select json_agg(json_build_object('s', code,
          'list_sent', ${sent('priceListCode')}, 'list', list_id,
          'stock_sent', ${sent('stockGrouperCode')}, 'stock', stock_id,
          'promotions', promotion_ids::json))
       from rows where sent & ${sql.lit(STORE_SENT.priceListCode | STORE_SENT.stockGrouperCode)} <> 0 or promotion_ids is not null) as links`.execute(trx);
  const row = result.rows[0]!;
  return { allNew: row.existing === 0, unresolved: row.unresolved ?? [], links: row.links ?? [] };
}

export async function findStore(db: Executor, supplierId: number, code: string) {
  return db.selectFrom('stores').selectAll().where('supplier_id', '=', supplierId).where('internal_code', '=', code).executeTakeFirst();
}

/** The codes of delivery zones by id (a store's zone is shown by its code). */
export async function zoneCodes(db: Executor, supplierId: number, zoneIds: (number | null)[]) {
  const ids = [...new Set(zoneIds.filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db.selectFrom('delivery_zones').select(['id', 'internal_code']).where('supplier_id', '=', supplierId).where(idIn('id', ids)).execute();
  return new Map(rows.map((r) => [r.id, r.internal_code]));
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
  return offsetPage(base, (q) => q.selectAll().orderBy(byCode('internal_code')), f);
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
    .select(['s.id', 's.supplier_id', 's.internal_code', 's.name', 's.legal_name', 's.legal_id', 's.enabled', 's.addresses', 's.drop_size', 'p.minimum_order', 's.delivery_zone_id'])
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
