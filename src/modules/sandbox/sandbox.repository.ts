// Every SQL statement of the sandbox: twins, their clocks, their test inbox and checklist,
// and emptying or filling a twin (README.md).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';

type Executor = Kysely<DB> | Transaction<DB>;

/** NOTIFY channel of every change to a twin's clock (sandbox.clocks.ts forgets on it). */
export const SANDBOX_CLOCK_CHANGED = 'sandbox_clock_changed';

/** The supplier row with its live supplier's id (null: it is live itself). */
export async function findSupplierRow(db: Executor, id: number) {
  return db.selectFrom('suppliers').select(['id', 'code', 'name', 'enabled', 'live_supplier_id']).where('id', '=', id).executeTakeFirst();
}

export async function findTwinOf(db: Executor, liveId: number) {
  return db.selectFrom('suppliers').select(['id', 'code', 'name', 'enabled']).where('live_supplier_id', '=', liveId).executeTakeFirst();
}

/**
 * Makes the live supplier's twin unless it has one: its code, name, state and settings
 * (minimum order, cancel codes). Two callers at once make one twin (the unique key).
 */
export async function insertTwin(db: Executor, liveId: number) {
  await sql`
    insert into suppliers (code, name, enabled, minimum_order, cancel_codes, live_supplier_id)
    select code, name, enabled, minimum_order, cancel_codes, id from suppliers
    where id = ${liveId} and live_supplier_id is null
    on conflict (live_supplier_id) do nothing`.execute(db);
}

// The clock.

/** Every twin's moved time: its offset from real time is set_now - set_at. */
export async function clockRows(db: Executor) {
  return db.selectFrom('sandbox_clocks').select(['supplier_id', 'set_now', 'set_at']).execute();
}

export async function clockRow(db: Executor, supplierId: number) {
  return db.selectFrom('sandbox_clocks').select(['supplier_id', 'set_now', 'set_at']).where('supplier_id', '=', supplierId).executeTakeFirst();
}

/** Sets a twin's time and, in the same transaction, tells every process's clocks to forget. */
export async function saveClock(trx: Transaction<DB>, supplierId: number, setNow: Date, setAt: Date) {
  await trx
    .insertInto('sandbox_clocks')
    .values({ supplier_id: supplierId, set_now: setNow, set_at: setAt })
    .onConflict((oc) => oc.column('supplier_id').doUpdateSet({ set_now: setNow, set_at: setAt }))
    .execute();
  await sql`select pg_notify(${SANDBOX_CLOCK_CHANGED}, '')`.execute(trx);
}

export async function deleteClock(trx: Transaction<DB>, supplierId: number) {
  await trx.deleteFrom('sandbox_clocks').where('supplier_id', '=', supplierId).execute();
  await sql`select pg_notify(${SANDBOX_CLOCK_CHANGED}, '')`.execute(trx);
}

// The test inbox.

export async function inboxPage(db: Executor, supplierId: number, f: { take: number; page: number }) {
  const base = db.selectFrom('messages').where('supplier_id', '=', supplierId);
  const [rows, count] = await Promise.all([
    base
      .select(['id', 'purpose', 'to_kind', 'recipient', 'channel', 'subject', 'body', 'status', 'last_error', 'created_at'])
      .orderBy('id', 'desc')
      .limit(f.take)
      .offset((f.page - 1) * f.take)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}
