import { Type, type TObject, type TProperties } from 'typebox';
import { Code, Description, Money, Nullable, PageQuery, Timestamp, Units } from '../../lib/schemas.ts';
import { CreditHoldSchema, PaymentMethod, PaymentStatus } from '../credit/credit.schemas.ts';
import { OrderPricing, PricedLineResult } from '../pricing/pricing.schemas.ts';
import { Address } from '../stores/stores.schemas.ts';

const CalendarDate = () => Type.String({ format: 'calendar-date', description: 'YYYY-MM-DD' });
const Quantity = () => Type.Integer({ minimum: 1, maximum: 1_000_000 });

export const OrderStatusEnum = Type.Union([
  Type.Literal('PENDING'),
  Type.Literal('CONFIRMED'),
  Type.Literal('DELIVERED'),
  Type.Literal('RETURNED'),
  Type.Literal('CANCELLED'),
]);

export const QuantityLine = Type.Object({ internalCode: Code(), units: Units(), quantity: Quantity() });

export const ConfirmBody = Type.Object({ deliveryDate: Type.Optional(CalendarDate()) }, { description: 'the body may be left out' });
// Both fields are optional one by one, but a body must send one of them: the rule is
// checked in orders.rules.ts, so that a batch item breaking it fails alone.
const SAYS_WHAT_MOVED = 'complete: true, or products with at least one line (lines not named: 0); anything else is a 400';
export const DeliverBody = Type.Object(
  { complete: Type.Optional(Type.Boolean()), products: Type.Optional(Type.Array(QuantityLine, { maxItems: 1000 })) },
  { description: SAYS_WHAT_MOVED },
);
export const ReturnBody = Type.Object(
  {
    complete: Type.Optional(Type.Boolean()),
    products: Type.Optional(Type.Array(QuantityLine, { maxItems: 1000 })),
    reason: Type.Optional(Description()),
  },
  { description: SAYS_WHAT_MOVED },
);
export const CancelBody = Type.Object({ cancelCode: Code(), message: Type.Optional(Description()) });

const WithId = <Properties extends TProperties>(schema: TObject<Properties>) => Type.Object({ id: Type.Integer({ minimum: 1 }), ...schema.properties });
// A batch array has no maxItems: the one item limit is MAX_BATCH_REQUEST_ITEMS, checked on acceptance.
export const OrderBatchBody = Type.Object({
  confirm: Type.Optional(Type.Array(WithId(ConfirmBody))),
  deliver: Type.Optional(Type.Array(WithId(DeliverBody))),
  return: Type.Optional(Type.Array(WithId(ReturnBody))),
  cancel: Type.Optional(Type.Array(WithId(CancelBody))),
});

export const ImportedOrder = Type.Object({
  externalId: Type.Optional(Code()),
  storeInternalCode: Code(),
  createdAt: Type.String({ format: 'date-or-timestamp', description: 'a date (YYYY-MM-DD) or a timestamp, in years 0001 to 9999' }),
  status: OrderStatusEnum,
  products: Type.Array(Type.Object({ internalCode: Code(), units: Units(), quantity: Quantity(), unitPrice: Money() }), { minItems: 1, maxItems: 1000 }),
  total: Type.Optional(Money()),
});
export const BulkImportBody = Type.Object({ orders: Type.Array(ImportedOrder) });

export const OrderListQuery = Type.Object({
  status: Type.Optional(OrderStatusEnum),
  from: Type.Optional(CalendarDate()),
  to: Type.Optional(CalendarDate()),
  storeInternalCode: Type.Optional(Code()),
  store: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "part of the store's name or internalCode, case-insensitive" })),
  deliveryDate: Type.Optional(CalendarDate()),
  deliveryZone: Type.Optional(Code({ description: "a delivery zone's internalCode: the orders placed for that zone (with deliveryDate: what its route loads)" })),
  ...PageQuery,
});

/** An order line: the priced cart's line (pricing.schemas.ts) under the product's code and name, with what moved since. */
export const OrderLine = Type.Object({
  internalCode: Type.String(),
  name: Nullable(Type.String()),
  ...Type.Omit(PricedLineResult, ['productInternalCode']).properties,
  deliveredQuantity: Type.Integer(),
  returnedQuantity: Type.Integer(),
});

/** How an order came in (src/modules/orders/README.md, "Channels"). */
export const OrderChannel = Type.Union([Type.Literal('STORE_APP'), Type.Literal('SELLER'), Type.Literal('ERP_IMPORT')], {
  description: "SELLER: placed in the store app by the supplier's seller (with placedBy); ERP_IMPORT: imported by the ERP (POST /order/bulk-import). Absent: STORE_APP, placed by one of the store's users",
});
/** Who placed an order as a seller (src/modules/sellers). */
export const PlacedBy = Type.Object(
  { sellerInternalCode: Type.String(), name: Type.String() },
  { description: 'only on an order a seller placed: the seller as they were then' },
);

/** A store user as the store's supplier registered them (store_users): an order's buyer, a ticket's opener. */
export const StoreUserContact = Type.Object({ name: Nullable(Type.String()), phone: Nullable(Type.String()), email: Nullable(Type.String()) });

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
    user: Nullable(StoreUserContact),
  }),
  address: Nullable(Address),
  priceListCode: Nullable(Type.String()),
  products: Type.Array(OrderLine),
  promotions: OrderPricing,
  subtotal: Type.Number(),
  discountTotal: Type.Number(),
  deliveryFee: Type.Optional(
    Type.Number({ description: "only on an order charged a fee for staying below its delivery zone's minimum (mode fee); included in `total`" }),
  ),
  total: Type.Number({ description: '`subtotal − discountTotal`, plus `deliveryFee` when the order has one' }),
  deliveredTotal: Type.Optional(
    Type.Number({
      description:
        "once DELIVERED or RETURNED: what the store keeps, each line's net price (`total ÷ quantity`) times `deliveredQuantity − returnedQuantity`, summed and rounded once to the currency; `total` stays what was ordered. A `deliveryFee` is not in it",
    }),
  ),
  deliveryDate: Nullable(Type.String()),
  afterCutoff: Type.Optional(
    Type.Boolean({ description: "only on an order placed for a store with a delivery zone: true when a flexible zone took it after its date's cut-off" }),
  ),
  // Only on an order of a store with payment methods (src/modules/credit): every other order answers as before.
  paymentMethod: Type.Optional(PaymentMethod),
  paymentStatus: Type.Optional(PaymentStatus),
  creditHold: Type.Optional(CreditHoldSchema),
  notes: Nullable(Type.String()),
  cancellation: Nullable(
    Type.Object({ code: Type.String(), reason: Type.String(), by: Type.String(), message: Nullable(Type.String()), at: Timestamp() }),
  ),
  history: Type.Array(Type.Object({ status: OrderStatusEnum, at: Timestamp(), by: Type.String(), note: Type.Optional(Type.String()) })),
  // Only on an order a seller placed (src/modules/sellers) or the ERP imported: every other order answers as before.
  placedBy: Type.Optional(PlacedBy),
  channel: Type.Optional(OrderChannel),
});

export const CancelCodeSchema = Type.Object({
  code: Code(),
  reason: Type.String({ minLength: 1, maxLength: 500 }),
  usage: Type.Union([Type.Literal('STORE'), Type.Literal('SUPPLIER')]),
});
export const CancelCodes = Type.Array(CancelCodeSchema, { maxItems: 200 });
/** A replacement list: empty would leave neither the stores nor the supplier any way to cancel. */
export const CancelCodesBody = Type.Array(CancelCodeSchema, { minItems: 1, maxItems: 200 });
