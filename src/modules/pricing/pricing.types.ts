// The pricing engine's input and output (pricing.md). The input is what the service reads
// from the database for one store and one cart; each field is named as in
// pricing-examples.json so an example feeds the engine as it is. Money is a JSON number
// with at most 4 decimals, as the API takes it; the engine never does float arithmetic
// on it (it parses each number into an exact decimal).

export type PromotionType = 'DISCOUNT_SIMPLE' | 'DISCOUNT_MULTIPLE' | 'BONUS_INDIVIDUAL' | 'BONUS_CROSSED';

/** A product as pricing sees it. A cart line or gift whose code is not listed is unknown. */
export interface PricingProduct {
  internalCode: string;
  enabled: boolean;
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

export interface PromotionProduct {
  internalCode: string;
  /** Packages-to-boxes ratio for counting (default 1, may be fractional). */
  boxRatio?: number | null;
}

/** A discount tier; `max` absent means no upper bound. Exactly one of the two benefits. */
export interface DiscountTier {
  min: number;
  max?: number | null;
  discountPercentage?: number | null;
  discountAmount?: number | null;
}

/** Quantity bonus: every `quantityRequired` (count) earns `quantityGiven` packages of `units`. */
export interface BonusTier {
  quantityRequired: number;
  quantityGiven: number;
  units?: number | null;
  /** The gift, for BONUS_CROSSED. */
  productInternalCode?: string | null;
}

/** Amount bonus: once the amount reaches `amountRequired`, `quantityGiven` packages, once per order. */
export interface BonusTierCash {
  amountRequired: number;
  quantityGiven: number;
  units?: number | null;
  /** The gift, for BONUS_CROSSED. */
  productInternalCode?: string | null;
}

/** A promotion as the API takes it, plus `type`. Fields pricing does not read (title, image...) may ride along. */
export interface PricingPromotion {
  type: PromotionType;
  internalCode: string;
  name?: string;
  enabled: boolean;
  /** YYYY-MM-DD, included. */
  start: string;
  /** YYYY-MM-DD, included. */
  end: string;
  /** Absent, null or empty: visible to every store of the supplier. */
  promotionGrouperCodes?: readonly string[] | null;
  /** An object for simple discounts and individual bonuses; an array otherwise (both accepted everywhere). */
  products: PromotionProduct | readonly PromotionProduct[];
  discountTiersData?: readonly DiscountTier[] | null;
  discountTiersDataCash?: readonly DiscountTier[] | null;
  bonusTierData?: BonusTier | null;
  bonusTierDataCash?: BonusTierCash | null;
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
  promotions: readonly PricingPromotion[];
  cart: readonly CartLine[];
}

// ---------------------------------------------------------------------------------------
// Output. Field names are the contract's (pricing.md, "Examples file").

export type LineErrorCode =
  | 'UNKNOWN_PRODUCT'
  | 'PRODUCT_DISABLED'
  | 'NO_PRICE_LIST'
  | 'PRICE_LIST_DISABLED'
  | 'NOT_PRICED'
  | 'UNAVAILABLE';

export interface PricedLineResult {
  productInternalCode: string;
  units: number;
  quantity: number;
  unitPrice: number;
  subtotal: number;
  discount: number;
  total: number;
}

export interface FailedLineResult {
  productInternalCode: string;
  units: number;
  quantity: number;
  error: LineErrorCode;
}

export type LineResult = PricedLineResult | FailedLineResult;

export interface AppliedDiscount {
  promoInternalCode: string;
  /** The tier's percentage, or null for a fixed amount. */
  appliedDiscountPercentage: number | null;
  /** The sum of `products[].discountAmount`. */
  appliedDiscountAmount: number;
  /** The promotion's qualifying lines, in cart order. */
  products: { internalCode: string; units: number; quantity: number; discountAmount: number }[];
}

export interface Reward {
  promoInternalCode: string;
  /** Packages given. */
  quantity: number;
  /** Always one product: the gift and its package size. */
  products: { internalCode: string; units: number }[];
}

export interface MinimumOrder {
  amount: number;
  missing: number;
}

/** What one more step of a promotion takes and gives (pricing.md §7). */
export interface NextTierHint {
  promoInternalCode: string;
  /** `count` for quantity tiers, `amount` for money tiers (`...Cash`). */
  measure: 'count' | 'amount';
  /** The measure now (a count that does not end in 4 decimals is rounded down). */
  current: number;
  /** Where the next tier starts. */
  target: number;
  /** `target − current` (a count rounded up at 4 decimals, so adding it is enough). */
  missing: number;
  /** The next tier's benefit; for a bonus, the total packages given once it is reached. */
  gives:
    | { discountPercentage: number }
    | { discountAmount: number }
    | { quantity: number; product: { internalCode: string; units: number } };
}

/** A discount promotion that qualified but lost its lines to larger ones (pricing.md §4). */
export interface LostConflictHint {
  promoInternalCode: string;
  /** What it would have given had it been applied. */
  discountAmount: number;
  /** The applied promotions holding its lines, by code, each with the lines it holds. */
  takenBy: { promoInternalCode: string; products: { internalCode: string; units: number }[] }[];
}

export type GiftRefusal = 'UNKNOWN_PRODUCT' | 'PRODUCT_DISABLED' | 'UNAVAILABLE';

/** A bonus that was earned but cannot be given (pricing.md §5). */
export interface GiftNotGivenHint {
  promoInternalCode: string;
  quantity: number;
  product: { internalCode: string; units: number };
  reason: GiftRefusal;
}

/** The preview's additions; each list sorted by `promoInternalCode`. */
export interface PricingHints {
  nextTiers: NextTierHint[];
  lostConflicts: LostConflictHint[];
  giftsNotGiven: GiftNotGivenHint[];
}

export interface PricingResult {
  /** The cart's lines after merging, in the cart's order (first occurrence). */
  lines: LineResult[];
  /** Sorted by `promoInternalCode`. */
  discounts: AppliedDiscount[];
  /** Sorted by `promoInternalCode`. */
  rewards: Reward[];
  subtotal: number;
  discountTotal: number;
  total: number;
  /** Null when there is no minimum or the total reaches it. */
  minimumOrder: MinimumOrder | null;
  hints: PricingHints;
}
