import { Type } from 'typebox';
import { Nullable, PageQuery, Timestamp } from '../../http/common.schemas.ts';
import { NOTIFICATION_TYPES } from './notifications.types.ts';

export const Notification = Type.Object({
  id: Type.Integer(),
  type: Type.Enum(NOTIFICATION_TYPES),
  store: Type.Object({ id: Type.Integer(), internalCode: Type.String(), name: Type.String() }),
  ticketId: Nullable(Type.Integer()),
  orderId: Nullable(Type.Integer()),
  message: Nullable(Type.String({ description: "the supplier's message, when the action carried one" })),
  createdAt: Timestamp(),
  read: Type.Boolean({ description: 'whether this person marked it read' }),
});

export const NotificationQuery = Type.Object({
  unread: Type.Optional(Type.Boolean({ description: 'true: only the ones this person has not read' })),
  ...PageQuery,
});

export const ReadBody = Type.Object({ ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 500 }) });
export const ReadAnswer = Type.Object({ read: Type.Array(Type.Integer(), { description: 'the ids now marked read for this person' }) });
