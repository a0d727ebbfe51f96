// Supplier access tokens: HS256 JWTs with sub (clientId), sup (supplier id), scope,
// mode (`test` for a credential of a test twin, src/modules/sandbox; absent: live), iat,
// exp and jti. The key is JWT_SECRET, or one generated once and kept in the
// database so every API process of a deployment verifies every other's tokens.
import { randomBytes } from 'node:crypto';
import { jwtCodec } from '../../lib/jwt.ts';

export interface TokenClaims {
  clientId: string;
  supplierId: number;
  scopes: string[];
  /** `test`: the credential is a test twin's; the supplier id is the twin's. */
  mode: 'live' | 'test';
}

export interface TokenIssuer {
  sign(claims: TokenClaims): Promise<{ token: string; expiresIn: number }>;
  /** The claims of a valid, unexpired supplier token, or undefined. Never throws. */
  verify(token: string): Promise<TokenClaims | undefined>;
}

export const generateJwtSecret = () => randomBytes(48).toString('base64url');

export function createTokenIssuer(secret: string, ttlSeconds: number, now: () => Date = () => new Date()): TokenIssuer {
  const codec = jwtCodec(secret, 'surtido:supplier', ttlSeconds, now);
  return {
    sign: ({ clientId, supplierId, scopes, mode }) => codec.sign(clientId, { sup: supplierId, scope: scopes.join(' '), ...(mode === 'test' ? { mode } : {}) }),
    async verify(token) {
      const payload = await codec.verify(token);
      if (!payload || typeof payload.sub !== 'string' || typeof payload.sup !== 'number' || typeof payload.scope !== 'string') return undefined;
      return { clientId: payload.sub, supplierId: payload.sup, scopes: payload.scope.split(' ').filter(Boolean), mode: payload.mode === 'test' ? 'test' : 'live' };
    },
  };
}
