// Exact arithmetic for the engine and what a promotion measures (src/modules/pricing/README.md).
//
// Money: a line's subtotal is computed with decimal.js (price × quantity, rounded to the
// currency once, half away from zero). From there on every amount is a whole number of
// the currency's smallest unit held in a bigint: sums, percentage discounts (rounded once
// per line, as the contract says), the fixed-amount split and the totals are then exact
// integer arithmetic, about ten times faster than decimals, which matters with hundreds of
// promotions per cart. Counts and tier bounds are exact fractions of bigints:
// `quantity × units ÷ boxRatio` with boxRatio 3 or 2.5 does not end in decimals, and
// 1/3 + 2/3 must compare equal to a tier starting at 1.
import { Decimal } from 'decimal.js';
import type { PricingPromotion, PromotionProduct } from './pricing.types.ts';

/** Decimal for money; ROUND_HALF_UP is decimal.js's "half away from zero". */
export const Money = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });

/**
 * A JSON number from a whole number of 10^-places units. IEEE division is correctly
 * rounded, so 334 / 100 is the very double that the literal 3.34 reads as: the result is
 * the exact decimal as JSON writes it (for |minor| < 2^53, far above any cart).
 */
export function minorToNumber(minor: bigint, places: number): number {
  const n = Number(minor) / 10 ** places;
  return n === 0 ? 0 : n;
}

/** a ÷ b rounded to a whole number, half away from zero (b > 0). */
export function divHalfUp(a: bigint, b: bigint): bigint {
  return a >= 0n ? (2n * a + b) / (2n * b) : -((-2n * a + b) / (2n * b));
}

// ---------------------------------------------------------------------------------------
// Ratios: n / d with d > 0, kept in lowest terms.

export interface Ratio {
  readonly n: bigint;
  readonly d: bigint;
}

export const ZERO: Ratio = { n: 0n, d: 1n };

function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function reduced(n: bigint, d: bigint): Ratio {
  if (d === 1n) return { n, d };
  const g = gcd(n, d);
  return g === 1n ? { n, d } : { n: n / g, d: d / g };
}

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * The exact value of a JSON number as JSON writes it (its shortest decimal form: 2.5,
 * 49999.99, 1e-7), so 0.1 is 1/10 and not the binary float's value.
 */
export function ratioOf(value: number): Ratio {
  if (Number.isSafeInteger(value)) return { n: BigInt(value), d: 1n };
  const m = NUMBER.exec(String(value));
  if (m === null) throw new RangeError(`not a finite number: ${value}`);
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = m;
  const shift = Number(exponent) - fraction.length;
  const digits = BigInt(sign + whole + fraction);
  return shift >= 0 ? { n: digits * 10n ** BigInt(shift), d: 1n } : reduced(digits, 10n ** BigInt(-shift));
}

/** A whole number of the currency's smallest unit as a ratio of the currency. */
export const ratioOfMinor = (minor: bigint, scale: bigint): Ratio => reduced(minor, scale);

export function addRatio(a: Ratio, b: Ratio): Ratio {
  if (a.d === b.d) return reduced(a.n + b.n, a.d);
  return reduced(a.n * b.d + b.n * a.d, a.d * b.d);
}

export function subRatio(a: Ratio, b: Ratio): Ratio {
  return addRatio(a, { n: -b.n, d: b.d });
}

/** Negative, zero or positive as a is below, equal to or above b. */
export function cmpRatio(a: Ratio, b: Ratio): number {
  const left = a.n * b.d;
  const right = b.n * a.d;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** floor(a ÷ b) for b > 0. */
export function floorDiv(a: Ratio, b: Ratio): bigint {
  const num = a.n * b.d;
  const den = a.d * b.n;
  const q = num / den;
  return num % den !== 0n && num < 0n ? q - 1n : q;
}

/** The ratio as a JSON number with at most `places` decimals, rounded down or up. */
export function ratioToNumber(r: Ratio, places: number, direction: 'down' | 'up'): number {
  const scaled = r.n * 10n ** BigInt(places);
  let q = scaled / r.d;
  if (scaled % r.d !== 0n) {
    if (scaled < 0n && direction === 'down') q -= 1n;
    if (scaled > 0n && direction === 'up') q += 1n;
  }
  return minorToNumber(q, places);
}

// ---------------------------------------------------------------------------------------
// Lines and participants.

/** A line that has a price; what every promotion rule works on. */
export interface PricedLine {
  /** Position in the merged cart: the output order. */
  readonly position: number;
  /** Position in the canonical order (product code, then units): order-independent ties. */
  rank: number;
  readonly productInternalCode: string;
  readonly units: number;
  readonly quantity: number;
  readonly unitPrice: number;
  /** unitPrice × quantity, rounded to the currency's precision, in its smallest unit. */
  readonly subtotalMinor: bigint;
  /** quantity × units: the units the line holds, for counts. */
  readonly packagedUnits: bigint;
}

/** A promotion that takes part and has at least one qualifying line. */
export interface Participant {
  readonly promo: PricingPromotion;
  /** Its qualifying lines, in cart order. */
  readonly lines: readonly PricedLine[];
  /** Σ quantity × units ÷ boxRatio over its lines, exact. */
  readonly count: Ratio;
  /** Σ of its lines' subtotals, in the currency. */
  readonly amount: Ratio;
  /** The same amount in the smallest unit. */
  readonly amountMinor: bigint;
}

/** The tier with min ≤ measure ≤ max (no max: below the next tier's min; the highest, unbounded); in a gap or below the first, none. */
export function tierFor<T extends { min: number; max?: number | null }>(tiers: readonly T[], measure: Ratio): T | undefined {
  let found: T | undefined;
  for (const tier of tiers) {
    if (cmpRatio(measure, ratioOf(tier.min)) < 0) continue;
    if (tier.max !== undefined && tier.max !== null) {
      if (cmpRatio(measure, ratioOf(tier.max)) > 0) continue;
    } else {
      // Without max, a tier runs up to the next tier's min, excluded; the highest is open.
      const next = nextMin(tiers, tier.min);
      if (next !== undefined && cmpRatio(measure, ratioOf(next)) >= 0) continue;
    }
    // Valid promotions have tiers that never overlap; if they did, the highest min wins
    // so the answer does not depend on the order the tiers were written in.
    if (found === undefined || tier.min > found.min) found = tier;
  }
  return found;
}

/** The lowest min of the tiers above `min`, if any. */
function nextMin(tiers: readonly { min: number }[], min: number): number | undefined {
  let next: number | undefined;
  for (const tier of tiers) if (tier.min > min && (next === undefined || tier.min < next)) next = tier.min;
  return next;
}

/** The tier with the lowest min above the measure: the next one the cart could reach. */
export function nextTier<T extends { min: number }>(tiers: readonly T[], measure: Ratio): T | undefined {
  let found: T | undefined;
  for (const tier of tiers) {
    if (cmpRatio(ratioOf(tier.min), measure) <= 0) continue;
    if (found === undefined || tier.min < found.min) found = tier;
  }
  return found;
}

/** Plain code-unit order (not locale): the same everywhere, for codes of any alphabet. */
export const compareCodes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A promotion's product entries as an array (the API takes an object or an array). */
export function promotionProducts(promo: PricingPromotion): readonly PromotionProduct[] {
  const { products } = promo;
  return Array.isArray(products) ? products : [products as PromotionProduct];
}

/**
 * For a count hint: how many more packages of each qualifying line's own size reach
 * `target` on their own (README.md, "Hints are about the cart"). One package of a line adds
 * `units ÷ boxRatio` to the count, so it takes ⌈(target − count) × boxRatio ÷ units⌉ of
 * them. The fewest first (the fewest taps), ties in the canonical line order (product code,
 * then units), so the cart's order changes nothing.
 */
export function packagesToReach(participant: Participant, target: Ratio): { internalCode: string; units: number; quantity: number }[] {
  const missing = subRatio(target, participant.count);
  if (missing.n <= 0n) return [];
  const entries = promotionProducts(participant.promo);
  const out = participant.lines.flatMap((line) => {
    // The first entry naming the product is the one the count used (participantsOf).
    const box = ratioOf(entries.find((e) => e.internalCode === line.productInternalCode)?.boxRatio ?? 1);
    if (box.n <= 0n || line.units <= 0) return [];
    // ⌈missing × box ÷ units⌉, all positive.
    const num = missing.n * box.n;
    const den = missing.d * box.d * BigInt(line.units);
    return [{ rank: line.rank, add: { internalCode: line.productInternalCode, units: line.units, quantity: Number((num + den - 1n) / den) } }];
  });
  return out.sort((a, b) => a.add.quantity - b.add.quantity || a.rank - b.rank).map((o) => o.add);
}
