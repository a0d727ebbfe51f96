// Store users' access tokens: HS256 JWTs for the /app API, subject the person's id. Their
// audience differs from supplier tokens', so neither kind of token opens the other API.
import { jwtCodec } from '../../lib/jwt.ts';

export interface StoreTokenIssuer {
  sign(personId: number): Promise<{ token: string; expiresIn: number }>;
  /** The person of a valid, unexpired store-user token, or undefined. */
  verify(token: string): Promise<number | undefined>;
}

export function createStoreTokenIssuer(secret: string, ttlSeconds: number, now: () => Date): StoreTokenIssuer {
  const codec = jwtCodec(secret, 'surtido:store-user', ttlSeconds, now);
  return {
    sign: (personId) => codec.sign(String(personId)),
    async verify(token) {
      const id = Number((await codec.verify(token))?.sub);
      return Number.isSafeInteger(id) && id > 0 ? id : undefined;
    },
  };
}
