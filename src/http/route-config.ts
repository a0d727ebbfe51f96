// What each route declares about itself; read by the auth, idempotency and error hooks
// (and by the isolation tests, which walk the route table).
import 'fastify';

export type RouteAuth = 'supplier' | 'store' | 'admin' | 'console' | 'public';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route. Every route under the supplier API names its scope too. */
    auth?: RouteAuth;
    /** The scope a supplier token must hold. */
    scope?: string;
    /** A batch endpoint: a bad body is a 402, not a 400 (docs/conventions.md). */
    batch?: boolean;
    /**
     * Fields of the 200 answer that hold a secret shown once (src/http/idempotency.ts):
     * the answer kept for an Idempotency-Key replay leaves them out and says why in `note`.
     */
    secretFields?: readonly string[];
  }
}
