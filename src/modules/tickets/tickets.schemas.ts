import { Type } from 'typebox';
import { Code, Nullable, PageQuery, Timestamp } from '../../lib/schemas.ts';
import { StoreUserContact } from '../orders/orders.schemas.ts';

export const TICKET_STATUSES = ['PENDING', 'IN_PROGRESS', 'ADDITIONAL_INFO_REQUESTED', 'SOLVED', 'CLOSED'] as const;
export const TicketStatus = Type.Enum(TICKET_STATUSES);

const Message = (description?: string) => Type.String({ minLength: 1, maxLength: 5000, ...(description ? { description } : {}) });

const ticketFields = {
  id: Type.Integer({ description: "the platform's ticket id" }),
  status: TicketStatus,
  userMessage: Type.String({ description: 'what the store wrote when it opened the ticket' }),
  externalTicketId: Nullable(Type.String({ description: "the ticket's id in the supplier's own ticket service" })),
  platformInternalCode: Type.String({ description: "the store's internalCode" }),
  resolvedAt: Nullable(Timestamp()),
  orderId: Nullable(Type.Integer()),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
  messages: Type.Array(
    Type.Object({ from: Type.Union([Type.Literal('STORE'), Type.Literal('SUPPLIER')]), message: Type.String(), at: Timestamp() }),
    { description: 'the whole conversation, oldest first' },
  ),
};

/** A ticket, as every ticket endpoint and webhook shows it (openapi.json). */
export const Ticket = Type.Object(ticketFields);
/**
 * A ticket read with `names=true` (README.md, "Names"): the same, plus the store's name and
 * who opened it. Only the two reads take it: the webhooks and the changes' answers are `Ticket`.
 */
export const NamedTicket = Type.Object({
  ...ticketFields,
  storeName: Type.Optional(Type.String({ description: "only with names=true: the store's name" })),
  openedBy: Type.Optional(
    Type.Union([StoreUserContact, Type.Null()], {
      description:
        'only with names=true: the store user who opened the ticket, as the supplier registered them (GET /store); null when they are no longer a user of the store',
    }),
  ),
});
/** The store app's ticket: the same, with the store's platform id. */
export const AppTicket = Type.Object({ ...ticketFields, storeId: Type.Integer() });

export const StoreIdParams = Type.Object({ storeId: Type.Integer({ minimum: 1, description: "the platform's id of the store" }) });

const Names = Type.Optional(Type.Boolean({ description: "true: each ticket also carries storeName and openedBy (left out: the contract's ticket)" }));
export const NamesQuery = Type.Object({ names: Names });
export const TicketListQuery = Type.Object({ status: Type.Optional(TicketStatus), names: Names, ...PageQuery });
export const AppTicketListQuery = Type.Object({ ...PageQuery });

export const UpdateTicketBody = Type.Object({
  externalTicketId: Type.Optional(Code({ description: "links the supplier's own ticket id; unique per supplier" })),
  status: Type.Optional(Type.Union([Type.Literal('IN_PROGRESS'), Type.Literal('SOLVED')])),
  message: Type.Optional(Message('appended to messages as the supplier')),
});

export const TicketRefBody = Type.Object(
  {
    ticketId: Type.Optional(Type.Integer({ minimum: 1 })),
    externalTicketId: Type.Optional(Code()),
    message: Type.Optional(Message('appended to messages as the supplier')),
  },
  { description: 'exactly one of ticketId and externalTicketId' },
);

export const OpenTicketBody = Type.Object({
  message: Message('what happened'),
  orderId: Type.Optional(Type.Integer({ minimum: 1, description: 'the order the ticket is about' })),
});

export const AnswerBody = Type.Object({ message: Message('the answer to the supplier') });
