import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';
import { namesPerson } from './store-app.repository.ts';

/**
 * Serialises the code requests of one identifier (PostgreSQL: two requests at once would
 * both count 4 and both insert). Released at the end of the transaction.
 */
export async function lockIdentifier(trx: Transaction<DB>, identifier: string) {
  await sql`select pg_advisory_xact_lock(hashtext(${identifier}))`.execute(trx);
}

export async function countRecentCodes(trx: Transaction<DB>, identifier: string, withinSeconds: number): Promise<number> {
  const row = await trx
    .selectFrom('sign_in_codes')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('identifier', '=', identifier)
    .where(sql<boolean>`created_at > now() - make_interval(secs => ${withinSeconds})`)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Ends every code of the identifier still open: only the newest one ever works. */
export async function endOpenCodes(trx: Transaction<DB>, identifier: string) {
  await trx.updateTable('sign_in_codes').set({ consumed_at: sql`now()` }).where('identifier', '=', identifier).where('consumed_at', 'is', null).execute();
}

export async function insertCode(trx: Transaction<DB>, code: { identifier: string; codeHash: string; ttlSeconds: number; personId: number | null }) {
  await trx
    .insertInto('sign_in_codes')
    .values({
      identifier: code.identifier,
      code_hash: code.codeHash,
      person_id: code.personId,
      expires_at: sql`now() + make_interval(secs => ${code.ttlSeconds})`,
    })
    .execute();
}

/** The identifier's live code (at most one is open), locked for the exchange. */
export async function lockLiveCode(trx: Transaction<DB>, identifier: string) {
  return trx
    .selectFrom('sign_in_codes')
    .select(['id', 'code_hash', 'attempts', 'person_id'])
    .where('identifier', '=', identifier)
    .where('consumed_at', 'is', null)
    .where(sql<boolean>`expires_at > now()`)
    .orderBy('id', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

/** Counts a wrong try; the code is burnt (consumed) at maxAttempts. */
export async function recordWrongTry(trx: Transaction<DB>, id: number, maxAttempts: number) {
  await trx
    .updateTable('sign_in_codes')
    .set({ attempts: sql`attempts + 1`, consumed_at: sql`case when attempts + 1 >= ${maxAttempts} then now() else null end` })
    .where('id', '=', id)
    .execute();
}

export async function consumeCode(trx: Transaction<DB>, id: number) {
  await trx.updateTable('sign_in_codes').set({ consumed_at: sql`now()` }).where('id', '=', id).execute();
}

/** The person with, when they have none, the name the earliest membership naming them gives. */
export async function findPerson(db: Kysely<DB>, id: number) {
  return db
    .selectFrom('people as p')
    .select(['p.id', 'p.phone', 'p.email'])
    .select(
      sql<string | null>`coalesce(p.name, (select u.name from store_users u where ${namesPerson(id, 'u')} and u.name is not null order by u.created_at, u.id limit 1))`.as('name'),
    )
    .where('p.id', '=', id)
    .executeTakeFirst();
}

/** The stores whose memberships name the person, of every supplier. */
export async function personStores(db: Kysely<DB>, personId: number) {
  return db
    .selectFrom('stores as s')
    .innerJoin('suppliers as p', 'p.id', 's.supplier_id')
    .select(['s.id', 's.internal_code', 's.name', 's.enabled', 'p.code as supplier_code', 'p.name as supplier_name'])
    .where((eb) => eb('s.id', 'in', eb.selectFrom('store_users as u').select('u.store_id').where(namesPerson(personId, 'u'))))
    .orderBy('s.id')
    .execute();
}
