// Console sessions and operators. A session is a row: every request reads it (with the
// member's role at that moment and whether the supplier is enabled), so ending it, a
// removed member, a changed role or a disabled supplier take effect on the next request.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';

/** `id`: the SHA-256 of the session id the token carries (every function here takes that hash). */
export async function insertSession(db: Kysely<DB>, s: { id: string; email: string; supplierId: number | null; idleSeconds: number; lifeSeconds: number }) {
  await db
    .insertInto('console_sessions')
    .values({
      id: s.id,
      email: s.email,
      supplier_id: s.supplierId,
      expires_at: sql<Date>`now() + make_interval(secs => ${s.idleSeconds})`,
      ends_at: sql<Date>`now() + make_interval(secs => ${s.lifeSeconds})`,
    })
    .execute();
}

/**
 * The live session `id` with its member's role in the session's supplier (null when they are
 * not, or no longer, one), whether that supplier is enabled, whether the email is an
 * operator's, and whether its last use is older than `touchAfterSeconds` (then `touch` it).
 */
export async function liveSession(db: Kysely<DB>, id: string, touchAfterSeconds: number) {
  return db
    .selectFrom('console_sessions as s')
    .leftJoin('supplier_members as m', (join) => join.onRef('m.supplier_id', '=', 's.supplier_id').onRef('m.email', '=', 's.email'))
    .leftJoin('suppliers as p', 'p.id', 's.supplier_id')
    // The supplier's test twin (src/modules/sandbox): the session works on it while in test mode.
    .leftJoin('suppliers as tw', 'tw.live_supplier_id', 's.supplier_id')
    .select(['s.id', 's.email', 's.supplier_id', 'm.role', 'p.enabled as supplier_enabled', 's.test_mode', 'tw.id as twin_id'])
    .select(sql<boolean>`exists (select 1 from operators o where o.email = s.email)`.as('operator'))
    .select(sql<boolean>`s.last_used_at < now() - make_interval(secs => ${touchAfterSeconds})`.as('stale'))
    .where('s.id', '=', id)
    .where('s.revoked_at', 'is', null)
    .where(sql<boolean>`s.expires_at > now()`)
    .executeTakeFirst();
}

/** Renews a session in use: its idle deadline moves on, never past its end. */
export async function touchSession(db: Kysely<DB>, id: string, idleSeconds: number) {
  await db
    .updateTable('console_sessions')
    .set({ last_used_at: sql`now()`, expires_at: sql`least(now() + make_interval(secs => ${idleSeconds}), ends_at)` })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Another supplier starts in live mode: a test mode is a supplier's, not the session's. */
export async function setSessionSupplier(db: Kysely<DB>, id: string, supplierId: number) {
  await db.updateTable('console_sessions').set({ supplier_id: supplierId, test_mode: false }).where('id', '=', id).execute();
}

/** The console's test-mode switch (src/modules/sandbox). */
export async function setSessionTestMode(db: Kysely<DB>, id: string, testMode: boolean) {
  await db.updateTable('console_sessions').set({ test_mode: testMode }).where('id', '=', id).execute();
}

export async function endSession(db: Kysely<DB>, id: string) {
  await db.updateTable('console_sessions').set({ revoked_at: sql`now()` }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

/** The suppliers an email is a member of, with its role in each (enabled or not). */
export async function membershipsOf(db: Kysely<DB>, email: string) {
  return db
    .selectFrom('supplier_members as m')
    .innerJoin('suppliers as p', 'p.id', 'm.supplier_id')
    .select(['p.id', 'p.code', 'p.name', 'p.enabled', 'm.role'])
    .where('m.email', '=', email)
    .orderBy('p.name')
    .orderBy('p.id')
    .execute();
}

export async function isOperator(db: Kysely<DB>, email: string): Promise<boolean> {
  return (await db.selectFrom('operators').select('id').where('email', '=', email).executeTakeFirst()) !== undefined;
}

/** Whether anyone may sign in to the console with this email (a member of any supplier, or an operator). */
export async function canSignIn(db: Kysely<DB>, email: string): Promise<boolean> {
  const row = await db
    .selectNoFrom(
      sql<boolean>`exists (select 1 from supplier_members where email = ${email}) or exists (select 1 from operators where email = ${email})`.as('known'),
    )
    .executeTakeFirstOrThrow();
  return row.known;
}

/** Adds an operator; answers undefined when the email already is one. */
export async function insertOperator(db: Kysely<DB>, email: string) {
  return db.insertInto('operators').values({ email }).onConflict((oc) => oc.column('email').doNothing()).returning(['id', 'email', 'created_at']).executeTakeFirst();
}

/** Removes an operator; answers false when the email is none. */
export async function deleteOperator(db: Kysely<DB>, email: string): Promise<boolean> {
  return (await db.deleteFrom('operators').where('email', '=', email).returning('id').executeTakeFirst()) !== undefined;
}

/** Ends every live console session of an email; answers how many. */
export async function endSessionsOf(db: Kysely<DB>, email: string): Promise<number> {
  const ended = await db.updateTable('console_sessions').set({ revoked_at: sql`now()` }).where('email', '=', email).where('revoked_at', 'is', null).returning('id').execute();
  return ended.length;
}

export async function listOperators(db: Kysely<DB>) {
  return db.selectFrom('operators').select(['id', 'email', 'created_at']).orderBy('email').execute();
}
