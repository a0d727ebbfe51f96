// The store user of an /app request, as the guard (src/http/auth.ts) verifies it with
// deps.storeTokens (store-app.tokens.ts) and the store side's routes read it.
import type { FastifyRequest } from 'fastify';
import { unauthenticated } from '../../lib/errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The person behind a store-user token (the /app API). */
    storeUser?: number;
    /** The session of that token (the hash its row is stored under), which signing out ends. */
    storeSessionKey?: string;
  }
}

/** The signed-in store user of an /app route (the auth hook has run). */
export function storeUserOf(request: FastifyRequest): number {
  if (request.storeUser === undefined) throw unauthenticated();
  return request.storeUser;
}

/** The session of an /app route's store-user token (the auth hook has run). */
export function storeSessionOf(request: FastifyRequest): string {
  if (request.storeSessionKey === undefined) throw unauthenticated();
  return request.storeSessionKey;
}
