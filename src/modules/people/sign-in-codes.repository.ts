// One-time sign-in codes (sign-in-codes.ts), each of a realm: a store user's codes and a
// console member's or operator's are kept apart, so neither ends nor counts the other.
import { sql, type Transaction } from 'kysely';
import type { CodeRealm, DB } from '../../db/types.ts';

/**
 * Serialises the code requests of one identifier in a realm (PostgreSQL: two requests at
 * once would both count 4 and both insert). Released at the end of the transaction.
 */
export async function lockIdentifier(trx: Transaction<DB>, realm: CodeRealm, identifier: string) {
  await sql`select pg_advisory_xact_lock(hashtext(${`${realm}:${identifier}`}))`.execute(trx);
}

export async function countRecentCodes(trx: Transaction<DB>, realm: CodeRealm, identifier: string, withinSeconds: number): Promise<number> {
  const row = await trx
    .selectFrom('sign_in_codes')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('realm', '=', realm)
    .where('identifier', '=', identifier)
    .where(sql<boolean>`created_at > now() - make_interval(secs => ${withinSeconds})`)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Ends every code of the identifier still open in the realm: only the newest one ever works. */
export async function endOpenCodes(trx: Transaction<DB>, realm: CodeRealm, identifier: string) {
  await trx
    .updateTable('sign_in_codes')
    .set({ consumed_at: sql`now()` })
    .where('realm', '=', realm)
    .where('identifier', '=', identifier)
    .where('consumed_at', 'is', null)
    .execute();
}

export async function insertCode(trx: Transaction<DB>, code: { realm: CodeRealm; identifier: string; codeHash: string; ttlSeconds: number; personId: number | null }) {
  await trx
    .insertInto('sign_in_codes')
    .values({
      realm: code.realm,
      identifier: code.identifier,
      code_hash: code.codeHash,
      person_id: code.personId,
      expires_at: sql`now() + make_interval(secs => ${code.ttlSeconds})`,
    })
    .execute();
}

/** The identifier's live code in the realm (at most one is open), locked for the exchange. */
export async function lockLiveCode(trx: Transaction<DB>, realm: CodeRealm, identifier: string) {
  return trx
    .selectFrom('sign_in_codes')
    .select(['id', 'code_hash', 'attempts', 'person_id'])
    .where('realm', '=', realm)
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
