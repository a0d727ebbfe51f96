// The OpenAPI 3.1 document is generated from the route schemas (one schema per contract)
// and committed as openapi.json; /docs serves Swagger UI from the package, offline.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ProblemSchema } from './common.schemas.ts';
import { webhooksDocument } from '../modules/webhooks/webhooks.openapi.ts';

/**
 * A query parameter with a default may be left out (the validator fills it in), so the
 * document must not call it required; the route keeps it required for its handler's type.
 */
function withOptionalDefaults(querystring: unknown) {
  const q = querystring as { properties?: Record<string, { default?: unknown }>; required?: string[] } | undefined;
  if (!q?.properties || !q.required) return querystring;
  return { ...q, required: q.required.filter((name) => q.properties![name]?.default === undefined) };
}

export async function registerOpenApi(app: FastifyInstance) {
  app.addSchema(ProblemSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Surtido supplier integration API',
        version: '1.0.0',
        description:
          'The REST API suppliers connect their ERP to. Obtain a token with POST /login, then send both `x-api-key` and ' +
          '`Authorization: Bearer <token>`. Batch endpoints answer 202 with batch ids; follow them with /batch/{uuid}/status and /detail. ' +
          'Errors are RFC 9457 problem details with a stable `code`.',
      },
      // Every call the platform makes to a supplier (OpenAPI 3.1), for generating receivers.
      webhooks: webhooksDocument() as never,
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          admin: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: ({ schema, route }) => {
      const auth = (route.config as { auth?: string } | undefined)?.auth;
      const scope = (route.config as { scope?: string } | undefined)?.scope;
      const security = auth === 'supplier' ? [{ apiKey: [], bearer: [] }] : auth === 'admin' ? [{ admin: [] }] : [];
      const description = scope ? `Scope: \`${scope}\`.` : undefined;
      return { schema: { ...schema, querystring: withOptionalDefaults(schema.querystring), security, ...(description ? { description } : {}) } as never, url: route.url };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger());
}
