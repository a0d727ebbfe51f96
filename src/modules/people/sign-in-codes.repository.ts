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

/** Codes of the identifier asked from one client network in the last `withinSeconds`. */
export async function countRecentCodes(trx: Transaction<DB>, realm: CodeRealm, identifier: string, from: string, withinSeconds: number): Promise<number> {
  const row = await trx
    .selectFrom('sign_in_codes')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('realm', '=', realm)
    .where('identifier', '=', identifier)
    .where('requested_from', '=', from)
    .where(sql<boolean>`created_at > now() - make_interval(secs => ${withinSeconds})`)
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * Ends the identifier's codes still open in the realm that were asked from the same
 * client network: only a network's newest code works, and nobody elsewhere can end the
 * code a person just received by asking for another.
 */
export async function endOpenCodes(trx: Transaction<DB>, realm: CodeRealm, identifier: string, from: string) {
  await trx
    .updateTable('sign_in_codes')
    .set({ consumed_at: sql`now()` })
    .where('realm', '=', realm)
    .where('identifier', '=', identifier)
    .where('requested_from', '=', from)
    .where('consumed_at', 'is', null)
    .execute();
}

export async function insertCode(trx: Transaction<DB>, code: { realm: CodeRealm; identifier: string; codeHash: string; ttlSeconds: number; personId: number | null; from: string }) {
  await trx
    .insertInto('sign_in_codes')
    .values({
      realm: code.realm,
      identifier: code.identifier,
      code_hash: code.codeHash,
      person_id: code.personId,
      requested_from: code.from,
      expires_at: sql`now() + make_interval(secs => ${code.ttlSeconds})`,
    })
    .execute();
}

/**
 * The identifier's live codes in the realm issued for `personId` (null: sign-in codes),
 * at most one per client network that asked, locked for the exchange.
 */
export async function lockLiveCodes(trx: Transaction<DB>, realm: CodeRealm, identifier: string, personId: number | null) {
  return trx
    .selectFrom('sign_in_codes')
    .select(['id', 'code_hash', 'requested_from', 'foreign_attempts'])
    .where('realm', '=', realm)
    .where('identifier', '=', identifier)
    .where('person_id', personId === null ? 'is' : '=', personId)
    .where('consumed_at', 'is', null)
    .where(sql<boolean>`expires_at > now()`)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Counts a wrong try from the network that asked; the code is burnt (consumed) at maxAttempts. */
export async function recordWrongTry(trx: Transaction<DB>, id: number, maxAttempts: number) {
  await trx
    .updateTable('sign_in_codes')
    .set({ attempts: sql`attempts + 1`, consumed_at: sql`case when attempts + 1 >= ${maxAttempts} then now() else null end` })
    .where('id', '=', id)
    .execute();
}

/**
 * Counts a wrong try from another network. It never burns the code: past the limit
 * (sign-in-codes.ts) guesses from elsewhere are refused, and the code still works where it was asked.
 */
export async function recordForeignTry(trx: Transaction<DB>, id: number) {
  await trx.updateTable('sign_in_codes').set({ foreign_attempts: sql`foreign_attempts + 1` }).where('id', '=', id).execute();
}

export async function consumeCode(trx: Transaction<DB>, id: number) {
  await trx.updateTable('sign_in_codes').set({ consumed_at: sql`now()` }).where('id', '=', id).execute();
}
