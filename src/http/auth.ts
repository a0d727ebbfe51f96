// Who may call what. Every route declares `config.auth` (and supplier routes their
// `config.scope`); a route without a declaration stops the app from building, so no
// endpoint can be left open by accident.
// The principals it sets on the request are declared by the modules that prove them:
// src/modules/auth/principal.ts, src/modules/console/console.session.ts and
// src/modules/store-app/store-app.principal.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, rateLimited, unauthenticated } from '../lib/errors.ts';
import { headerValue } from '../lib/headers.ts';
import { RateLimiter } from '../lib/rate-limiter.ts';
import { safeEqual } from '../lib/secrets.ts';
import type { Deps } from '../deps.ts';
import { isApiKeyShaped } from '../modules/auth/principal.ts';
import { ANY_SCOPE } from '../modules/auth/scopes.ts';
import type {} from '../modules/console/console.session.ts';
import type {} from '../modules/store-app/store-app.principal.ts';
import type { RouteAuth } from './route-config.ts';

/** A route as its guard sees it; the isolation tests walk this table. */
export interface GuardedRoute {
  method: string;
  url: string;
  auth: RouteAuth;
  scope?: string;
  /** What the route's audit entry names (src/http/audit.ts); false: not audited; undefined: a read. */
  audit?: string | false;
  /** A supplier route of one mode only (route-config.ts). */
  mode?: 'live' | 'test';
}

declare module 'fastify' {
  interface FastifyInstance {
    guardedRoutes: GuardedRoute[];
    /** The per-API-key limiter of supplier routes (tests read its size). */
    apiKeyLimiter: RateLimiter;
  }
}

export function registerAuth(app: FastifyInstance, deps: Deps) {
  const limiter = new RateLimiter(deps.config.rateLimitRps, deps.config.rateLimitBurst, { maxKeys: deps.config.rateLimitMaxKeys });
  // Per store user, whichever session or process they write through (docs/security.md): a
  // real shop writes far less; a script with a stolen or scripted token cannot flood orders.
  const perMinute = deps.config.storeWriteRateLimitPerMinute;
  const storeWrites = new RateLimiter(perMinute / 60, perMinute, { maxKeys: deps.config.rateLimitMaxKeys });
  app.decorate('apiKeyLimiter', limiter);

  const table: GuardedRoute[] = [];
  app.decorate('guardedRoutes', table);
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { auth?: RouteAuth; scope?: string; audit?: string | false; mode?: 'live' | 'test' };
    if (route.url.startsWith('/documentation') || route.url.startsWith('/docs') || route.method === 'HEAD') return;
    if (!config.auth) throw new Error(`route ${route.method} ${route.url} declares no config.auth`);
    if (config.auth === 'supplier' && !(config.scope && (config.scope === ANY_SCOPE || deps.supplierAuth.isScope(config.scope)))) {
      throw new Error(`supplier route ${route.method} ${route.url} declares no valid config.scope`);
    }
    for (const method of [route.method].flat()) table.push({ method, url: route.url, auth: config.auth, scope: config.scope, audit: config.audit, mode: config.mode });
  });

  const bearer = (request: FastifyRequest) => /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];

  app.addHook('onRequest', async (request) => {
    const { auth, scope, mode } = request.routeOptions.config ?? {};
    if (auth === 'supplier') {
      const apiKey = headerValue(request.headers['x-api-key']);
      // The console calls the supplier API with its session token alone (no API key): the
      // member's role gives the scopes, and the limit counts per session.
      const token = apiKey === undefined ? bearer(request) : undefined;
      const session = token === undefined ? undefined : await deps.consoleAuth.session(token);
      if (session) {
        if (!session.supplier) throw unauthenticated('this console session acts for no supplier it is a member of (choose one with PUT /console/me/supplier)');
        const limit = limiter.take(session.supplier.clientId);
        if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds, 'this console session');
        request.consoleSession = session;
        request.supplier = session.supplier;
      } else {
        // A key that cannot be one of ours is refused before anything else. The limit counts
        // per credential (an API key and its client are issued together, one to one), keyed
        // by the client of a token we signed: junk keys and forged tokens leave no state.
        if (apiKey !== undefined && !isApiKeyShaped(apiKey)) throw unauthenticated('the API key is not valid');
        request.supplier = await deps.supplierAuth.authenticate(apiKey, request.headers.authorization, (clientId) => {
          const limit = limiter.take(clientId);
          if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds, 'this API key');
        });
      }
      // A route of the other mode is, for this principal, a route that does not exist: the same 404 as an unknown one.
      if (mode && request.supplier.mode !== mode) throw new AppError('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`);
      if (scope !== ANY_SCOPE) deps.supplierAuth.requireScope(request.supplier, scope!);
    } else if (auth === 'store') {
      const token = bearer(request);
      const session = token ? await deps.storeTokens.verify(token) : undefined;
      if (session === undefined) throw unauthenticated('a valid store-user token is required');
      request.storeUser = session.personId;
      request.storeSessionKey = session.sessionKey;
      // Signing out is never refused: a person must always be able to end their session.
      if (request.method !== 'GET' && request.method !== 'HEAD' && request.routeOptions.url !== '/app/session') {
        const limit = storeWrites.take(`person:${session.personId}`);
        if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds, 'writes by this store user');
      }
    } else if (auth === 'admin') {
      // ADMIN_TOKEN (scripts, the CLI's peers), or an operator's console session.
      const token = bearer(request);
      if (token !== undefined && safeEqual(token, deps.config.adminToken)) return;
      const session = token === undefined ? undefined : await deps.consoleAuth.session(token);
      if (!session?.operator) throw unauthenticated('a valid admin token or operator session is required');
      request.consoleSession = session;
    } else if (auth === 'console') {
      const token = bearer(request);
      const session = token === undefined ? undefined : await deps.consoleAuth.session(token);
      if (!session) throw unauthenticated('a valid console session is required');
      request.consoleSession = session;
    }
  });
}
