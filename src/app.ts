// buildApp(deps): the Fastify instance with every plugin and module route. It never
// listens: src/main/cli.ts does (for `serve` and `api`), and tests call app.inject.
import { memberRoutes } from './modules/members/members.routes.ts';
import { consoleRoutes } from './modules/console/console.routes.ts';
import { importRoutes } from './modules/imports/imports.routes.ts';
import { sandboxRoutes } from './modules/sandbox/sandbox.routes.ts';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import { apiDocument } from './api-document.ts';
import type { Deps } from './deps.ts';
import { registerAudit } from './http/audit.ts';
import { registerAuth } from './http/auth.ts';
import { registerErrorHandling, sendProblem } from './http/error-handler.ts';
import { healthRoutes } from './http/health.routes.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan, registerLimits, serverTimeouts, tooDeep, trustProxyOption } from './http/limits.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { loggerOptions } from './http/logging.ts';
import { registerRequestMetrics } from './http/observability.ts';
import { registerOpenApi } from './http/openapi.ts';
import { buildSerializer } from './http/serialization.ts';
import { markIfStorable, validatorCompiler } from './lib/validation.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { batchRoutes } from './modules/batch/batch.routes.ts';
import { catalogRoutes } from './modules/catalog/catalog.routes.ts';
import { deliveryRoutes } from './modules/delivery/delivery.routes.ts';
import { creditRoutes } from './modules/credit/credit.routes.ts';
import { imageRoutes } from './modules/images/images.routes.ts';
import { grouperRoutes } from './modules/groupers/groupers.routes.ts';
import { orderRoutes } from './modules/orders/orders.routes.ts';
import { webRoutes } from './http/web.routes.ts';
import { demoImageRoutes } from './http/demo-images.routes.ts';
import { priceListRoutes } from './modules/pricelists/pricelists.routes.ts';
import { promotionRoutes } from './modules/promotions/promotions.routes.ts';
import { recommendationRoutes } from './modules/recommendations/recommendations.routes.ts';
import { sellerRoutes } from './modules/sellers/sellers.routes.ts';
import { orderGuideRoutes } from './modules/order-guide/order-guide.routes.ts';
import { stockRoutes } from './modules/stock/stock.routes.ts';
import { signInRoutes } from './modules/store-app/store-app.me.routes.ts';
import { storeAppRoutes } from './modules/store-app/store-app.routes.ts';
import { messageRoutes } from './modules/messages/messages.routes.ts';
import { storeRoutes } from './modules/stores/stores.routes.ts';
import { supplierRoutes } from './modules/suppliers/suppliers.routes.ts';
import { ticketRoutes } from './modules/tickets/tickets.routes.ts';
import { webhookRoutes } from './modules/webhooks/webhooks.routes.ts';

export interface BuildOptions {
  logger?: boolean | object;
  /** The web apps' build folder to serve (default: the build of the current sources, src/main/web-build.ts). */
  webBuildDir?: string;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export async function buildApp(deps: Deps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? loggerOptions(deps.config),
    // Requests are not logged one line each (a quarter of the throughput); errors and slow requests are.
    logController: new LogController({ disableRequestLogging: true }),
    // Each route gets its own limit when it is added (src/http/limits.ts); this is the default.
    bodyLimit: deps.config.bodyLimitBytes,
    ...serverTimeouts(deps.config),
    // Whose X-Forwarded-For is believed for request.ip (TRUST_PROXY; none by default).
    trustProxy: trustProxyOption(deps.config.trustProxy),
    requestIdHeader: false,
    genReqId: (request) => {
      const sent = request.headers['x-request-id'];
      return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
    },
    return503OnClosing: true,
    schemaController: { compilersFactory: { buildSerializer } },
  });
  // First, so that every route and hook after it is inside the request's span.
  if (deps.tracing) await app.register(deps.tracing.fastifyPlugin);
  app.setValidatorCompiler(validatorCompiler);
  // Bodies are JSON only (docs/conventions.md): anything else is a 415, not a string to validate.
  app.removeContentTypeParser('text/plain');
  // Fastify's own JSON parsing (prototype poisoning refused), plus a look at the raw text
  // that spares the validator a walk through every string of a clean body (validation.ts).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // An empty body is no body: the validator reads it as `{}` (validation.ts).
    if (/^\s*$/.test(body as string)) return done(null, undefined);
    // Refused before JSON.parse builds it: no later walk of the value (the NUL check, the
    // validator, the idempotency hash) can then run out of stack.
    if (nestsDeeperThan(body as string, MAX_JSON_DEPTH)) return done(tooDeep(request.routeOptions.config?.batch === true), undefined);
    parseJson(request, body as string, (error: Error | null, value?: unknown) => {
      if (error) return done(error, undefined);
      markIfStorable(body as string, value);
      done(null, value);
    });
  });

  let draining = false;
  app.addHook('onClose', async () => {
    draining = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (draining) {
      reply.header('retry-after', '5');
      return sendProblem(reply, 503, 'SERVICE_UNAVAILABLE', 'the service is shutting down');
    }
  });

  registerRequestMetrics(app, deps);
  // A write this process answers is seen by its next store-side read: the store cache is
  // forgotten before the answer leaves (other processes hear the write's NOTIFY). Routes
  // that write nothing the store side reads (a cart, an order) say so with keepsStoreCache.
  app.addHook('onSend', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    if ((request.routeOptions.config as { keepsStoreCache?: boolean } | undefined)?.keepsStoreCache) return;
    deps.storeCache.forget();
  });

  // The store app's answers are compressed for a client that asks (brotli, else gzip) when
  // over 1 KiB: a phone on a weak network. A client sending no Accept-Encoding (the
  // benchmarks, every integration today) gets the same bytes as before, and only /app
  // routes are compressed: the supplier API answers as it did. Added before any route, so
  // every /app route gets it (its onSend runs after the idempotency record and the ETag).
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/app/') && route.compress === undefined) route.compress = {};
  });
  await app.register(compress, { global: false, globalDecompression: false, encodings: ['br', 'gzip'], threshold: 1024 });

  registerErrorHandling(app);
  registerLimits(app, deps.config);
  registerAuth(app, deps);
  registerAudit(app, { strict: deps.config.env === 'test' });
  registerIdempotency(app, deps);
  await registerOpenApi(app, apiDocument());

  await app.register(healthRoutes(deps, () => draining));
  await app.register(authRoutes(deps));
  await app.register(adminRoutes(deps));
  await app.register(batchRoutes(deps));
  await app.register(priceListRoutes(deps));
  await app.register(catalogRoutes(deps));
  await app.register(grouperRoutes(deps));
  await app.register(stockRoutes(deps));
  await app.register(storeRoutes(deps));
  await app.register(deliveryRoutes(deps));
  await app.register(creditRoutes(deps));
  await app.register(supplierRoutes(deps));
  await app.register(promotionRoutes(deps));
  await app.register(imageRoutes(deps));
  await app.register(messageRoutes(deps));
  await app.register(signInRoutes(deps));
  await app.register(ticketRoutes(deps));
  await app.register(webhookRoutes(deps));
  await app.register(orderRoutes(deps));
  await app.register(storeAppRoutes(deps));
  await app.register(orderGuideRoutes(deps));
  await app.register(recommendationRoutes(deps));
  await app.register(sellerRoutes(deps));
  await app.register(auditRoutes(deps));
  await app.register(memberRoutes(deps));
  await app.register(consoleRoutes(deps));
  await app.register(importRoutes(deps));
  await app.register(sandboxRoutes(deps));
  await app.register(webRoutes(deps, options.webBuildDir));
  if (deps.config.demoSupplier && deps.config.env === 'development') await app.register(demoImageRoutes);
  return app;
}
