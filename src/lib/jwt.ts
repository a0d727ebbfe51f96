// HS256 JWTs for one audience. Each kind of token (supplier, store user) has its own
// audience, so a token of one kind never verifies as the other even with one key.
import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT, type JWTPayload } from 'jose';

export interface JwtCodec {
  sign(subject: string, claims?: Record<string, unknown>): Promise<{ token: string; expiresIn: number }>;
  /** The payload of a valid, unexpired token of this audience, or undefined. Never throws. */
  verify(token: string): Promise<JWTPayload | undefined>;
}

export function jwtCodec(secret: string, audience: string, ttlSeconds: number, now: () => Date): JwtCodec {
  const key = new TextEncoder().encode(secret);
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
      try {
        return (await jwtVerify(token, key, { algorithms: ['HS256'], audience, currentDate: now() })).payload;
      } catch {
        return undefined; // expired, malformed, badly signed or of another audience
      }
    },
  };
}
