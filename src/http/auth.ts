// Who may call what. Every route declares `config.auth` (and supplier routes their
// `config.scope`); a route without a declaration stops the app from building, so no
// endpoint can be left open by accident.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { RateLimiter } from '../lib/rate-limiter.ts';
import { safeEqual } from '../lib/secrets.ts';
import { authenticateSupplier, requireScope, unauthenticated, type SupplierPrincipal } from '../modules/auth/auth.service.ts';
import { isSupplierScope } from '../modules/auth/scopes.ts';
import type { Deps } from '../deps.ts';
import type { RouteAuth } from './route-config.ts';

/** A route as its guard sees it; the isolation tests walk this table. */
export interface GuardedRoute {
  method: string;
  url: string;
  auth: RouteAuth;
  scope?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    guardedRoutes: GuardedRoute[];
  }
  interface FastifyRequest {
    supplier?: SupplierPrincipal;
    /** The person behind a store-user token (the /app API). */
    storeUser?: number;
  }
}

export function rateLimited(retryAfterSeconds: number, what: string) {
  return new AppError('RATE_LIMITED', `rate limit exceeded for ${what}; retry after ${retryAfterSeconds} s`, {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}

/** The authenticated supplier of a supplier route (the auth hook has run). */
export function supplierOf(request: FastifyRequest): SupplierPrincipal {
  if (!request.supplier) throw unauthenticated();
  return request.supplier;
}

/** The signed-in store user of an /app route (the auth hook has run). */
export function storeUserOf(request: FastifyRequest): number {
  if (request.storeUser === undefined) throw unauthenticated();
  return request.storeUser;
}

export function registerAuth(app: FastifyInstance, deps: Deps) {
  const limiter = new RateLimiter(deps.config.rateLimitRps, deps.config.rateLimitBurst);

  const table: GuardedRoute[] = [];
  app.decorate('guardedRoutes', table);
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { auth?: RouteAuth; scope?: string };
    if (route.url.startsWith('/documentation') || route.url.startsWith('/docs') || route.method === 'HEAD') return;
    if (!config.auth) throw new Error(`route ${route.method} ${route.url} declares no config.auth`);
    if (config.auth === 'supplier' && !(config.scope && isSupplierScope(config.scope))) {
      throw new Error(`supplier route ${route.method} ${route.url} declares no valid config.scope`);
    }
    for (const method of [route.method].flat()) table.push({ method, url: route.url, auth: config.auth, scope: config.scope });
  });

  app.addHook('onRequest', async (request) => {
    const { auth, scope } = request.routeOptions.config ?? {};
    if (auth === 'supplier') {
      const apiKey = headerValue(request.headers['x-api-key']);
      if (apiKey) {
        const limit = limiter.take(apiKey);
        if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds, 'this API key');
      }
      request.supplier = await authenticateSupplier(deps.db, deps.tokens, deps.liveCredentials, apiKey, request.headers.authorization);
      requireScope(request.supplier, scope!);
    } else if (auth === 'store') {
      const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      const person = token ? await deps.storeTokens.verify(token) : undefined;
      if (person === undefined) throw unauthenticated('a valid store-user token is required');
      request.storeUser = person;
    } else if (auth === 'admin') {
      const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
      if (!match || !safeEqual(match[1]!, deps.config.adminToken)) throw unauthenticated('a valid admin token is required');
    }
  });
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
