// Recommendations' shapes (README.md): the supplier's bodies and answers, and the store's
// read. The schemas check each field on its own; the rules between fields and the
// references to products and groupers are recommendations.rules.ts, so a batch fails only
// the item that breaks them.
import { Type, type Static } from 'typebox';
import { Code, Name, Nullable, Page, PageQuery, SearchQuery, Timestamp, Units } from '../../lib/schemas.ts';
import { LineErrorCode } from '../pricing/pricing.schemas.ts';

const CalendarDate = (description: string) => Type.String({ format: 'calendar-date', description });
const StoredDate = (description: string) => Type.String({ format: 'date', description });
const MAX_PRODUCTS = 200;
const MAX_TARGETS = 1000;

export const RecommendationReason = Type.Union(
  [Type.Literal('NEW'), Type.Literal('PROMOTION'), Type.Literal('MUST_STOCK'), Type.Literal('USUALLY_BOUGHT_TOGETHER')],
  { description: "why the supplier suggests it: a new product, a promotion, a product the store must stock, products usually bought together" },
);

export const RecommendedProduct = Type.Object({
  productInternalCode: Code(),
  units: Units(),
  quantity: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'packages of `units` suggested' }),
});

const FIRST_DAY = 'first day it is shown, YYYY-MM-DD, in the platform timezone';
const LAST_DAY = 'last day it is shown, YYYY-MM-DD, included; on or after start';
const fields = {
  name: Name(),
  reason: RecommendationReason,
  start: CalendarDate(FIRST_DAY),
  end: CalendarDate(LAST_DAY),
  storeInternalCodes: Type.Optional(Type.Array(Code(), { maxItems: MAX_TARGETS, description: 'the stores it is for (a code not loaded yet is kept, as every store link); absent or empty with no grouper: every store' })),
  promotionGrouperCodes: Type.Optional(Type.Array(Code(), { maxItems: MAX_TARGETS, description: "the promotion groupers whose stores it is for; each must exist" })),
  products: Type.Array(RecommendedProduct, { minItems: 1, maxItems: MAX_PRODUCTS }),
};

/** PUT /recommendation/{internalCode}: the code is the path's; the whole recommendation is replaced. */
export const RecommendationBody = Type.Object(fields);
export type RecommendationBody = Static<typeof RecommendationBody>;
export const RecommendationInput = Type.Object({ internalCode: Code(), ...fields });
export type RecommendationInput = Static<typeof RecommendationInput>;

export const RecommendationBatchBody = Type.Object({
  upsert: Type.Optional(Type.Array(RecommendationInput)),
  remove: Type.Optional(Type.Object({ internalCodes: Type.Array(Code()) })),
});

export const Recommendation = Type.Object({
  internalCode: Type.String(),
  name: Type.String(),
  reason: RecommendationReason,
  start: StoredDate(FIRST_DAY),
  end: StoredDate(LAST_DAY),
  storeInternalCodes: Type.Array(Type.String()),
  promotionGrouperCodes: Type.Array(Type.String()),
  products: Type.Array(Type.Required(RecommendedProduct)),
  active: Type.Boolean({ description: 'today (platform timezone) is within start..end' }),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
});
export type Recommendation = Static<typeof Recommendation>;
export const RecommendationPage = Page(Recommendation);

export const RecommendationListQuery = Type.Object({
  ...SearchQuery,
  reason: Type.Optional(RecommendationReason),
  active: Type.Optional(Type.Boolean({ description: 'true: only those shown today; false: only those not shown today' })),
  ...PageQuery,
});

// The store's read: the supplier's recommendations for it today and the platform's cadence suggestion.

export const SuggestedProduct = Type.Object({
  productInternalCode: Type.String(),
  name: Nullable(Type.String({ description: 'null for a code the supplier does not have (any more)' })),
  units: Type.Integer(),
  quantity: Type.Integer(),
  unitPrice: Nullable(Type.Number({ description: "today's price of one package for this store; null when it cannot be ordered" })),
  available: Type.Boolean(),
  unavailableReason: Nullable(LineErrorCode),
  cadence: Type.Optional(
    Type.Object(
      {
        everyDays: Type.Number({ description: 'N: the median number of days between the days it was ordered' }),
        daysSinceLast: Type.Integer(),
        lastOrderedAt: Timestamp(),
      },
      { description: 'a cadence suggestion: why this product is due' },
    ),
  ),
});

export const StoreRecommendation = Type.Object({
  source: Type.Union([Type.Literal('SUPPLIER'), Type.Literal('PLATFORM')], { description: "SUPPLIER: published by the supplier; PLATFORM: computed from the store's own orders" }),
  internalCode: Nullable(Type.String({ description: "the supplier's code; null for the platform's suggestion" })),
  name: Nullable(Type.String({ description: "the supplier's name for it; null for the platform's (the app names it)" })),
  reason: Type.Union([RecommendationReason, Type.Literal('CADENCE')], { description: 'CADENCE: products the store usually buys every N days and has not bought for longer (README)' }),
  start: Nullable(StoredDate(FIRST_DAY)),
  end: Nullable(StoredDate(LAST_DAY)),
  products: Type.Array(SuggestedProduct),
});
export const StoreRecommendations = Type.Object({ data: Type.Array(StoreRecommendation) });
