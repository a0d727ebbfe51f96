// Who changed what (src/modules/audit/README.md). One mechanism for every write route:
// - the route declares `config.audit`: the entity it writes ('pricelist', 'batch'...),
//   or `false` with the reason in a comment when it changes nothing a supplier or the
//   platform owns; a supplier or admin POST/PUT/PATCH/DELETE route without the
//   declaration stops the app from building, like a route without `config.auth`;
// - its handler runs the service through `audited(deps, request, (db) => ...)` of
//   src/modules/audit/audited.ts, which hands the service a transaction and inserts the
//   audit entry in that same transaction once the service has returned: the write and its
//   entry commit together or not at all, and a refused write (an error) leaves no entry;
// - a success of a route that declares an entity but recorded no entry fails the request
//   under NODE_ENV=test (a test calling it fails) and is logged elsewhere.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {} from '../modules/audit/audited.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** An audited route answered a success without recording its entry (and it was not an Idempotency-Key replay). */
const missedEntry = (request: FastifyRequest, reply: FastifyReply) =>
  Boolean(request.routeOptions.config?.audit) && reply.statusCode < 300 && !request.audited && reply.getHeader('idempotent-replayed') !== 'true';

/**
 * Every supplier or operator write route declares what it audits (checked as the route is
 * added). A success without its entry (the handler forgot `audited()`) is a bug: under
 * NODE_ENV=test it fails the request with a 500, so any test that calls the route fails;
 * elsewhere it is logged (the write has committed; failing the answer would invite a retry).
 */
export function registerAudit(app: FastifyInstance, options: { strict: boolean }) {
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { auth?: string; audit?: string | false };
    const writes = [route.method].flat().some((m) => WRITE_METHODS.has(m));
    if (writes && (config.auth === 'supplier' || config.auth === 'admin') && config.audit === undefined) {
      throw new Error(`write route ${route.method} ${route.url} declares no config.audit (the entity it changes, or false with the reason)`);
    }
  });
  if (options.strict) {
    app.addHook('onSend', async (request, reply, payload) => {
      if (missedEntry(request, reply)) {
        throw new Error(`${request.method} ${request.routeOptions.url} answered ${reply.statusCode} without recording its audit entry: its handler must run the write through audited()`);
      }
      return payload;
    });
    return;
  }
  app.addHook('onResponse', async (request, reply) => {
    if (missedEntry(request, reply)) request.log.error({ route: request.routeOptions.url }, 'a write route answered without recording its audit entry');
  });
}
