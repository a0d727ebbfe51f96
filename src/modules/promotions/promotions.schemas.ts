// Promotion bodies (openapi.json; rules in this module's README). The schemas check each field on its own
// (types, formats, ranges); the rules between fields and the references to products and
// groupers live in promotions.rules.ts, so a batch fails only the item that breaks them.
import { Type } from 'typebox';
import { Code, Description, MAX_MONEY, Name, Nullable, Page, PageQuery, SearchQuery, Timestamp, Url } from '../../lib/schemas.ts';
import { ImageFields } from '../images/images.schemas.ts';

const MAX_TIERS = 100;
const MAX_PRODUCTS = 5_000;

const CalendarDate = (description: string) => Type.String({ format: 'calendar-date', description });
/** A count (packages × units ÷ boxRatio, may be fractional) or money: exact, at most 4 decimals. */
const Bound = (description: string) => Type.Number({ minimum: 0, maximum: MAX_MONEY, 'x-maxDecimals': 4, description } as never);
const PositiveMoney = (description: string) => Type.Number({ exclusiveMinimum: 0, maximum: MAX_MONEY, 'x-maxDecimals': 4, description } as never);
const Whole = (description: string) => Type.Integer({ minimum: 1, maximum: 1_000_000, description });

export const PromotionProduct = Type.Object({
  internalCode: Code(),
  boxRatio: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, 'x-maxDecimals': 4, description: 'packages-to-boxes ratio for counting; default 1' } as never)),
});

/** Simple discounts and individual bonuses name one product: an object, or a one-item array. */
const OneProduct = Type.Union([PromotionProduct, Type.Array(PromotionProduct, { minItems: 1, maxItems: 1 })], {
  description: 'the product: an object (a one-item array is also accepted)',
});
const Products = (description: string) => Type.Array(PromotionProduct, { minItems: 1, maxItems: MAX_PRODUCTS, description });

const tierFields = (measure: string) => ({
  min: Bound(`lowest ${measure} of the tier, included`),
  max: Type.Optional(Bound(`highest ${measure} of the tier, included; without it the tier runs up to the next tier's min (excluded), or without bound for the highest`)),
  discountPercentage: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 100, 'x-maxDecimals': 4 } as never)),
  discountAmount: Type.Optional(PositiveMoney('a fixed discount, split over the qualifying lines')),
});
export const DiscountTier = Type.Object(tierFields('count (packages × units ÷ boxRatio)'), {
  description: 'exactly one of discountPercentage and discountAmount',
});
export const CashDiscountTier = Type.Object(tierFields('amount spent on the promotion products'), {
  description: 'exactly one of discountPercentage and discountAmount',
});
const Tiers = <T extends typeof DiscountTier>(tier: T) => Type.Array(tier, { minItems: 1, maxItems: MAX_TIERS });

const bonusFields = {
  quantityGiven: Whole('packages given each time the bonus is earned'),
  units: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'package size of the gift; default 1' })),
};
const Gift = Code({ description: 'the product given' });
export const BonusTier = Type.Object({ quantityRequired: Whole('count that earns the bonus once'), ...bonusFields });
export const BonusTierCash = Type.Object({ amountRequired: PositiveMoney('amount that earns the bonus, once per order'), ...bonusFields });
const CrossedBonusTier = Type.Object({ ...BonusTier.properties, productInternalCode: Gift });
const CrossedBonusTierCash = Type.Object({ ...BonusTierCash.properties, productInternalCode: Gift });
/** A bonus tier of any type (the four above merged): what the rules read. */
export const AnyBonusTier = Type.Evaluate(
  Type.Intersect([
    Type.Partial(Type.Pick(BonusTier, ['quantityRequired'])),
    Type.Partial(Type.Pick(BonusTierCash, ['amountRequired'])),
    Type.Pick(BonusTier, ['quantityGiven', 'units']),
    Type.Partial(Type.Pick(CrossedBonusTier, ['productInternalCode'])),
  ]),
);
/** A bonus tier as stored and answered: `units` filled in (default 1). */
export const StoredBonusTier = Type.Object({ ...AnyBonusTier.properties, units: Type.Required(Type.Pick(BonusTier, ['units'])).properties.units });

const FIRST_DAY = 'first day, YYYY-MM-DD, in the platform timezone';
const LAST_DAY = 'last day, YYYY-MM-DD, included; later than start';
const common = {
  internalCode: Code(),
  name: Name(),
  title: Type.Optional(Nullable(Name())),
  description: Type.Optional(Nullable(Description())),
  image: Type.Optional(Nullable(Url())),
  enabled: Type.Boolean(),
  start: CalendarDate(FIRST_DAY),
  end: CalendarDate(LAST_DAY),
  promotionGrouperCodes: Type.Optional(
    Type.Array(Code(), { maxItems: 1000, description: 'replaces the set when sent; absent on an update keeps it; empty: every store sees it' }),
  ),
};
const oneOf = (a: string, b: string) => `exactly one of ${a} and ${b}`;

export const SimpleDiscountBody = Type.Object(
  { ...common, products: OneProduct, discountTiersData: Type.Optional(Tiers(DiscountTier)), discountTiersDataCash: Type.Optional(Tiers(CashDiscountTier)) },
  { description: oneOf('discountTiersData', 'discountTiersDataCash') },
);
export const MultipleDiscountBody = Type.Object(
  {
    ...common,
    products: Products('the products whose lines count together'),
    discountTiersData: Type.Optional(Tiers(DiscountTier)),
    discountTiersDataCash: Type.Optional(Tiers(CashDiscountTier)),
  },
  { description: oneOf('discountTiersData', 'discountTiersDataCash') },
);
export const IndividualBonusBody = Type.Object(
  { ...common, products: OneProduct, bonusTierData: Type.Optional(BonusTier), bonusTierDataCash: Type.Optional(BonusTierCash) },
  { description: `${oneOf('bonusTierData', 'bonusTierDataCash')}; the gift is the product itself` },
);
export const CrossedBonusBody = Type.Object(
  {
    ...common,
    products: Products('the products that trigger the bonus'),
    bonusTierData: Type.Optional(CrossedBonusTier),
    bonusTierDataCash: Type.Optional(CrossedBonusTierCash),
  },
  { description: oneOf('bonusTierData', 'bonusTierDataCash') },
);

/** A body of any type (the four above merged): what the rules and the writer read. */
export const AnyPromotionBody = Type.Object({
  ...common,
  products: Type.Union([OneProduct, Products('the products')]),
  discountTiersData: Type.Optional(Tiers(DiscountTier)),
  discountTiersDataCash: Type.Optional(Tiers(CashDiscountTier)),
  bonusTierData: Type.Optional(AnyBonusTier),
  bonusTierDataCash: Type.Optional(AnyBonusTier),
});

export const PromotionStatusBody = Type.Object({ enabled: Type.Boolean() });

const batchOf = <T extends typeof SimpleDiscountBody | typeof MultipleDiscountBody | typeof IndividualBonusBody | typeof CrossedBonusBody>(body: T) =>
  Type.Optional(Type.Array(body));
export const PromotionBatchBody = Type.Object({
  upsert: Type.Optional(
    Type.Object({
      discount: Type.Optional(Type.Object({ simple: batchOf(SimpleDiscountBody), multiple: batchOf(MultipleDiscountBody) })),
      bonus: Type.Optional(Type.Object({ individual: batchOf(IndividualBonusBody), crossed: batchOf(CrossedBonusBody) })),
    }),
  ),
  remove: Type.Optional(Type.Object({ internalCodes: Type.Array(Code()) })),
});

export const PromotionType = Type.Union([Type.Literal('DISCOUNT_SIMPLE'), Type.Literal('DISCOUNT_MULTIPLE'), Type.Literal('BONUS_INDIVIDUAL'), Type.Literal('BONUS_CROSSED')]);

export const PromotionListQuery = Type.Object({
  ...SearchQuery,
  type: Type.Optional(PromotionType),
  enabled: Type.Optional(Type.Boolean()),
  from: Type.Optional(CalendarDate('keep promotions running on or after this day')),
  to: Type.Optional(CalendarDate('keep promotions running on or before this day')),
  ...PageQuery,
});

/**
 * A promotion as stored (the base of the views): the body's fields the pricing reads, with
 * its `type`, every product with its boxRatio, and its one tier field. The pricing input
 * (pricing.types.ts), the answer below and the store app's views derive from it.
 */
export const StoredPromotion = Type.Object({
  type: PromotionType,
  ...Type.Pick(AnyPromotionBody, ['internalCode', 'name', 'enabled']).properties,
  // Stored and answered as a date (the body's `calendar-date` is a check on what is written).
  start: Type.String({ format: 'date', description: FIRST_DAY }),
  end: Type.String({ format: 'date', description: LAST_DAY }),
  promotionGrouperCodes: Type.Required(Type.Pick(AnyPromotionBody, ['promotionGrouperCodes'])).properties.promotionGrouperCodes,
  products: Type.Array(Type.Required(PromotionProduct)),
  discountTiersData: Type.Optional(Type.Array(DiscountTier)),
  discountTiersDataCash: Type.Optional(Type.Array(CashDiscountTier)),
  bonusTierData: Type.Optional(StoredBonusTier),
  bonusTierDataCash: Type.Optional(StoredBonusTier),
});
const stored = StoredPromotion.properties;
const tiers = { discountTiersData: stored.discountTiersData, discountTiersDataCash: stored.discountTiersDataCash, bonusTierData: stored.bonusTierData, bonusTierDataCash: stored.bonusTierDataCash };

/** The answer: the stored promotion with its texts, image, state and times, in this order. */
export const Promotion = Type.Object({
  internalCode: stored.internalCode,
  name: stored.name,
  ...Type.Required(Type.Pick(AnyPromotionBody, ['title', 'description', 'image'])).properties,
  ...ImageFields,
  enabled: stored.enabled,
  start: stored.start,
  end: stored.end,
  type: stored.type,
  products: stored.products,
  ...tiers,
  promotionGrouperCodes: stored.promotionGrouperCodes,
  active: Type.Boolean({ description: 'enabled, and today (platform timezone) is within start..end' }),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
});
export const PromotionPage = Page(Promotion);

/** A promotion as the store app's catalog names it: its code, name, type and tier field. */
export const PromotionRef = Type.Object({ internalCode: stored.internalCode, name: stored.name, type: stored.type, ...tiers });
