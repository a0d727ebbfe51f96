// The API's side of metrics and logs: one timing per request (the histogram, and a log line
// when it was slow), and GET /metrics on the API's port unless METRICS_PORT takes it.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.ts';
import { scrape } from '../observability/scrape.ts';

/** The route label of a request no route matched: one value, whatever the path (no ids, no unbounded label). */
export const UNMATCHED_ROUTE = 'unmatched';

export function registerRequestMetrics(app: FastifyInstance, deps: Deps) {
  const { metrics } = deps;
  const slowMs = deps.config.logSlowRequestMs;
  // A callback hook, not an async one: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime;
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    metrics.observeRequest(request.method, route, reply.statusCode, ms / 1000);
    // A 5xx was logged by the error handler already: one line per request at most.
    if (slowMs > 0 && ms >= slowMs && reply.statusCode < 500) {
      request.log.info({ method: request.method, route, statusCode: reply.statusCode, ms: Math.round(ms) }, 'slow request');
    }
    done();
  });

  if (deps.config.metricsPort !== undefined) return;
  app.get('/metrics', { config: { auth: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const answer = await scrape(metrics, deps.config.metricsToken, request.headers.authorization);
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  });
}
