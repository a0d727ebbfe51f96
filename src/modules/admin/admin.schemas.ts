import { Type } from 'typebox';
import { Code, Money, Name, Nullable, Url } from '../../lib/schemas.ts';
import { SUPPLIER_SCOPES } from '../auth/scopes.ts';
import { SubscribedEvents } from '../webhooks/webhooks.schemas.ts';

export const SupplierIdParams = Type.Object({ supplierId: Type.Integer({ minimum: 1 }) });
export const ClientIdParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 255 }) });

export const CreateSupplierBody = Type.Object({ name: Name(), code: Code() });
export const Supplier = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  enabled: Type.Boolean({ description: 'false: its credentials and console sessions are refused and its stores show to buyers as closed' }),
});
export const SupplierStatusBody = Type.Object({ enabled: Type.Boolean() });

const Scope = Type.Union(SUPPLIER_SCOPES.map((s) => Type.Literal(s)));
export const IssueCredentialsBody = Type.Object({
  scopes: Type.Optional(Type.Array(Scope, { maxItems: SUPPLIER_SCOPES.length * 2 })),
  mode: Type.Optional(
    Type.Union([Type.Literal('live'), Type.Literal('test')], {
      description: "`test`: a credential of the supplier's test twin (key_test_…, cli_test_…), which reaches only the twin's data; left out: live (from test mode: test)",
    }),
  ),
});
const withheld = 'absent from an Idempotency-Key replay, which carries `note` instead';
/** Set only on an Idempotency-Key replay of an answer that issued a secret (src/http/idempotency.ts). */
export const ReplayNote = Type.Optional(Type.String({ description: 'on an Idempotency-Key replay only: the secret was shown once and is not repeated' }));
export const Credentials = Type.Object({
  apiKey: Type.Optional(Type.String({ description: `shown only in the first answer; ${withheld}` })),
  clientId: Type.String(),
  clientSecret: Type.Optional(Type.String({ description: `shown only in the first answer; ${withheld}` })),
  scopes: Type.Array(Type.String()),
  note: ReplayNote,
});
export const Revoked = Type.Object({ clientId: Type.String(), revoked: Type.Boolean() });

export const WebhookBody = Type.Object({
  baseUrl: Type.Optional(Type.Union([Url(), Type.Null()], { description: 'null: no URL (nothing is sent); left out: the URL stays as it is (to change only `enabled`)' })),
  enabled: Type.Boolean(),
  events: Type.Optional(SubscribedEvents('; left out: kept as they are; []: none')),
});
export const Webhook = Type.Object({
  baseUrl: Nullable(Type.String({ description: "the URL with its password and query values shown as `***`" })),
  enabled: Type.Boolean(),
  events: Type.Optional(SubscribedEvents('; absent: none')),
  secret: Type.Optional(Type.String({ description: `the signing secret; ${withheld}` })),
  note: ReplayNote,
});
export const Secret = Type.Object({ secret: Type.Optional(Type.String({ description: `the new signing secret; ${withheld}` })), note: ReplayNote });

const OrderGuideDays = (description: string) => Type.Integer({ minimum: 7, maximum: 365, description });
export const SettingsBody = Type.Object({
  minimumOrder: Nullable(Money()),
  orderGuideDays: Type.Optional(OrderGuideDays("how far back a store's order guide and cadence suggestions look (src/modules/order-guide/README.md); left out: unchanged")),
});
export const Settings = Type.Object({ minimumOrder: Nullable(Type.Number()), orderGuideDays: OrderGuideDays("how far back a store's order guide looks, in days (default 90)") });

export const SystemStatus = Type.Object({
  version: Type.String({ description: "the service's version (package.json)" }),
  database: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]),
  queues: Type.Array(
    Type.Object({
      queue: Type.String({ description: 'batches, webhook_deliveries, image_downloads or messages' }),
      depth: Type.Integer({ description: 'items waiting (retries included)' }),
      oldestAgeSeconds: Type.Number({ description: 'how long the oldest waiting item has been due; 0 when none waits' }),
    }),
  ),
  failingDeliveries: Type.Array(
    Type.Object({ supplier: Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() }), failing: Type.Integer() }),
    { description: 'suppliers with webhook deliveries whose last attempt failed, the most first (at most 100)' },
  ),
});
