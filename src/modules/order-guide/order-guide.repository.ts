// Every SQL statement of the order guide (README.md). Each starts from one store: its
// orders in the window (orders_store_created), its preferences (their key), and the
// guide's own products by code.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { textIn } from '../../db/sql.ts';
import type { HistoryLine } from './order-guide.rules.ts';

/** The supplier's order guide window, in days (migration 0040). */
export async function guideDays(db: Kysely<DB>, supplierId: number): Promise<number> {
  const row = await db.selectFrom('suppliers').select('order_guide_days').where('id', '=', supplierId).executeTakeFirstOrThrow();
  return row.order_guide_days;
}

/**
 * The lines of the store's orders placed in (since, until], cancelled and returned orders
 * left out (README): one row per line, with the order's day in `timezone`. Reads the
 * store's orders of the window through orders_store_created, nothing else.
 */
export async function historyLines(db: Kysely<DB>, storeId: number, since: Date, until: Date, timezone: string): Promise<HistoryLine[]> {
  const { rows } = await sql<{ code: string; order_id: number; at: Date; day: string; units: number; quantity: string }>`
    select l."internalCode" as code, o.id as order_id, o.created_at as at,
           to_char(o.created_at at time zone ${timezone}, 'YYYY-MM-DD') as day,
           l.units, l.quantity::text as quantity
      from orders o
      cross join lateral jsonb_to_recordset(o.products) as l("internalCode" text, units int, quantity numeric)
     where o.store_id = ${storeId}
       and o.created_at > ${since.toISOString()}::timestamptz and o.created_at <= ${until.toISOString()}::timestamptz
       and o.status not in ('CANCELLED', 'RETURNED')
       and l.quantity > 0`.execute(db);
  return rows.map((r) => ({
    code: r.code,
    orderId: Number(r.order_id),
    at: new Date(r.at).toISOString(),
    day: r.day,
    units: r.units,
    quantity: Number(r.quantity),
  }));
}

export interface Preference {
  code: string;
  pinned: boolean;
  hidden: boolean;
  par: number | null;
}

export async function preferencesOf(db: Kysely<DB>, storeId: number): Promise<Preference[]> {
  const rows = await db.selectFrom('order_guide_preferences').select(['product_code', 'pinned', 'hidden', 'par']).where('store_id', '=', storeId).execute();
  return rows.map((r) => ({ code: r.product_code, pinned: r.pinned, hidden: r.hidden, par: r.par }));
}

/** Writes what the body sent of a store's preference for one product (left out: kept). */
export async function upsertPreference(
  db: Kysely<DB>,
  key: { supplierId: number; storeId: number; code: string },
  change: { pinned?: boolean; hidden?: boolean; par?: number | null },
): Promise<Preference> {
  const row = await db
    .insertInto('order_guide_preferences')
    .values({ supplier_id: key.supplierId, store_id: key.storeId, product_code: key.code, pinned: change.pinned ?? false, hidden: change.hidden ?? false, par: change.par ?? null })
    .onConflict((oc) =>
      oc.columns(['store_id', 'product_code']).doUpdateSet({
        ...(change.pinned !== undefined ? { pinned: change.pinned } : {}),
        ...(change.hidden !== undefined ? { hidden: change.hidden } : {}),
        ...(change.par !== undefined ? { par: change.par } : {}),
        updated_at: sql`now()`,
      }),
    )
    .returning(['product_code', 'pinned', 'hidden', 'par'])
    .executeTakeFirstOrThrow();
  return { code: row.product_code, pinned: row.pinned, hidden: row.hidden, par: row.par };
}

/**
 * The case multiple of each of these products: the `multiple` column issue #31 adds to
 * products when it exists, read through the row's JSON so this statement works before
 * and after that migration; absent or null is 1 (README, "Case multiples").
 */
export async function caseMultiples(db: Kysely<DB>, supplierId: number, codes: string[]): Promise<Map<string, number>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .selectFrom('products as p')
    .select(['p.internal_code', sql<number | null>`(to_jsonb(p) ->> 'multiple')::int`.as('multiple')])
    .where('p.supplier_id', '=', supplierId)
    .where(textIn('p.internal_code', codes))
    .execute();
  return new Map(rows.map((r) => [r.internal_code, r.multiple ?? 1]));
}

/** Sets the supplier's order guide window (the admin settings; the column's check keeps it within 7..365). */
export async function setGuideDays(db: Kysely<DB>, supplierId: number, days: number): Promise<void> {
  await db.updateTable('suppliers').set({ order_guide_days: days, updated_at: sql`now()` }).where('id', '=', supplierId).execute();
}
