// What each route declares about itself; read by the auth, idempotency and error hooks
// (and by the isolation tests, which walk the route table).
import 'fastify';

export type RouteAuth = 'supplier' | 'store' | 'admin' | 'console' | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route. Every route under the supplier API names its scope too. */
    auth?: RouteAuth;
    /** The scope a supplier token must hold (ANY_SCOPE of src/modules/auth/scopes.ts: any authenticated supplier caller). */
    scope?: string;
    /**
     * A supplier route of one mode only (src/modules/sandbox): `test` (the sandbox's routes)
     * is reached only by a test credential or a console session in test mode, `live` (the
     * supplier's members) only by live ones; the other mode is answered 404, exactly as a
     * route that does not exist.
     */
    mode?: 'live' | 'test';
    /** A batch endpoint: a bad body is a 402, not a 400 (docs/conventions.md). */
    batch?: boolean;
    /**
     * Fields of the 200 answer that hold a secret shown once (src/http/idempotency.ts):
     * the answer kept for an Idempotency-Key replay leaves them out and says why in `note`.
     */
    secretFields?: readonly string[];
  }
}
