// People are sign-in accounts: each phone and email on a person was proven with a code
// sent to it (or carried over by migration 0011, one identifier per person). Nothing a
// supplier sends writes here.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { IdentifierKind } from '../../lib/notifier.ts';

type Executor = Kysely<DB> | Transaction<DB>;
const columnOf = (kind: IdentifierKind) => (kind === 'phone' ? 'phone' : 'email');

export async function findByIdentifier(db: Executor, kind: IdentifierKind, identifier: string) {
  return db.selectFrom('people').select(['id', 'phone', 'email']).where(columnOf(kind), '=', identifier).executeTakeFirst();
}

/** True when a person, some store membership or some seller names the identifier (someone to send a code to). */
export async function isKnown(db: Executor, kind: IdentifierKind, identifier: string): Promise<boolean> {
  const column = columnOf(kind);
  const row = await sql<{ known: boolean }>`select exists (select 1 from people where ${sql.ref(column)} = ${identifier})
      or exists (select 1 from store_users where ${sql.ref(column)} = ${identifier})
      or exists (select 1 from sellers where ${sql.ref(column)} = ${identifier}) as known`.execute(db);
  return Boolean(row.rows[0]?.known);
}

/** The person of the identifier, created when new (a concurrent creation wins and is read back). */
export async function findOrCreate(trx: Transaction<DB>, kind: IdentifierKind, identifier: string): Promise<number> {
  const inserted = await trx
    .insertInto('people')
    .values(kind === 'phone' ? { phone: identifier } : { email: identifier })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return inserted.id;
  return (await findByIdentifier(trx, kind, identifier))!.id;
}

export async function lockPerson(trx: Transaction<DB>, id: number) {
  return trx.selectFrom('people').select(['id', 'phone', 'email']).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function lockHolder(trx: Transaction<DB>, kind: IdentifierKind, identifier: string) {
  return trx.selectFrom('people').select(['id', 'phone', 'email']).where(columnOf(kind), '=', identifier).forUpdate().executeTakeFirst();
}

export async function clearIdentifier(trx: Transaction<DB>, id: number, kind: IdentifierKind) {
  await trx.updateTable('people').set({ [columnOf(kind)]: null, updated_at: sql`now()` }).where('id', '=', id).execute();
}

export async function setIdentifier(trx: Transaction<DB>, id: number, kind: IdentifierKind, identifier: string) {
  await trx.updateTable('people').set({ [columnOf(kind)]: identifier, updated_at: sql`now()` }).where('id', '=', id).execute();
}

/**
 * Folds person `from` into `into`: what `from` did (notification reads, orders placed,
 * tickets opened, pending codes) becomes `into`'s, and `from` is deleted.
 */
export async function mergeInto(trx: Transaction<DB>, from: number, into: number) {
  await sql`insert into notification_reads (supplier_id, notification_id, person_id, read_at)
      select supplier_id, notification_id, ${into}, read_at from notification_reads where person_id = ${from}
      on conflict do nothing`.execute(trx);
  await trx.deleteFrom('notification_reads').where('person_id', '=', from).execute();
  await trx.updateTable('orders').set({ placed_by: into }).where('placed_by', '=', from).execute();
  await trx.updateTable('tickets').set({ opened_by: into }).where('opened_by', '=', from).execute();
  await trx.deleteFrom('sign_in_codes').where('person_id', '=', from).execute();
  await trx.deleteFrom('people').where('id', '=', from).execute();
}

/** Ends every session of the person now (their tokens issued until now stop working); undefined when there is no such person. */
export async function endSessions(db: Executor, personId: number): Promise<Date | undefined> {
  const row = await db.updateTable('people').set({ sessions_revoked_at: sql`now()`, updated_at: sql`now()` }).where('id', '=', personId).returning('sessions_revoked_at').executeTakeFirst();
  if (row) await db.updateTable('store_sessions').set({ revoked_at: sql`now()` }).where('person_id', '=', personId).where('revoked_at', 'is', null).execute();
  return row?.sessions_revoked_at ?? undefined;
}
