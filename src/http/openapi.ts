// The OpenAPI 3.1 document is generated from the route schemas (one schema per contract)
// and committed as openapi.json; /docs serves Swagger UI from the package, offline.
// What the document says beyond the routes (webhooks, named shapes) comes from the
// caller (src/api-document.ts): http/ knows no module.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import { ProblemSchema } from '../lib/schemas.ts';
import type { RouteAuth } from './route-config.ts';

export interface ApiDocumentParts {
  /** The OpenAPI 3.1 `webhooks` object. */
  webhooks: Record<string, unknown>;
  /**
   * Shapes named in `components.schemas`: wherever the document holds one of them
   * (structurally: the route keeps its own schema, so validation and serialisation do not
   * change), it says `$ref` instead.
   */
  schemas: Record<string, TSchema>;
}

/** The security of an operation, from the route's `config.auth` (what the auth hook enforces). */
const SECURITY: Record<RouteAuth, Record<string, string[]>[]> = {
  // Either requirement: a credential (API key and token), or a member's console session.
  supplier: [{ apiKey: [], bearer: [] }, { consoleSession: [] }],
  store: [{ storeUser: [] }],
  admin: [{ admin: [] }, { consoleSession: [] }],
  console: [{ consoleSession: [] }],
  public: [],
};

const SECURITY_SCHEMES = {
  apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: "the supplier's API key (issued with its client credentials)" },
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'a supplier access token from POST /login' },
  admin: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
  storeUser: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: "a store user's access token from POST /app/auth/token" },
  consoleSession: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      "a console session's token from POST /console/auth/token: on supplier routes the member's role gives the scopes (no API key is sent); on admin routes the person must be an operator",
  },
  webhookSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'webhook-signature',
    description: 'Standard Webhooks: the platform signs every call with the supplier webhook secret; the receiver verifies it',
  },
};

/**
 * A query parameter with a default may be left out (the validator fills it in), so the
 * document must not call it required; the route keeps it required for its handler's type.
 */
function withOptionalDefaults(querystring: unknown) {
  const q = querystring as { properties?: Record<string, { default?: unknown }>; required?: string[] } | undefined;
  if (!q?.properties || !q.required) return querystring;
  return { ...q, required: q.required.filter((name) => q.properties![name]?.default === undefined) };
}

export async function registerOpenApi(app: FastifyInstance, parts: ApiDocumentParts) {
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
        license: { name: 'MIT', identifier: 'MIT' },
      },
      // Relative: the service that serves this document at /openapi.json (its PUBLIC_URL).
      servers: [{ url: '/', description: 'the service serving this document' }],
      // Every call the platform makes to a supplier (OpenAPI 3.1), for generating receivers.
      webhooks: parts.webhooks as never,
      components: { securitySchemes: SECURITY_SCHEMES as never },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: ({ schema, route }) => {
      const { auth, scope } = route.config ?? {};
      const hidden = (schema as { hide?: boolean } | undefined)?.hide === true;
      if (!auth && !hidden) throw new Error(`route ${String(route.method)} ${route.url} declares no config.auth`);
      // The scope first, then what the route itself says (a batch endpoint: its item limit).
      const description = [scope ? `Scope: \`${scope}\`.` : undefined, (schema as { description?: string }).description].filter(Boolean).join(' ') || undefined;
      return {
        schema: { ...schema, querystring: withOptionalDefaults(schema.querystring), security: auth ? SECURITY[auth] : [], ...(description ? { description } : {}) } as never,
        url: route.url,
      };
    },
    transformObject: (documentObject) => withOperationIds(withNamedSchemas((documentObject as { openapiObject: Document }).openapiObject, parts.schemas)) as never,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger());
}

type Document = {
  paths?: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown> };
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * A key that is the same for two schemas the document writes alike: keys sorted, and
 * `const: x` as `enum: [x]` (@fastify/swagger writes response schemas that way).
 */
function shapeKey(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const object = { ...(v as Record<string, unknown>) };
    if ('const' in object && !('enum' in object)) {
      object.enum = [object.const];
      delete object.const;
    }
    return Object.fromEntries(Object.keys(object).sort().map((k) => [k, object[k]]));
  });
}

/** Every place in the paths, webhooks and components holding a named shape refers to it instead. */
export function withNamedSchemas(document: Document, schemas: Record<string, TSchema>): Document {
  const plain = Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, JSON.parse(JSON.stringify(schema)) as unknown]));
  const byShape = new Map(Object.entries(plain).map(([name, schema]) => [shapeKey(schema), name]));
  if (byShape.size !== Object.keys(plain).length) throw new Error('two named OpenAPI schemas have the same shape');
  const replace = (value: unknown, root: boolean): unknown => {
    if (!value || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v) => replace(v, false));
    const name = root ? undefined : byShape.get(shapeKey(value));
    if (name) return { $ref: `#/components/schemas/${name}` };
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replace(v, false)]));
  };
  const named = Object.fromEntries(Object.entries(plain).map(([name, schema]) => [name, replace(schema, true)]));
  const existing = document.components?.schemas ?? {};
  for (const name of Object.keys(named)) if (name in existing) throw new Error(`the OpenAPI schema ${name} is named twice`);
  return {
    ...document,
    paths: replace(document.paths, false) as Document['paths'],
    webhooks: replace(document.webhooks, false) as Document['webhooks'],
    components: { ...document.components, schemas: { ...(replace(existing, false) as Record<string, unknown>), ...named } },
  };
}

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/**
 * The operationId an operation gets unless its route names one: the method, the path's
 * fixed segments, then its parameters (GET /promotion/{code} is getPromotionByCode).
 * Derived from what identifies the operation, so it stays as long as the route does.
 */
export function operationIdOf(method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  const fixed = segments.filter((s) => !s.startsWith('{')).map(pascal).join('');
  const params = segments.filter((s) => s.startsWith('{')).map((s) => pascal(s.slice(1, -1)));
  return `${method.toLowerCase()}${fixed}${params.length ? `By${params.join('And')}` : ''}`;
}

/** Every operation with an operationId, unique in the document. */
export function withOperationIds(document: Document): Document {
  const seen = new Map<string, string>();
  const paths = Object.fromEntries(
    Object.entries(document.paths ?? {}).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([key, operation]) => {
          if (!METHODS.includes(key)) return [key, operation];
          // A route answering two methods shares one operation object between them: copy it.
          const op = operation as { operationId?: string };
          const operationId = op.operationId ?? operationIdOf(key, path);
          const other = seen.get(operationId);
          if (other) throw new Error(`operationId ${operationId} of ${key.toUpperCase()} ${path} is already ${other}'s`);
          seen.set(operationId, `${key.toUpperCase()} ${path}`);
          return [key, { operationId, ...op }];
        }),
      ),
    ]),
  );
  return { ...document, paths };
}
