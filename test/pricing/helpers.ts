// Small builders for pricing tests: a store context where every named product exists,
// is enabled and has a price, so each test states only what it is about.
import type { DiscountTier, PricingInput, PricingPromotion, PricingResult, PromotionProduct } from '../../src/modules/pricing/pricing.types.ts';

export const TODAY = '2026-03-10';

/** A context with these products (code → price of one package of 1 unit) and nothing else. */
export function context(prices: Record<string, number>, overrides: Partial<PricingInput> = {}): PricingInput {
  const codes = Object.keys(prices);
  return {
    currencyDecimals: 2,
    today: TODAY,
    products: codes.map((internalCode) => ({ internalCode, enabled: true })),
    prices: codes.map((productInternalCode) => ({ productInternalCode, units: 1, price: prices[productInternalCode]! })),
    unavailable: [],
    groupers: [],
    store: { promotionGrouperCodes: [], dropSize: null },
    supplierMinimumOrder: null,
    promotions: [],
    cart: [],
    ...overrides,
  };
}

/** Adds the price of another package size to a context built by `context`. */
export function withPrice(input: PricingInput, productInternalCode: string, units: number, price: number): void {
  if (typeof input.prices === 'string') throw new Error('the context has no price list');
  input.prices = [...input.prices, { productInternalCode, units, price }];
}

const window = { enabled: true, start: '2026-03-01', end: '2026-03-31' };
const entries = (products: string | (string | PromotionProduct)[]) =>
  (typeof products === 'string' ? [products] : products).map((p) => (typeof p === 'string' ? { internalCode: p } : p));

/** A discount over quantity tiers (or amount tiers with `cash`). */
export function discount(
  internalCode: string,
  products: string | (string | PromotionProduct)[],
  tiers: DiscountTier[],
  extra: Partial<PricingPromotion> & { cash?: boolean } = {},
): PricingPromotion {
  const { cash, ...rest } = extra;
  const list = entries(products);
  return {
    ...window,
    type: list.length === 1 ? 'DISCOUNT_SIMPLE' : 'DISCOUNT_MULTIPLE',
    internalCode,
    products: list,
    ...(cash ? { discountTiersDataCash: tiers } : { discountTiersData: tiers }),
    ...rest,
  };
}

export function individualBonus(internalCode: string, product: string | PromotionProduct, quantityRequired: number, quantityGiven = 1, units = 1): PricingPromotion {
  return { ...window, type: 'BONUS_INDIVIDUAL', internalCode, products: entries([product])[0]!, bonusTierData: { quantityRequired, quantityGiven, units } };
}

export function crossedBonus(
  internalCode: string,
  products: string[],
  gift: string,
  tier: { quantityRequired: number } | { amountRequired: number },
  quantityGiven = 1,
  units = 1,
): PricingPromotion {
  const common = { quantityGiven, units, productInternalCode: gift };
  return {
    ...window,
    type: 'BONUS_CROSSED',
    internalCode,
    products: entries(products),
    ...('quantityRequired' in tier ? { bonusTierData: { ...tier, ...common } } : { bonusTierDataCash: { ...tier, ...common } }),
  };
}

export const line = (productInternalCode: string, quantity: number, units = 1) => ({ productInternalCode, units, quantity });

/** The result with lines and every list of lines in canonical order (product code, then units). */
export function canonical(result: PricingResult): PricingResult {
  const byLine = <T extends { units: number }>(code: (x: T) => string) => (a: T, b: T) =>
    code(a) < code(b) ? -1 : code(a) > code(b) ? 1 : a.units - b.units;
  return {
    ...result,
    lines: [...result.lines].sort(byLine((l) => l.productInternalCode)),
    discounts: result.discounts.map((d) => ({ ...d, products: [...d.products].sort(byLine((p) => p.internalCode)) })),
    hints: {
      ...result.hints,
      lostConflicts: result.hints.lostConflicts.map((h) => ({
        ...h,
        takenBy: h.takenBy.map((t) => ({ ...t, products: [...t.products].sort(byLine((p) => p.internalCode)) })),
      })),
    },
  };
}
