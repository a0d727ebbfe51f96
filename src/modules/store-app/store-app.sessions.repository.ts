// Store users' sessions (migration 0033): one row per token handed out, keyed by the
// SHA-256 of the session id the token carries, so a copy of the database opens none.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';

/** `id`: the hash of the token's session id (every function here takes that hash). */
export async function insertStoreSession(db: Kysely<DB>, s: { id: string; personId: number; expiresAt: Date }) {
  await db.insertInto('store_sessions').values({ id: s.id, person_id: s.personId, expires_at: s.expiresAt }).execute();
}

/** The person and end of a session that was not ended (its expiry is the caller's to check against its clock), or undefined. */
export async function liveStoreSession(db: Kysely<DB>, id: string) {
  return db.selectFrom('store_sessions').select(['person_id', 'expires_at']).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
}

/** Ends one session (signing out); false when it had ended already. */
export async function endStoreSession(db: Kysely<DB>, id: string): Promise<boolean> {
  const row = await db.updateTable('store_sessions').set({ revoked_at: sql`now()` }).where('id', '=', id).where('revoked_at', 'is', null).returning('id').executeTakeFirst();
  return row !== undefined;
}
