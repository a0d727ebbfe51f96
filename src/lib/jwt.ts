// HS256 JWTs for one audience. Each kind of token (supplier, store user) has its own
// audience, so a token of one kind never verifies as the other even with one key.
import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT, type JWTPayload } from 'jose';

export interface JwtCodec {
  sign(subject: string, claims?: Record<string, unknown>): Promise<{ token: string; expiresIn: number }>;
  /** The payload of a valid, unexpired token of this audience, or undefined. Never throws. */
  verify(token: string): Promise<JWTPayload | undefined>;
}

/** Tokens verified recently, at most this many (the oldest is forgotten first). */
const VERIFIED_CACHE_SIZE = 10_000;

export function jwtCodec(secret: string, audience: string, ttlSeconds: number, now: () => Date): JwtCodec {
  const key = new TextEncoder().encode(secret);
  // A token's signature and audience cannot change, only its expiry can: a token checked
  // once needs only its expiry checked again. Clients send the same token on every
  // request until it expires, and the HMAC check through WebCrypto costs more than the
  // rest of the authentication together.
  const verified = new Map<string, JWTPayload & { exp: number }>();
  return {
    async sign(subject, claims = {}) {
      const iat = Math.floor(now().getTime() / 1000);
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(subject)
        .setAudience(audience)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSeconds)
        .setJti(randomUUID())
        .sign(key);
      return { token, expiresIn: ttlSeconds };
    },
    async verify(token) {
      const seconds = Math.floor(now().getTime() / 1000);
      const known = verified.get(token);
      if (known) {
        if (known.exp > seconds) return known; // jose's own rule: expired when exp <= now
        verified.delete(token);
        return undefined;
      }
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], audience, currentDate: now() });
        if (typeof payload.exp === 'number') {
          if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
          verified.set(token, payload as JWTPayload & { exp: number });
        }
        return payload;
      } catch {
        return undefined; // expired, malformed, badly signed or of another audience
      }
    },
  };
}
