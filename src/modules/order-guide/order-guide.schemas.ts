// The order guide's shapes (README.md): what its routes take and answer.
import { Type, type Static } from 'typebox';
import { Code, Nullable, Timestamp } from '../../lib/schemas.ts';
import { LineErrorCode } from '../pricing/pricing.schemas.ts';
import { CatalogPromotion } from '../store-app/store-app.schemas.ts';

const Count = (description: string) => Type.Integer({ minimum: 0, maximum: 1_000_000, description });

export const GuideQuery = Type.Object({
  sort: Type.Optional(Type.Union([Type.Literal('frequency'), Type.Literal('recency')], { description: 'frequency (default): the most ordered first; recency: the latest first. Pinned products come first either way' })),
  includeHidden: Type.Optional(Type.Boolean({ description: 'true: the hidden products too (to unhide one); default false' })),
});

export const GuideProductParams = Type.Object({ storeId: Type.Integer({ minimum: 1 }), productInternalCode: Code() });
export const RepeatParams = Type.Object({ storeId: Type.Integer({ minimum: 1 }), orderId: Type.Integer({ minimum: 1 }) });

export const PreferenceBody = Type.Object(
  {
    pinned: Type.Optional(Type.Boolean({ description: 'always in the guide, first, bought or not' })),
    hidden: Type.Optional(Type.Boolean({ description: 'left out of the guide and of cadence suggestions' })),
    par: Type.Optional(Nullable(Count('the stock wanted on the shelf, in packages of the guide line\'s size; null clears it'))),
  },
  { description: 'what is left out stays as it is; an empty body changes nothing' },
);
export const Preference = Type.Object({ productInternalCode: Type.String(), pinned: Type.Boolean(), hidden: Type.Boolean(), par: Nullable(Type.Integer()) });

export const GuideItem = Type.Object({
  productInternalCode: Type.String(),
  name: Type.String(),
  units: Type.Integer({ description: 'the package size: the one last ordered (a pinned product never ordered: its smallest priced size)' }),
  timesOrdered: Type.Integer({ description: 'orders in the window naming the product' }),
  lastOrderedAt: Nullable(Timestamp()),
  lastQuantity: Nullable(Type.Integer({ description: 'packages of `units` in the latest order' })),
  usualQuantity: Type.Integer({ description: 'the median of what its orders bought, in packages of `units`, rounded up to the case multiple; 1 for a product never ordered' }),
  multiple: Type.Integer({ description: "the product's case multiple (1 when it has none)" }),
  unitPrice: Nullable(Type.Number({ description: "today's price of one package of `units` for this store; null when it cannot be ordered" })),
  available: Type.Boolean(),
  unavailableReason: Nullable(LineErrorCode),
  promotions: Type.Array(CatalogPromotion, { description: 'the promotions taking part for the store today that name the product (badges)' }),
  pinned: Type.Boolean(),
  hidden: Type.Boolean(),
  par: Nullable(Type.Integer()),
});
export type GuideItem = Static<typeof GuideItem>;

export const OrderGuide = Type.Object({
  windowDays: Type.Integer({ description: "how far back the guide looks (the supplier's setting)" }),
  sort: Type.Union([Type.Literal('frequency'), Type.Literal('recency')]),
  data: Type.Array(GuideItem),
});

export const FillBody = Type.Object({
  counts: Type.Array(Type.Object({ productInternalCode: Code(), onHand: Count('what is on the shelf, in packages of the guide line\'s size') }), { minItems: 1, maxItems: 500 }),
});
export const Fill = Type.Object({
  lines: Type.Array(
    Type.Object({
      productInternalCode: Type.String(),
      units: Type.Integer(),
      quantity: Type.Integer({ description: 'max(par − onHand, 0) rounded up to the case multiple; 0: nothing to order' }),
      par: Type.Integer(),
      onHand: Type.Integer(),
      available: Type.Boolean(),
    }),
    { description: 'one per count of a product of the guide with a par, in the order sent' },
  ),
  skipped: Type.Array(
    Type.Object({
      productInternalCode: Type.String(),
      reason: Type.Union([Type.Literal('NOT_IN_GUIDE'), Type.Literal('NO_PAR')]),
    }),
  ),
});

const RepeatLine = Type.Object({
  productInternalCode: Type.String(),
  name: Nullable(Type.String()),
  units: Type.Integer(),
  quantity: Type.Integer(),
  previousUnitPrice: Type.Number({ description: 'the price the order was placed at' }),
});
export const Repeat = Type.Object({
  orderId: Type.Integer(),
  lines: Type.Array(Type.Object({ ...RepeatLine.properties, unitPrice: Type.Number({ description: "today's price, by the pricing engine" }), priceChanged: Type.Boolean() }), {
    description: 'the lines that can be ordered today: add them to the cart',
  }),
  unavailable: Type.Array(Type.Object({ ...RepeatLine.properties, reason: LineErrorCode }), { description: 'the lines that cannot be ordered today, each with why' }),
  repriced: Type.Array(Type.Object({ ...RepeatLine.properties, unitPrice: Type.Number() }), { description: 'the lines of `lines` whose price changed since the order' }),
});
