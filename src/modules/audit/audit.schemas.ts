import { Type, type Static } from 'typebox';
import { Nullable, Page, PageQuery, Timestamp } from '../../lib/schemas.ts';

export const AuditEntry = Type.Object(
  {
    id: Type.Integer(),
    at: Timestamp(),
    supplierId: Nullable(Type.Integer({ description: 'the supplier the write concerns; null for platform-wide writes' })),
    actor: Type.Object({
      kind: Type.Union([Type.Literal('credential'), Type.Literal('operator'), Type.Literal('person')]),
      id: Type.String({ description: "a credential's clientId, a member's email, or an operator's email (`admin` for the ADMIN_TOKEN); a supplier's readers see every operator as `platform`" }),
    }),
    operation: Type.String({ description: 'the route called, as `METHOD /path/:param`; a console sign-in is `POST /console/auth/token` (entity `session`)' }),
    entity: Type.String({ description: 'what was written: pricelist, product, batch, supplier, credential...' }),
    entityId: Nullable(Type.String({ description: "the entity's internalCode or id" })),
    detail: Type.Unknown({ description: 'more about the write, when there is more (a batch: its ids)' }),
    changes: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String({ description: 'the field as the API names it (status, deliveryDate, enabled, role...)' }),
          before: Type.Unknown({ description: 'its value before the write' }),
          after: Type.Unknown({ description: 'its value after the write' }),
        }),
        { description: 'what an update changed, old and new, for the records whose fields the log keeps (orders, tickets, members, price lists, promotions, groupers, sellers, the webhook, suppliers); left out where nothing was kept (entries written before, creations, batches)' },
      ),
    ),
    requestId: Nullable(Type.String()),
    clientAddress: Nullable(Type.String({ description: "the writer's address; null when a supplier reads an operator's entry" })),
  },
  { $id: 'AuditEntry' },
);

const filters = {
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "a credential's clientId, a member's or operator's email, or `admin`; for a supplier, `platform` finds the operators' writes" })),
  entity: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  entityId: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'entries at or after this instant' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'entries before this instant' })),
  ...PageQuery,
};

export const AuditQuery = Type.Object(filters);
export const AdminAuditQuery = Type.Object({ supplier: Type.Optional(Type.Integer({ minimum: 1, description: 'supplier id' })), ...filters });
export const AuditPage = Page(AuditEntry);

export type AuditQuery = Static<typeof AuditQuery>;
