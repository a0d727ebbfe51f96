// buildApp(deps): the Fastify instance with every plugin and module route. It never
// listens: src/main/api.ts does, and tests call app.inject.
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Deps } from './deps.ts';
import { registerAuth } from './http/auth.ts';
import { registerErrorHandling, sendProblem } from './http/error-handler.ts';
import { healthRoutes } from './http/health.routes.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerOpenApi } from './http/openapi.ts';
import { markIfStorable, validatorCompiler } from './http/validation.ts';
import { adminRoutes } from './modules/admin/admin.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { batchRoutes } from './modules/batch/batch.routes.ts';
import { catalogRoutes } from './modules/catalog/catalog.routes.ts';
import { imageRoutes } from './modules/images/images.routes.ts';
import { grouperRoutes } from './modules/groupers/groupers.routes.ts';
import { orderRoutes } from './modules/orders/orders.routes.ts';
import { storefrontRoutes } from './modules/storefront/storefront.routes.ts';
import { priceListRoutes } from './modules/pricelists/pricelists.routes.ts';
import { promotionRoutes } from './modules/promotions/promotions.routes.ts';
import { stockRoutes } from './modules/stock/stock.routes.ts';
import { storeUserRoutes } from './modules/store-users/store-users.routes.ts';
import { storeRoutes } from './modules/stores/stores.routes.ts';
import { notificationRoutes } from './modules/notifications/notifications.routes.ts';
import { ticketAppRoutes } from './modules/tickets/tickets.app.routes.ts';
import { ticketRoutes } from './modules/tickets/tickets.routes.ts';
import { webhookRoutes } from './modules/webhooks/webhooks.routes.ts';

export interface BuildOptions {
  logger?: boolean | object;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export async function buildApp(deps: Deps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: deps.config.logLevel },
    // Requests are not logged one line each (a quarter of the throughput); errors and slow requests are.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: deps.config.bodyLimitBytes,
    requestIdHeader: false,
    genReqId: (request) => {
      const sent = request.headers['x-request-id'];
      return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
    },
    return503OnClosing: true,
  });
  app.setValidatorCompiler(validatorCompiler);
  // Bodies are JSON only (conventions.md): anything else is a 415, not a string to validate.
  app.removeContentTypeParser('text/plain');
  // Fastify's own JSON parsing (prototype poisoning refused), plus a look at the raw text
  // that spares the validator a walk through every string of a clean body (validation.ts).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
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

  registerErrorHandling(app);
  registerAuth(app, deps);
  registerIdempotency(app, deps);
  await registerOpenApi(app);

  await app.register(healthRoutes(deps, () => draining));
  await app.register(authRoutes(deps));
  await app.register(adminRoutes(deps));
  await app.register(batchRoutes(deps));
  await app.register(priceListRoutes(deps));
  await app.register(catalogRoutes(deps));
  await app.register(grouperRoutes(deps));
  await app.register(stockRoutes(deps));
  await app.register(storeRoutes(deps));
  await app.register(promotionRoutes(deps));
  await app.register(imageRoutes(deps));
  await app.register(storeUserRoutes(deps));
  await app.register(ticketRoutes(deps));
  await app.register(ticketAppRoutes(deps));
  await app.register(notificationRoutes(deps));
  await app.register(webhookRoutes(deps));
  await app.register(orderRoutes(deps));
  await app.register(storefrontRoutes(deps));
  return app;
}
