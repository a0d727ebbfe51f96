// What one request may cost before any handler runs: how large its body may be (by the
// kind of route), how deep its JSON may nest, and how often a client address may call
// the store sign-in routes. The timeouts that bound a slow client are set on the server
// itself (serverTimeouts, used by src/app.ts).
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from '../lib/errors.ts';
import { RateLimiter } from '../lib/rate-limiter.ts';
import { rateLimited } from '../lib/errors.ts';

/** Deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

/** Routes where anyone may send a body without credentials (the supplier API's, the shop's and the console's sign-in): a few KB is all they need. */
export const isSignInRoute = (url: string) => url === '/login' || url.startsWith('/app/auth/') || url.startsWith('/console/auth/');

/**
 * The body limit of a route: small on the sign-in routes, large only on the batch
 * endpoints and file imports (which declare `config.batch`), the modest default
 * everywhere else. Set when each route is added, so Fastify itself refuses an oversized
 * body with 413 while reading it (at once when Content-Length says so), before any
 * parser or handler runs.
 */
export function bodyLimitOf(route: Pick<RouteOptions, 'url' | 'config'>, config: Config): number {
  if (isSignInRoute(route.url)) return config.signInBodyLimitBytes;
  if ((route.config as { batch?: boolean } | undefined)?.batch) return config.batchBodyLimitBytes;
  return config.bodyLimitBytes;
}

/** The server options that bound a slow client (Fastify's, and Node's own for the headers). */
export function serverTimeouts(config: Config) {
  const shortest = Math.min(config.headersTimeoutMs, config.requestTimeoutMs || config.headersTimeoutMs);
  return {
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      // Node checks the header and request deadlines on this interval (30 s by default), so
      // a deadline is only as sharp as the interval: a quarter of the shortest, at most 1 s.
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(shortest / 4))),
    },
  };
}

/**
 * Fastify's trustProxy for TRUST_PROXY. A hop count becomes the function proxy-addr makes
 * of it (the n proxies nearest the service are trusted), since Fastify's types take no number.
 */
export function trustProxyOption(trust: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/**
 * Whether the JSON text nests arrays and objects deeper than `max`. A scan of the raw
 * text before JSON.parse: brackets inside strings do not count, and strings are skipped
 * with indexOf, so a body of long strings costs little. Malformed text answers false and
 * is left to JSON.parse to refuse.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip to the closing quote: one not preceded by an odd run of backslashes.
      let j = i;
      for (;;) {
        j = text.indexOf('"', j + 1);
        if (j < 0) return false;
        let slashes = 0;
        while (text.charCodeAt(j - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
      }
      i = j;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

export const tooDeep = (batch: boolean) =>
  new AppError('NESTING_TOO_DEEP', `the body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`, {
    status: batch ? 402 : 400,
    errors: [{ pointer: '', code: 'NESTING_TOO_DEEP', message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` }],
  });

/** Sets every route's body limit and limits each client address on the sign-in routes (the shop's and the console's, counted apart). */
export function registerLimits(app: FastifyInstance, config: Config) {
  const perMinute = config.authRateLimitPerMinute;
  const signIns = new RateLimiter(perMinute / 60, perMinute, { maxKeys: config.rateLimitMaxKeys });
  app.decorate('signInLimiter', signIns);
  const logins = config.loginRateLimitPerMinute;
  app.decorate('loginLimiters', {
    failures: new RateLimiter(logins / 60, logins, { maxKeys: config.rateLimitMaxKeys }),
    successes: new RateLimiter(logins / 60, logins, { maxKeys: config.rateLimitMaxKeys }),
  });

  // Per client address (request.ip: the socket's peer, or what a trusted proxy forwarded,
  // TRUST_PROXY), each route counted apart, before the body is read: a flood of code
  // requests neither reaches the service nor uses up the address's code exchanges.
  const limitAddress = async (request: FastifyRequest) => {
    const limit = signIns.take(`${request.routeOptions.url} ${request.ip}`);
    if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds, 'sign-in requests from this address');
  };

  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= bodyLimitOf(route, config);
    if (route.url.startsWith('/app/auth/') || route.url.startsWith('/console/auth/')) {
      route.onRequest = [limitAddress, ...(route.onRequest ? [route.onRequest].flat() : [])];
    }
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The per-address limiter of the /app/auth routes (tests read its size). */
    signInLimiter: RateLimiter;
    /** POST /login's limiters: failed logins per API key and address, successful ones per API key. */
    loginLimiters: { failures: RateLimiter; successes: RateLimiter };
  }
}
