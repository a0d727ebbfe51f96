// Who may call what. Every route declares `config.auth` (and supplier routes their
// `config.scope`); a route without a declaration stops the app from building, so no
// endpoint can be left open by accident.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, unauthenticated } from '../lib/errors.ts';
import { RateLimiter } from '../lib/rate-limiter.ts';
import { safeEqual } from '../lib/secrets.ts';
import type { Deps } from '../deps.ts';
import { ANY_SCOPE, type RouteAuth } from './route-config.ts';

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

/** A live console session (src/modules/console), read on every request. */
export interface ConsoleSession {
  id: string;
  email: string;
  /** Whether the email is a platform operator's: the session may then call the admin API. */
  operator: boolean;
  /** The supplier the session acts for (null until one is chosen): always the live one. */
  supplierId: number | null;
  /** The console's test-mode switch: on, `supplier` is the test twin of `supplierId` (src/modules/sandbox). */
  testMode: boolean;
  /** The principal of supplier routes: set while the person is a member of that supplier and it is enabled. */
  supplier?: SupplierPrincipal;
}

/** What the guard needs to check a console session's token (src/modules/console implements it). */
export interface ConsoleAuthenticator {
  /** The live session of a console token (renewing it while in use), or undefined. */
  session(token: string): Promise<ConsoleSession | undefined>;
}

/**
 * What the guard needs to check a supplier request. src/modules/auth implements it
 * (createSupplierAuthenticator) and src/deps.ts hands it over: http/ imports no module.
 */
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
  interface FastifyRequest {
    supplier?: SupplierPrincipal;
    /** The person behind a store-user token (the /app API). */
    storeUser?: number;
    /** The session of that token (the hash its row is stored under), which signing out ends. */
    storeSessionKey?: string;
    /** The console session of a console route, or of a supplier or admin route called from the console. */
    consoleSession?: ConsoleSession;
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

/** The console session of a console route (the auth hook has run). */
export function consoleSessionOf(request: FastifyRequest): ConsoleSession {
  if (!request.consoleSession) throw unauthenticated();
  return request.consoleSession;
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

/** What an issued API key looks like (`key_` and base64url; suppliers.service.ts issues 32 characters after the prefix). */
const API_KEY_SHAPE = /^key_[\w-]{16,128}$/;
export const isApiKeyShaped = (value: string) => API_KEY_SHAPE.test(value);

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
