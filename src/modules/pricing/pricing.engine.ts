// The pricing engine (src/modules/pricing/README.md): one pure function from a store's context, the
// promotions, today's date and the cart to priced lines, discounts, rewards, totals and
// the preview's hints. No I/O, no clock, no database; invariants in README.md.
import { resolveBonuses, type GiftCheck } from './pricing.bonuses.ts';
import { resolveDiscounts, type MoneyContext } from './pricing.discounts.ts';
import { caseRuleViolations, minimumOrderOf, minimumRuleOf } from './pricing.minimums.ts';
import {
  Money,
  ZERO,
  addRatio,
  compareCodes,
  promotionProducts,
  ratioOf,
  minorToNumber,
  ratioOfMinor,
  type Participant,
  type PricedLine,
  type Ratio,
} from './pricing.measure.ts';
import type { CartLine, LineErrorCode, LineResult, PricingInput, PricingPromotion, PricingResult } from './pricing.types.ts';

const keyOf = (productInternalCode: string, units: number) => `${productInternalCode}\u0000${units}`;

/** The store's context, indexed once per call. */
interface Catalog {
  readonly enabled: ReadonlyMap<string, boolean>;
  readonly prices: ReadonlyMap<string, number> | 'NO_PRICE_LIST' | 'PRICE_LIST_DISABLED';
  readonly unavailableProducts: ReadonlySet<string>;
  readonly unavailableSizes: ReadonlySet<string>;
}

function indexCatalog(input: PricingInput): Catalog {
  const enabled = new Map<string, boolean>();
  for (const p of input.products) if (!enabled.has(p.internalCode)) enabled.set(p.internalCode, p.enabled);
  let prices: Catalog['prices'];
  if (typeof input.prices === 'string') {
    prices = input.prices;
  } else {
    const map = new Map<string, number>();
    for (const e of input.prices) {
      const key = keyOf(e.productInternalCode, e.units);
      if (!map.has(key)) map.set(key, e.price);
    }
    prices = map;
  }
  const unavailableProducts = new Set<string>();
  const unavailableSizes = new Set<string>();
  for (const rule of input.unavailable) {
    if (rule.units === undefined || rule.units === null) unavailableProducts.add(rule.productInternalCode);
    else unavailableSizes.add(keyOf(rule.productInternalCode, rule.units));
  }
  return { enabled, prices, unavailableProducts, unavailableSizes };
}

const isUnavailable = (catalog: Catalog, code: string, units: number) =>
  catalog.unavailableProducts.has(code) || catalog.unavailableSizes.has(keyOf(code, units));

/** The first failing check, in the order src/modules/pricing/README.md gives; undefined for a priced line. */
function lineError(catalog: Catalog, line: CartLine): LineErrorCode | undefined {
  const enabled = catalog.enabled.get(line.productInternalCode);
  if (enabled === undefined) return 'UNKNOWN_PRODUCT';
  if (!enabled) return 'PRODUCT_DISABLED';
  if (typeof catalog.prices === 'string') return catalog.prices;
  if (!catalog.prices.has(keyOf(line.productInternalCode, line.units))) return 'NOT_PRICED';
  if (isUnavailable(catalog, line.productInternalCode, line.units)) return 'UNAVAILABLE';
  return undefined;
}

/** Lines with the same product and units become one, at the place of the first. */
function mergeCart(cart: readonly CartLine[]): CartLine[] {
  const merged: CartLine[] = [];
  const at = new Map<string, number>();
  for (const line of cart) {
    const key = keyOf(line.productInternalCode, line.units);
    const index = at.get(key);
    if (index === undefined) {
      at.set(key, merged.length);
      merged.push({ productInternalCode: line.productInternalCode, units: line.units, quantity: line.quantity });
    } else {
      const first = merged[index]!;
      merged[index] = { ...first, quantity: first.quantity + line.quantity };
    }
  }
  return merged;
}

/** Enabled, today within start..end (both included), and visible to the store (src/modules/pricing/README.md). */
function takesPart(promo: PricingPromotion, today: string, visibleGroupers: ReadonlySet<string>): boolean {
  // YYYY-MM-DD strings compare as the dates they name.
  if (!promo.enabled || today < promo.start || today > promo.end) return false;
  const groupers = promo.promotionGrouperCodes;
  if (!groupers || groupers.length === 0) return true;
  return groupers.some((code) => visibleGroupers.has(code));
}

/** The store's promotion groupers that grant visibility: the enabled ones. */
function visibleGroupersOf(input: Pick<PricingInput, 'groupers' | 'store'>): ReadonlySet<string> {
  const enabledGroupers = new Set(input.groupers.filter((g) => g.enabled).map((g) => g.internalCode));
  return new Set(input.store.promotionGrouperCodes.filter((code) => enabledGroupers.has(code)));
}

/** Whether a promotion takes part for the store today (src/modules/pricing/README.md), whatever the cart. */
export function takingPartFor(input: Pick<PricingInput, 'today' | 'groupers' | 'store'>): (promo: PricingPromotion) => boolean {
  const visible = visibleGroupersOf(input);
  return (promo) => takesPart(promo, input.today, visible);
}

/** The promotions that take part for the store today, whatever the cart. */
export function promotionsTakingPart<P extends PricingPromotion>(input: Pick<PricingInput, 'today' | 'groupers' | 'store'> & { promotions: readonly P[] }): P[] {
  return input.promotions.filter(takingPartFor(input));
}

/** The promotions that take part and have qualifying lines, with their count and amount. */
function participantsOf(input: PricingInput, priced: readonly PricedLine[], scaleMinor: bigint): Participant[] {
  const byProduct = new Map<string, PricedLine[]>();
  for (const line of priced) {
    const lines = byProduct.get(line.productInternalCode);
    if (lines === undefined) byProduct.set(line.productInternalCode, [line]);
    else lines.push(line);
  }
  const visibleGroupers = visibleGroupersOf(input);

  const participants: Participant[] = [];
  for (const promo of input.promotions) {
    if (!takesPart(promo, input.today, visibleGroupers)) continue;
    const lines: PricedLine[] = [];
    const seen: string[] = []; // products matched so far (a promotion names a handful)
    let count: Ratio = ZERO;
    let amountMinor = 0n;
    for (const entry of promotionProducts(promo)) {
      const own = byProduct.get(entry.internalCode);
      if (own === undefined || seen.includes(entry.internalCode)) continue;
      seen.push(entry.internalCode);
      const box = ratioOf(entry.boxRatio ?? 1);
      if (box.n <= 0n) continue; // boxRatio > 0 is validated on write; never divide by it otherwise
      let packagedUnits = 0n;
      for (const line of own) {
        lines.push(line);
        packagedUnits += line.packagedUnits;
        amountMinor += line.subtotalMinor;
      }
      count = addRatio(count, { n: packagedUnits * box.d, d: box.n });
    }
    if (lines.length === 0) continue;
    if (seen.length > 1) lines.sort((a, b) => a.position - b.position);
    participants.push({ promo, lines, count, amount: ratioOfMinor(amountMinor, scaleMinor), amountMinor });
  }
  return participants;
}

export function priceCart(input: PricingInput): PricingResult {
  const decimals = input.currencyDecimals ?? 2;
  const scaleMinor = 10n ** BigInt(decimals);
  const money: MoneyContext = { decimals, scale: scaleMinor, hintPlaces: Math.max(4, decimals) };
  const catalog = indexCatalog(input);

  // 1. Lines.
  const merged = mergeCart(input.cart);
  const checked: (PricedLine | LineErrorCode)[] = [];
  const priced: PricedLine[] = [];
  merged.forEach((line, position) => {
    const error = lineError(catalog, line);
    if (error !== undefined) {
      checked.push(error);
      return;
    }
    const unitPrice = (catalog.prices as ReadonlyMap<string, number>).get(keyOf(line.productInternalCode, line.units))!;
    // The one rounding of a line: price × quantity to the currency, half away from zero.
    const subtotal = new Money(unitPrice).times(line.quantity).toDecimalPlaces(decimals, Money.ROUND_HALF_UP);
    const pricedLine: PricedLine = {
      position,
      rank: 0,
      productInternalCode: line.productInternalCode,
      units: line.units,
      quantity: line.quantity,
      unitPrice,
      subtotalMinor: BigInt(subtotal.times(scaleMinor.toString()).toFixed(0)),
      // Whole numbers (the cart's schema checks them); BigInt refuses anything else.
      packagedUnits: BigInt(line.quantity) * BigInt(line.units),
    };
    checked.push(pricedLine);
    priced.push(pricedLine);
  });
  [...priced]
    .sort((a, b) => compareCodes(a.productInternalCode, b.productInternalCode) || a.units - b.units)
    .forEach((line, rank) => (line.rank = rank));

  // 2-5. Promotions.
  const participants = participantsOf(input, priced, scaleMinor);
  const isDiscount = (p: Participant) => p.promo.type === 'DISCOUNT_SIMPLE' || p.promo.type === 'DISCOUNT_MULTIPLE';
  const isBonus = (p: Participant) => p.promo.type === 'BONUS_INDIVIDUAL' || p.promo.type === 'BONUS_CROSSED';
  const discounts = resolveDiscounts(participants.filter(isDiscount), money);
  const checkGift: GiftCheck = (code, units) => {
    const enabled = code === undefined ? undefined : catalog.enabled.get(code);
    if (code === undefined || enabled === undefined) return 'UNKNOWN_PRODUCT';
    if (!enabled) return 'PRODUCT_DISABLED';
    return isUnavailable(catalog, code, units) ? 'UNAVAILABLE' : null;
  };
  // Gifts are named from the input's products, where they carry a name (the service passes them).
  const names = new Map(input.products.flatMap((p) => (p.name ? [[p.internalCode, p.name] as const] : [])));
  const bonuses = resolveBonuses(participants.filter(isBonus), checkGift, money, (code) => names.get(code));

  // 6. Totals and the minimum order.
  const asNumber = (minor: bigint) => minorToNumber(minor, decimals);
  let subtotal = 0n;
  let discountTotal = 0n;
  const lines: LineResult[] = merged.map((line, position) => {
    const result = checked[position]!;
    if (typeof result === 'string') return { ...line, error: result };
    const discount = discounts.lineDiscounts.get(result) ?? 0n;
    subtotal += result.subtotalMinor;
    discountTotal += discount;
    return {
      productInternalCode: line.productInternalCode,
      units: line.units,
      quantity: line.quantity,
      unitPrice: result.unitPrice,
      subtotal: asNumber(result.subtotalMinor),
      discount: asNumber(discount),
      total: asNumber(result.subtotalMinor - discount),
    };
  });
  const total = subtotal - discountTotal;
  const minimumOrder = minimumOrderOf(minimumRuleOf(input), new Money(total.toString()).div(scaleMinor.toString()), input.alreadyOrdered ?? 0);

  // 7. Case rules, over each product's units in its priced lines.
  const pricedUnits = new Map<string, bigint>();
  for (const line of priced) pricedUnits.set(line.productInternalCode, (pricedUnits.get(line.productInternalCode) ?? 0n) + line.packagedUnits);
  const violations = caseRuleViolations(input.products, pricedUnits);

  const byCode = <T extends { promoInternalCode: string }>(a: T, b: T) => compareCodes(a.promoInternalCode, b.promoInternalCode);
  return {
    lines,
    discounts: discounts.applied,
    rewards: bonuses.rewards.sort(byCode),
    subtotal: asNumber(subtotal),
    discountTotal: asNumber(discountTotal),
    total: asNumber(total),
    minimumOrder,
    ...(violations === undefined ? {} : { violations }),
    hints: {
      nextTiers: [...discounts.nextTiers, ...bonuses.nextTiers].sort(byCode),
      lostConflicts: discounts.lostConflicts,
      giftsNotGiven: bonuses.giftsNotGiven.sort(byCode),
    },
  };
}
