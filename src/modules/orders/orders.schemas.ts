import { Type } from 'typebox';
import { Code, Description, Money, Nullable, PageQuery, Timestamp, Units } from '../../http/common.schemas.ts';

const CalendarDate = () => Type.String({ format: 'calendar-date', description: 'YYYY-MM-DD' });
const Quantity = () => Type.Integer({ minimum: 1, maximum: 1_000_000 });

export const OrderIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
export const OrderStatusEnum = Type.Union([
  Type.Literal('PENDING'),
  Type.Literal('CONFIRMED'),
  Type.Literal('DELIVERED'),
  Type.Literal('RETURNED'),
  Type.Literal('CANCELLED'),
]);

export const QuantityLine = Type.Object({ internalCode: Code(), units: Units(), quantity: Quantity() });

export const ConfirmBody = Type.Object({ deliveryDate: Type.Optional(CalendarDate()) });
export const DeliverBody = Type.Object({ complete: Type.Optional(Type.Boolean()), products: Type.Optional(Type.Array(QuantityLine, { maxItems: 1000 })) });
export const ReturnBody = Type.Object({
  complete: Type.Optional(Type.Boolean()),
  products: Type.Optional(Type.Array(QuantityLine, { maxItems: 1000 })),
  reason: Type.Optional(Description()),
});
export const CancelBody = Type.Object({ cancelCode: Code(), message: Type.Optional(Description()) });

const WithId = <T extends ReturnType<typeof Type.Object>>(schema: T) => Type.Object({ id: Type.Integer({ minimum: 1 }), ...schema.properties });
const MAX = 50_000;
export const OrderBatchBody = Type.Object({
  confirm: Type.Optional(Type.Array(WithId(ConfirmBody), { maxItems: MAX })),
  deliver: Type.Optional(Type.Array(WithId(DeliverBody), { maxItems: MAX })),
  return: Type.Optional(Type.Array(WithId(ReturnBody), { maxItems: MAX })),
  cancel: Type.Optional(Type.Array(WithId(CancelBody), { maxItems: MAX })),
});

export const ImportedOrder = Type.Object({
  externalId: Type.Optional(Code()),
  storeInternalCode: Code(),
  createdAt: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}([T ].+)?$', description: 'a date or a timestamp' }),
  status: OrderStatusEnum,
  products: Type.Array(Type.Object({ internalCode: Code(), units: Units(), quantity: Quantity(), unitPrice: Money() }), { minItems: 1, maxItems: 1000 }),
  total: Type.Optional(Money()),
});
export const BulkImportBody = Type.Object({ orders: Type.Array(ImportedOrder, { maxItems: MAX }) });

export const OrderListQuery = Type.Object({
  status: Type.Optional(OrderStatusEnum),
  from: Type.Optional(CalendarDate()),
  to: Type.Optional(CalendarDate()),
  storeInternalCode: Type.Optional(Code()),
  ...PageQuery,
});

const Line = Type.Object({
  internalCode: Type.String(),
  name: Nullable(Type.String()),
  units: Type.Integer(),
  quantity: Type.Integer(),
  unitPrice: Type.Number(),
  subtotal: Type.Number(),
  discount: Type.Number(),
  total: Type.Number(),
  deliveredQuantity: Type.Integer(),
  returnedQuantity: Type.Integer(),
});

export const Order = Type.Object({
  id: Type.Integer(),
  status: OrderStatusEnum,
  createdAt: Timestamp(),
  externalId: Nullable(Type.String()),
  buyer: Type.Object({
    storeInternalCode: Type.String(),
    storeName: Type.String(),
    legalName: Nullable(Type.String()),
    legalId: Nullable(Type.String()),
    user: Nullable(Type.Object({ name: Nullable(Type.String()), phone: Nullable(Type.String()), email: Nullable(Type.String()) })),
  }),
  address: Nullable(Type.Object({}, { additionalProperties: true })),
  priceListCode: Nullable(Type.String()),
  products: Type.Array(Line),
  promotions: Type.Object({
    rewards: Type.Array(
      Type.Object({ promoInternalCode: Type.String(), quantity: Type.Number(), products: Type.Array(Type.Object({ internalCode: Type.String(), units: Type.Integer() })) }),
    ),
    discounts: Type.Array(
      Type.Object({
        promoInternalCode: Type.String(),
        appliedDiscountPercentage: Nullable(Type.Number()),
        appliedDiscountAmount: Type.Number(),
        products: Type.Array(Type.Object({ internalCode: Type.String(), units: Type.Integer(), quantity: Type.Integer(), discountAmount: Type.Number() })),
      }),
    ),
  }),
  subtotal: Type.Number(),
  discountTotal: Type.Number(),
  total: Type.Number(),
  deliveryDate: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  cancellation: Nullable(
    Type.Object({ code: Type.String(), reason: Type.String(), by: Type.String(), message: Nullable(Type.String()), at: Timestamp() }),
  ),
  history: Type.Array(Type.Object({ status: OrderStatusEnum, at: Timestamp(), by: Type.String(), note: Type.Optional(Type.String()) })),
});

export const CancelCodeSchema = Type.Object({
  code: Code(),
  reason: Type.String({ minLength: 1, maxLength: 500 }),
  usage: Type.Union([Type.Literal('STORE'), Type.Literal('SUPPLIER')]),
});
export const CancelCodes = Type.Array(CancelCodeSchema, { maxItems: 200 });
