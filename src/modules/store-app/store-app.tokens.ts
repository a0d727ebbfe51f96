// Store users' access tokens: HS256 JWTs for the /app API, subject the person's id. Their
// audience differs from supplier tokens', so neither kind of token opens the other API.
// An operator can end a person's sessions (POST /admin/store-users/{personId}/sessions/end):
// every token issued up to that second stops working. The guard reads when a person's
// sessions were last ended through the store cache, which forgets on every change to
// people (NOTIFY in the writing transaction), so the end takes effect at once in the
// process that answered it and within a second in the others.
import { jwtCodec } from '../../lib/jwt.ts';

export interface StoreTokenIssuer {
  sign(personId: number): Promise<{ token: string; expiresIn: number }>;
  /** The person of a valid, unexpired store-user token whose sessions were not ended since it was issued, or undefined. */
  verify(token: string): Promise<number | undefined>;
}

/** When the person's sessions were last ended (null: never). */
export type SessionsEndedAt = (personId: number) => Promise<Date | null>;

export function createStoreTokenIssuer(secret: string, ttlSeconds: number, now: () => Date, sessionsEndedAt?: SessionsEndedAt): StoreTokenIssuer {
  const codec = jwtCodec(secret, 'surtido:store-user', ttlSeconds, now);
  return {
    sign: (personId) => codec.sign(String(personId)),
    async verify(token) {
      const payload = await codec.verify(token);
      const id = Number(payload?.sub);
      if (!(Number.isSafeInteger(id) && id > 0) || typeof payload?.iat !== 'number') return undefined;
      const ended = await sessionsEndedAt?.(id);
      // iat is in whole seconds: a token of the second the sessions ended counts as ended.
      if (ended && payload.iat * 1000 <= ended.getTime()) return undefined;
      return id;
    },
  };
}
