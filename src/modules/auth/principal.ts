// Who a supplier request comes from, as the guard (src/http/auth.ts) proves it and the
// routes read it. Declared here, beside createSupplierAuthenticator (auth.service.ts),
// which implements SupplierAuthenticator; src/deps.ts hands that implementation to the guard.
import type { FastifyRequest } from 'fastify';
import { unauthenticated } from '../../lib/errors.ts';

/** Who a verified supplier request comes from (its token's claims, proven live). */
export interface SupplierPrincipal {
  supplierId: number;
  /** The credential's client, or `session:<id>` for a console session. */
  clientId: string;
  scopes: string[];
  /** The member's email when the request comes from a console session (its audit actor). */
  person?: string;
  /** `test`: a test twin's credential or a console session in test mode; supplierId is then the twin's (src/modules/sandbox). */
  mode: 'live' | 'test';
}

/** What the guard needs to check a supplier request. */
export interface SupplierAuthenticator {
  /**
   * The principal of the request's API key and token; throws UNAUTHENTICATED. `beforeLookup`
   * is called with the token's client once the token is verified, before the database is asked.
   */
  authenticate(apiKey: string | undefined, authorization: string | undefined, beforeLookup: (clientId: string) => void): Promise<SupplierPrincipal>;
  /** Throws INSUFFICIENT_SCOPE unless the principal holds the scope. */
  requireScope(principal: SupplierPrincipal, scope: string): void;
  /** Whether a route's config.scope names a scope a credential can hold. */
  isScope(scope: string): boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    supplier?: SupplierPrincipal;
  }
}

/** The authenticated supplier of a supplier route (the auth hook has run). */
export function supplierOf(request: FastifyRequest): SupplierPrincipal {
  if (!request.supplier) throw unauthenticated();
  return request.supplier;
}

/** What an issued API key looks like (`key_` and base64url; suppliers.service.ts issues 32 characters after the prefix). */
const API_KEY_SHAPE = /^key_[\w-]{16,128}$/;
export const isApiKeyShaped = (value: string) => API_KEY_SHAPE.test(value);
