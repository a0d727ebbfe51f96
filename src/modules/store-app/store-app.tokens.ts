// Store users' access tokens: HS256 JWTs for the /app API, subject the person's id, and
// `sid`, the id of a session row (store-app.sessions.repository.ts) that the database keeps
// only as its SHA-256. Their audience differs from supplier tokens', so neither kind of
// token opens the other API. A token is good while its session is: signing out
// (DELETE /app/session) ends that one session, an operator ending a person's sessions
// (POST /admin/store-users/{personId}/sessions/end) ends them all. A copy of the database,
// even with the signing key in it (JWT_SECRET unset), opens nothing: no stored value is a
// session id. The guard reads sessions through the store cache, which forgets whenever a
// session ends (NOTIFY from the ending transaction, migration 0033), so an end takes
// effect at once in the process that answered it and within a moment in the others.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { jwtCodec } from '../../lib/jwt.ts';
import { newSessionId, sha256 } from '../../lib/secrets.ts';
import * as repo from './store-app.sessions.repository.ts';

/** A live store-user session: the person, and the session's key (the hash its row is stored under). */
export interface StoreSession {
  personId: number;
  sessionKey: string;
}

export interface StoreTokenIssuer {
  /** Opens a session for the person and signs its token. */
  sign(personId: number): Promise<{ token: string; expiresIn: number }>;
  /** The session of a valid, unexpired store-user token whose session was not ended, or undefined. */
  verify(token: string): Promise<StoreSession | undefined>;
  /** Ends one session (signing out); false when it had ended already. */
  end(sessionKey: string): Promise<boolean>;
  /** The same issuer opening its sessions with `db`: a transaction's (an audited write), so the session commits with it. */
  within(db: Kysely<DB>): StoreTokenIssuer;
}

/** Reads a session row; deps.ts puts the store cache in front of it. */
export type SessionLookup = (sessionKey: string) => Promise<{ person_id: number; expires_at: Date } | undefined>;

export function createStoreTokenIssuer(db: Kysely<DB>, secret: string, ttlSeconds: number, now: () => Date, lookup: SessionLookup = (key) => repo.liveStoreSession(db, key)): StoreTokenIssuer {
  const codec = jwtCodec(secret, 'surtido:store-user', ttlSeconds, now);
  return issuer(db, codec, ttlSeconds, now, lookup);
}

function issuer(db: Kysely<DB>, codec: ReturnType<typeof jwtCodec>, ttlSeconds: number, now: () => Date, lookup: SessionLookup): StoreTokenIssuer {
  return {
    async sign(personId) {
      const sid = newSessionId();
      // The row lives as long as the token (its exp is now + ttl, in whole seconds).
      const expiresAt = new Date((Math.floor(now().getTime() / 1000) + ttlSeconds) * 1000);
      await repo.insertStoreSession(db, { id: sha256(sid), personId, expiresAt });
      return codec.sign(String(personId), { sid });
    },
    async verify(token) {
      const payload = await codec.verify(token);
      const personId = Number(payload?.sub);
      const sid = payload?.sid;
      // A token of before migration 0033 names no session: its person signs in again.
      if (!(Number.isSafeInteger(personId) && personId > 0) || typeof sid !== 'string') return undefined;
      const sessionKey = sha256(sid);
      const session = await lookup(sessionKey);
      if (!session || session.person_id !== personId || session.expires_at.getTime() <= now().getTime()) return undefined;
      return { personId, sessionKey };
    },
    end: (sessionKey) => repo.endStoreSession(db, sessionKey),
    within: (trx) => issuer(trx, codec, ttlSeconds, now, lookup),
  };
}
