// Every SQL statement of delivery zones: the zones, a store's zone, the route lists and
// the cut-off bookkeeping (migration 0034).
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB, DeliveryDay, DeliveryException, DeliveryZonesTable, MinimumOrderRule } from '../../db/types.ts';
import { byCode, containsText } from '../../db/sql.ts';
import { offsetPage } from '../../db/paging.ts';

type Executor = Kysely<DB> | Transaction<DB>;
export type ZoneRow = Selectable<DeliveryZonesTable>;

/** A zone as written: its rules already checked and normalised (delivery.service.ts). */
export interface ZoneWrite {
  internal_code: string;
  name: string;
  timezone: string;
  cutoff_mode: 'strict' | 'flexible';
  days: DeliveryDay[];
  exceptions: DeliveryException[];
  minimum_order: MinimumOrderRule | null;
}

/**
 * Inserts or replaces zones, one statement for them all (a later row for a code must not
 * reach it: the caller keeps the last per code). A PUT replaces the zone whole, so every
 * column is the row's. Answers the rows written.
 */
export async function upsertZones(db: Executor, supplierId: number, zones: ZoneWrite[]): Promise<ZoneRow[]> {
  if (zones.length === 0) return [];
  const result = await sql<ZoneRow>`
    insert into delivery_zones (supplier_id, internal_code, name, timezone, cutoff_mode, days, exceptions, minimum_order)
    select ${supplierId}, z.internal_code, z.name, z.timezone, z.cutoff_mode, z.days, z.exceptions, z.minimum_order
    from json_to_recordset(${JSON.stringify(zones)}::json)
      as z(internal_code text, name text, timezone text, cutoff_mode text, days jsonb, exceptions jsonb, minimum_order jsonb)
    on conflict (supplier_id, internal_code) do update set
      name = excluded.name, timezone = excluded.timezone, cutoff_mode = excluded.cutoff_mode, days = excluded.days,
      exceptions = excluded.exceptions, minimum_order = excluded.minimum_order, updated_at = now()
    returning *`.execute(db);
  return result.rows;
}

export async function findZone(db: Executor, supplierId: number, code: string): Promise<ZoneRow | undefined> {
  return db.selectFrom('delivery_zones').selectAll().where('supplier_id', '=', supplierId).where('internal_code', '=', code).executeTakeFirst();
}

export async function listZones(db: Executor, supplierId: number, f: { search?: string; take: number; page: number }) {
  let base = db.selectFrom('delivery_zones').where('supplier_id', '=', supplierId);
  if (f.search) base = base.where(containsText(['internal_code', 'name'], f.search));
  return offsetPage(base, (q) => q.selectAll().orderBy(byCode('internal_code')), f);
}

/** The zone of a store (by its platform id), or null when it has none. */
export async function zoneOfStore(db: Executor, storeId: number): Promise<ZoneRow | null> {
  const row = await db
    .selectFrom('stores as s')
    .innerJoin('delivery_zones as z', (join) => join.onRef('z.supplier_id', '=', 's.supplier_id').onRef('z.id', '=', 's.delivery_zone_id'))
    .selectAll('z')
    .where('s.id', '=', storeId)
    .executeTakeFirst();
  return row ?? null;
}

/** A supplier's store by code with its zone: undefined when no such store, zone null when it has none. */
export async function storeWithZone(db: Executor, supplierId: number, storeCode: string): Promise<{ zone: ZoneRow | null } | undefined> {
  const store = await db
    .selectFrom('stores')
    .select(['id'])
    .where('supplier_id', '=', supplierId)
    .where('internal_code', '=', storeCode)
    .executeTakeFirst();
  return store && { zone: await zoneOfStore(db, store.id) };
}

/** Every zone of every supplier (the cut-off job): the calendar columns only. */
export async function allZones(db: Executor) {
  return db
    .selectFrom('delivery_zones')
    .select(['id', 'supplier_id', 'internal_code', 'timezone', 'cutoff_mode', 'days', 'exceptions', 'created_at'])
    .orderBy('id')
    .execute();
}

/**
 * Claims a (zone, date) whose cut-off was reached: inserts its row unless one exists.
 * Whichever transaction inserts it first owns the announcement; another one, in any
 * process, waits for that one's commit on the primary key and then inserts nothing, so
 * the announcement is made once. Answers whether this call claimed it.
 */
export async function claimCutoff(trx: Transaction<DB>, row: { zone_id: number; supplier_id: number; delivery_date: string; cutoff_at: Date; order_count: number }) {
  const claimed = await trx
    .insertInto('delivery_cutoffs')
    .values(row)
    .onConflict((oc) => oc.columns(['zone_id', 'delivery_date']).doNothing())
    .returning('zone_id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** The (zone, date) pairs among these that were already announced. */
export async function claimedCutoffs(db: Executor, zoneIds: number[], since: string) {
  if (zoneIds.length === 0) return new Set<string>();
  const rows = await db
    .selectFrom('delivery_cutoffs')
    .select(['zone_id', sql<string>`delivery_date::text`.as('date')])
    .where(sql<boolean>`zone_id = any(${zoneIds}::bigint[])`)
    .where('delivery_date', '>=', since)
    .execute();
  return new Set(rows.map((r) => `${r.zone_id}/${r.date}`));
}

/** The ids of the orders a route loads: the zone's, for that delivery date, not cancelled, by id. */
export async function routeOrderIds(db: Executor, supplierId: number, zoneId: number, date: string): Promise<number[]> {
  const rows = await db
    .selectFrom('orders')
    .select('id')
    .where('supplier_id', '=', supplierId)
    .where('delivery_date', '=', date)
    .where('delivery_zone_id', '=', zoneId)
    .where('status', '<>', 'CANCELLED')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
