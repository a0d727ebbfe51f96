import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';

export async function countRecentCodes(db: Kysely<DB>, identifier: string, withinSeconds: number): Promise<number> {
  const row = await db
    .selectFrom('sign_in_codes')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('identifier', '=', identifier)
    .where(sql<boolean>`created_at > now() - make_interval(secs => ${withinSeconds})`)
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function insertCode(db: Kysely<DB>, identifier: string, codeHash: string, ttlSeconds: number) {
  await db
    .insertInto('sign_in_codes')
    .values({ identifier, code_hash: codeHash, expires_at: sql`now() + make_interval(secs => ${ttlSeconds})` })
    .execute();
}

/** The newest code of the identifier that is neither used nor expired, locked for the exchange. */
export async function lockLiveCode(db: Kysely<DB>, identifier: string) {
  return db
    .selectFrom('sign_in_codes')
    .select(['id', 'code_hash', 'attempts'])
    .where('identifier', '=', identifier)
    .where('consumed_at', 'is', null)
    .where(sql<boolean>`expires_at > now()`)
    .orderBy('created_at', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

/** Counts a wrong try; the code is burnt (consumed) at maxAttempts. */
export async function recordWrongTry(db: Kysely<DB>, id: number, maxAttempts: number) {
  await db
    .updateTable('sign_in_codes')
    .set({ attempts: sql`attempts + 1`, consumed_at: sql`case when attempts + 1 >= ${maxAttempts} then now() else null end` })
    .where('id', '=', id)
    .execute();
}

export async function consumeCode(db: Kysely<DB>, id: number) {
  await db.updateTable('sign_in_codes').set({ consumed_at: sql`now()` }).where('id', '=', id).execute();
}

export async function findPersonByIdentifier(db: Kysely<DB>, identifier: string) {
  const column = identifier.startsWith('+') ? 'phone' : 'email';
  return db.selectFrom('people').select(['id', 'phone', 'email', 'name']).where(column, '=', identifier).executeTakeFirst();
}

export async function findPerson(db: Kysely<DB>, id: number) {
  return db.selectFrom('people').select(['id', 'phone', 'email', 'name']).where('id', '=', id).executeTakeFirst();
}

/** The stores a person belongs to, of every supplier. */
export async function personStores(db: Kysely<DB>, personId: number) {
  return db
    .selectFrom('store_users as u')
    .innerJoin('stores as s', 's.id', 'u.store_id')
    .innerJoin('suppliers as p', 'p.id', 's.supplier_id')
    .select(['s.id', 's.internal_code', 's.name', 's.enabled', 'p.code as supplier_code', 'p.name as supplier_name'])
    .where('u.person_id', '=', personId)
    .orderBy('s.id')
    .execute();
}
