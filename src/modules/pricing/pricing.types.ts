// The pricing engine's input and output (src/modules/pricing/README.md). The input is what the service reads
// from the database for one store and one cart; each field is named as in
// pricing-examples.json so an example feeds the engine as it is. Money is a JSON number
// with at most 4 decimals, as the API takes it; the engine never does float arithmetic
// on it (it parses each number into an exact decimal).
import type { Static } from 'typebox';
import type * as promotions from '../promotions/promotions.schemas.ts';
import type * as schemas from './pricing.schemas.ts';


/** A product as pricing sees it. A cart line or gift whose code is not listed is unknown. */
export interface PricingProduct {
  internalCode: string;
  enabled: boolean;
  /** Its name, for naming a gift (rewards, next-tier hints); absent: gifts are named by code only. */
  name?: string | null;
  /** Case rules in units (README.md, "Case rules"); absent or null: no rule. */
  minUnits?: number | null;
  maxUnits?: number | null;
  multiple?: number | null;
}

/** One entry of the store's price list: the price of one package of `units`. */
export interface PriceEntry {
  productInternalCode: string;
  units: number;
  price: number;
}

/**
 * The store's price list: its entries, or why there are none. The two states are the
 * error codes every line then carries.
 */
export type StorePrices = readonly PriceEntry[] | 'NO_PRICE_LIST' | 'PRICE_LIST_DISABLED';

/**
 * An availability rule of the store's stock grouper: the product (no `units`) or only that
 * package size is unavailable. A store in no stock grouper has no rules.
 */
export interface UnavailableRule {
  productInternalCode: string;
  units?: number | null;
}

/** A promotion grouper of the supplier; a disabled one grants no visibility. */
export interface PricingGrouper {
  internalCode: string;
  enabled: boolean;
}

export interface PricingStore {
  /** The promotion groupers the store belongs to. */
  promotionGrouperCodes: readonly string[];
  /** `settings.dropSize`: the store's own minimum order, if any. */
  dropSize?: number | null;
}

// The promotion: the promotions module's declaration (promotions.schemas.ts), as stored
// (StoredPromotion) but taking what its bodies take too: products as an object or an
// array, boxRatio and units left out (default 1), no grouper codes (every store sees it).
// Fields pricing does not read (title, image...) may ride along.
export type StoredPromotion = Static<typeof promotions.StoredPromotion>;
/** Packages-to-boxes ratio for counting: default 1, may be fractional. */
export type PromotionProduct = Static<typeof promotions.PromotionProduct>;
/** A discount tier; `max` absent means no upper bound. Exactly one of the two benefits. */
export type DiscountTier = Static<typeof promotions.DiscountTier>;
type Gift = Partial<Pick<Static<typeof promotions.AnyBonusTier>, 'productInternalCode'>>;
/** Quantity bonus: every `quantityRequired` (count) earns `quantityGiven` packages of `units`; the gift for BONUS_CROSSED. */
export type BonusTier = Static<typeof promotions.BonusTier> & Gift;
/** Amount bonus: once the amount reaches `amountRequired`, `quantityGiven` packages, once per order. */
export type BonusTierCash = Static<typeof promotions.BonusTierCash> & Gift;

export type PricingPromotion = Pick<StoredPromotion, 'type' | 'internalCode' | 'enabled' | 'start' | 'end'> &
  Partial<Pick<StoredPromotion, 'name'>> & {
    /** Absent, null or empty: visible to every store of the supplier. */
    promotionGrouperCodes?: readonly string[] | null;
    /** An object for simple discounts and individual bonuses; an array otherwise (both accepted everywhere). */
    products: PromotionProduct | readonly PromotionProduct[];
    discountTiersData?: readonly DiscountTier[];
    discountTiersDataCash?: readonly DiscountTier[];
    bonusTierData?: BonusTier;
    bonusTierDataCash?: BonusTierCash;
  };

/** A promotion read from the database: both the stored view and the engine's input. */
export type StoredPricingPromotion = StoredPromotion & PricingPromotion;

export type MinimumMode = Static<typeof schemas.MinimumMode>;

/** A delivery zone's minimum order (src/modules/delivery): `fee` only in mode fee. */
export interface ZoneMinimumOrder {
  amount: number;
  mode: MinimumMode;
  fee?: number | null;
}

/** A cart line: a whole number of packages (1 or more) of `units` of a product. */
export interface CartLine {
  productInternalCode: string;
  units: number;
  quantity: number;
}

export interface PricingInput {
  /** Digits of the currency's smallest unit (default 2). */
  currencyDecimals?: number;
  /** Today in the platform's timezone, YYYY-MM-DD; the caller reads the clock. */
  today: string;
  /** At least every product of the cart and every gift; others are harmless. */
  products: readonly PricingProduct[];
  prices: StorePrices;
  /** The rules of the store's stock grouper (empty when it has none). */
  unavailable: readonly UnavailableRule[];
  /** The supplier's promotion groupers (at least those the promotions name). */
  groupers: readonly PricingGrouper[];
  store: PricingStore;
  /** The supplier's global minimum order, if any. */
  supplierMinimumOrder?: number | null;
  /** The minimum of the store's delivery zone, if any: its amount yields to `dropSize`, its mode applies (README.md). */
  zoneMinimumOrder?: ZoneMinimumOrder | null;
  /** The store's other orders for the same delivery date (goods after discounts), counted towards the minimum; default 0. */
  alreadyOrdered?: number;
  promotions: readonly PricingPromotion[];
  cart: readonly CartLine[];
}

// ---------------------------------------------------------------------------------------
// Output: the types of the schemas in pricing.schemas.ts (one declaration; the routes answer
// them and openapi.json describes them). Field names are the contract's (those of the pricing examples, test/fixtures/pricing-examples.json).

export type LineErrorCode = Static<typeof schemas.LineErrorCode>;
export type PricedLineResult = Static<typeof schemas.PricedLineResult>;
export type FailedLineResult = Static<typeof schemas.FailedLineResult>;
export type LineResult = PricedLineResult | FailedLineResult;
export type AppliedDiscount = Static<typeof schemas.AppliedDiscount>;
export type Reward = Static<typeof schemas.Reward>;
export type MinimumOrder = Static<typeof schemas.MinimumOrder>;
export type CaseRuleViolation = Static<typeof schemas.CaseRuleViolation>;
export type NextTierHint = Static<typeof schemas.NextTierHint>;
export type LostConflictHint = Static<typeof schemas.LostConflictHint>;
export type GiftRefusal = Static<typeof schemas.GiftRefusal>;
export type GiftNotGivenHint = Static<typeof schemas.GiftNotGivenHint>;
export type PricingResult = Static<typeof schemas.PricedCart>;
