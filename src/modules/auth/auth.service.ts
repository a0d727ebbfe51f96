import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import type { SupplierAuthenticator, SupplierPrincipal } from './principal.ts';
import { AppError, unauthenticated } from '../../lib/errors.ts';
import { safeEqual, sha256 } from '../../lib/secrets.ts';
import { findLoginPair, isLiveCredentialPair } from './credentials.repository.ts';
import type { LiveCredentials } from './live-credentials.ts';
import { isSupplierScope } from './scopes.ts';
import type { TokenIssuer } from './tokens.ts';

// One answer whatever was wrong, so a caller learns nothing about which part failed.
const loginFailed = () => new AppError('UNAUTHENTICATED', 'invalid API key or client credentials');

export async function login(
  db: Kysely<DB>,
  tokens: TokenIssuer,
  input: { apiKey: string | undefined; clientId: string; clientSecret: string },
) {
  if (!input.apiKey) throw loginFailed();
  const client = await findLoginPair(db, sha256(input.apiKey), input.clientId);
  if (!client || !safeEqual(client.secret_hash, sha256(input.clientSecret))) throw loginFailed();
  // A test twin's credential (src/modules/sandbox) says so in its token: GET /supplier answers it.
  const mode = client.live_supplier_id === null ? 'live' : 'test';
  const { token, expiresIn } = await tokens.sign({ clientId: client.client_id, supplierId: client.supplier_id, scopes: client.scopes, mode });
  return { access_token: token, token_type: 'Bearer' as const, expires_in: expiresIn, scope: client.scopes.join(' ') };
}

/** `Authorization: Bearer <token>`, or the bare token (real integrations send both). */
export function tokenFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^\s*(?:bearer\s+)?(\S+)\s*$/i.exec(header);
  return match?.[1];
}

export async function authenticateSupplier(
  db: Kysely<DB>,
  tokens: TokenIssuer,
  live: LiveCredentials,
  apiKey: string | undefined,
  authorization: string | undefined,
  /** Called with the token's client once the token is verified, before the database is asked (the rate limit). */
  beforeLookup: (clientId: string) => void = () => {},
): Promise<SupplierPrincipal> {
  const token = tokenFromHeader(authorization);
  if (!apiKey || !token) throw unauthenticated('both x-api-key and Authorization are required');
  const claims = await tokens.verify(token);
  if (!claims) throw unauthenticated('the access token is invalid or expired');
  beforeLookup(claims.clientId);
  const keyHash = sha256(apiKey);
  const pair = `${keyHash} ${claims.clientId} ${claims.supplierId}`;
  if (live.knows(pair)) return claims;
  const checkpoint = live.checkpoint();
  if (!(await isLiveCredentialPair(db, keyHash, claims.clientId, claims.supplierId))) {
    throw unauthenticated('the API key and token do not belong to one live credential of a supplier');
  }
  live.remember(pair, checkpoint);
  return claims;
}

export function requireScope(principal: SupplierPrincipal, scope: string): void {
  if (!principal.scopes.includes(scope)) {
    throw new AppError('INSUFFICIENT_SCOPE', `this operation needs the scope ${scope}`, {
      errors: [{ pointer: '/headers/authorization', code: 'INSUFFICIENT_SCOPE', message: `missing scope ${scope}` }],
    });
  }
}

/** What the supplier guard (src/http/auth.ts) is given: this module's checks over one database (src/deps.ts wires it). */
export function createSupplierAuthenticator(db: Kysely<DB>, tokens: TokenIssuer, live: LiveCredentials): SupplierAuthenticator {
  return {
    authenticate: (apiKey, authorization, beforeLookup) => authenticateSupplier(db, tokens, live, apiKey, authorization, beforeLookup),
    requireScope,
    isScope: isSupplierScope,
  };
}
