// The pricing engine's result as the API answers it: the priced cart (POST
// /app/stores/{storeId}/cart, POST /store/{code}/cart) and, from its discounts and rewards,
// an order's `promotions`. One declaration: pricing.types.ts derives the result's types
// from these schemas (Static), the routes declare them as their answers, and openapi.json
// describes them field by field. Field names are the contract's (those of the pricing
// examples, test/fixtures/pricing-examples.json); README.md states the rules.
import { Type } from 'typebox';
import { Nullable } from '../../lib/schemas.ts';

const ProductSize = Type.Object({ internalCode: Type.String(), units: Type.Integer() });
/** A gift: its product and package size, and its name where the product has one (an added field: the warehouse and the shop say what is given). */
const GiftProduct = Type.Object({ ...ProductSize.properties, name: Type.Optional(Type.String({ description: "the gift's product name" })) });

export const LineErrorCode = Type.Union(
  [
    Type.Literal('UNKNOWN_PRODUCT'),
    Type.Literal('PRODUCT_DISABLED'),
    Type.Literal('NO_PRICE_LIST'),
    Type.Literal('PRICE_LIST_DISABLED'),
    Type.Literal('NOT_PRICED'),
    Type.Literal('UNAVAILABLE'),
  ],
  { description: 'why the line cannot be ordered (the first failing check, src/modules/pricing/README.md)' },
);

/** What every line of the result says: the cart line, merged. */
const lineFields = { productInternalCode: Type.String(), units: Type.Integer(), quantity: Type.Integer() };

export const PricedLineResult = Type.Object({
  ...lineFields,
  unitPrice: Type.Number(),
  subtotal: Type.Number(),
  discount: Type.Number(),
  total: Type.Number(),
});

export const FailedLineResult = Type.Object({ ...lineFields, error: LineErrorCode });

export const LineResult = Type.Union([PricedLineResult, FailedLineResult], { description: 'a priced line, or a line that cannot be ordered with its `error`' });

export const AppliedDiscount = Type.Object({
  promoInternalCode: Type.String(),
  appliedDiscountPercentage: Nullable(Type.Number({ description: "the tier's percentage, or null for a fixed amount" })),
  appliedDiscountAmount: Type.Number({ description: 'the sum of `products[].discountAmount`' }),
  products: Type.Array(Type.Object({ internalCode: Type.String(), units: Type.Integer(), quantity: Type.Integer(), discountAmount: Type.Number() }), {
    description: "the promotion's qualifying lines, in cart order",
  }),
});

export const Reward = Type.Object({
  promoInternalCode: Type.String(),
  quantity: Type.Number({ description: 'packages given' }),
  products: Type.Array(GiftProduct, { description: 'always one product: the gift and its package size' }),
});

export const MinimumMode = Type.Union([Type.Literal('hard'), Type.Literal('soft'), Type.Literal('fee')], {
  description: 'hard: an order below the minimum is refused; soft: it is taken, the cart warns; fee: it is taken and charged `fee`',
});

/** `mode` and `fee` come with a delivery zone's minimum (README.md, "Minimum order"); without one, answers as before zones. */
export const MinimumOrder = Type.Object({
  amount: Type.Number(),
  missing: Type.Number({ description: '`amount` minus this cart and `alreadyOrdered`' }),
  mode: Type.Optional(MinimumMode),
  fee: Type.Optional(Type.Number({ description: 'mode fee: what an order placed now is charged (its `deliveryFee`)' })),
  alreadyOrdered: Type.Optional(
    Type.Number({ description: "the store's other orders for the same delivery date (after discounts, not cancelled), counted with this cart; left out when none" }),
  ),
});

const violated = { productInternalCode: Type.String(), orderedUnits: Type.Integer({ description: "the product's units in the cart: quantity × units over its priced lines" }) };

export const CaseRuleViolation = Type.Union(
  [
    Type.Object({ code: Type.Literal('BELOW_MINIMUM_UNITS'), ...violated, minUnits: Type.Integer({ description: 'the fewest units of the product an order may hold' }) }),
    Type.Object({ code: Type.Literal('ABOVE_MAXIMUM_UNITS'), ...violated, maxUnits: Type.Integer({ description: 'the most units of the product an order may hold' }) }),
    Type.Object({ code: Type.Literal('NOT_A_MULTIPLE'), ...violated, multiple: Type.Integer({ description: 'the product is sold by the case of this many units' }) }),
  ],
  { description: "a product's case rule the cart breaks; placing refuses it with the same code" },
);

export const NextTierHint = Type.Object(
  {
    promoInternalCode: Type.String(),
    measure: Type.Union([Type.Literal('count'), Type.Literal('amount')], { description: '`count` for quantity tiers, `amount` for money tiers (`...Cash`)' }),
    current: Type.Number({ description: 'the measure now (a count that does not end in 4 decimals is rounded down)' }),
    target: Type.Number({ description: 'where the next tier starts' }),
    missing: Type.Number({ description: '`target − current` (a count rounded up at 4 decimals, so adding it is enough)' }),
    packagesToAdd: Type.Optional(
      Type.Array(Type.Object({ internalCode: Type.String(), units: Type.Integer(), quantity: Type.Integer({ description: 'packages of this size' }) }), {
        description:
          '`count` only: for each qualifying line of the cart, how many more packages of its own size reach `target` on their own (`missing` is in the promotion\'s boxes, not in packages); the fewest first, ties by product code, then units',
      }),
    ),
    gives: Type.Union(
      [
        Type.Object({ discountPercentage: Type.Number() }),
        Type.Object({ discountAmount: Type.Number() }),
        Type.Object({ quantity: Type.Number(), product: GiftProduct }),
      ],
      { description: "the next tier's benefit; for a bonus, the total packages given once it is reached" },
    ),
  },
  { description: 'what one more step of a promotion takes and gives' },
);

export const LostConflictHint = Type.Object(
  {
    promoInternalCode: Type.String(),
    discountAmount: Type.Number({ description: 'what it would have given had it been applied' }),
    takenBy: Type.Array(Type.Object({ promoInternalCode: Type.String(), products: Type.Array(ProductSize) }), {
      description: 'the applied promotions holding its lines, by code, each with the lines it holds',
    }),
  },
  { description: 'a discount promotion that qualified but lost its lines to larger ones' },
);

export const GiftRefusal = Type.Union([Type.Literal('UNKNOWN_PRODUCT'), Type.Literal('PRODUCT_DISABLED'), Type.Literal('UNAVAILABLE')]);

export const GiftNotGivenHint = Type.Object(
  { promoInternalCode: Type.String(), quantity: Type.Number(), product: ProductSize, reason: GiftRefusal },
  { description: 'a bonus that was earned but cannot be given' },
);

export const PricingHints = Type.Object(
  { nextTiers: Type.Array(NextTierHint), lostConflicts: Type.Array(LostConflictHint), giftsNotGiven: Type.Array(GiftNotGivenHint) },
  { description: "the preview's additions; each list sorted by `promoInternalCode`" },
);

/** The priced cart: the engine's whole result. */
export const PricedCart = Type.Object(
  {
    lines: Type.Array(LineResult, { description: "the cart's lines after merging, in the cart's order (first occurrence)" }),
    discounts: Type.Array(AppliedDiscount, { description: 'sorted by `promoInternalCode`' }),
    rewards: Type.Array(Reward, { description: 'sorted by `promoInternalCode`' }),
    subtotal: Type.Number(),
    discountTotal: Type.Number(),
    total: Type.Number(),
    minimumOrder: Nullable(Type.Object(MinimumOrder.properties, { description: 'null when there is no minimum or the total reaches it' })),
    violations: Type.Optional(
      Type.Array(CaseRuleViolation, {
        description: 'present when a product of the cart has a case rule (empty: every rule is met); by product code, then BELOW, ABOVE, NOT_A_MULTIPLE',
      }),
    ),
    hints: PricingHints,
  },
  { description: 'the priced cart: lines, discounts, rewards, totals, minimum order and hints (src/modules/pricing/README.md)' },
);

/** An order's pricing as placed: the discounts and rewards of its priced cart. */
export const OrderPricing = Type.Object({ rewards: Type.Array(Reward), discounts: Type.Array(AppliedDiscount) });
