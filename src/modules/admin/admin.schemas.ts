import { Type } from 'typebox';
import { Code, Money, Name, Nullable, Url } from '../../http/common.schemas.ts';
import { SUPPLIER_SCOPES } from '../auth/scopes.ts';

export const SupplierIdParams = Type.Object({ supplierId: Type.Integer({ minimum: 1 }) });
export const ClientIdParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 255 }) });

export const CreateSupplierBody = Type.Object({ name: Name(), code: Code() });
export const Supplier = Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() });

const Scope = Type.Union(SUPPLIER_SCOPES.map((s) => Type.Literal(s)));
export const IssueCredentialsBody = Type.Object({ scopes: Type.Optional(Type.Array(Scope, { maxItems: SUPPLIER_SCOPES.length * 2 })) });
export const Credentials = Type.Object({
  apiKey: Type.String(),
  clientId: Type.String(),
  clientSecret: Type.String({ description: 'shown only here' }),
  scopes: Type.Array(Type.String()),
});
export const Revoked = Type.Object({ clientId: Type.String(), revoked: Type.Boolean() });

export const WebhookBody = Type.Object({ baseUrl: Nullable(Url()), enabled: Type.Boolean() });
export const Webhook = Type.Object({ baseUrl: Nullable(Type.String()), enabled: Type.Boolean(), secret: Type.String() });
export const Secret = Type.Object({ secret: Type.String() });

export const SettingsBody = Type.Object({ minimumOrder: Nullable(Money()) });
export const Settings = Type.Object({ minimumOrder: Nullable(Type.Number()) });
