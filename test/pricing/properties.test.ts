// Properties of the engine over random stores, carts and promotions (fast-check): what
// must hold for every input, not only for the worked examples. Sums are checked with
// exact decimals, never floats.
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priceCart } from '../../src/modules/pricing/pricing.engine.ts';
import type { DiscountTier, PricedLineResult, PricingInput, PricingPromotion, PricingResult } from '../../src/modules/pricing/pricing.types.ts';
import { canonical } from './helpers.ts';

const RUNS = { numRuns: 200 };
const CODES = ['A', 'B', 'C', 'D', 'E', 'F'];
const SIZES = [1, 6, 12];
const TODAY = '2026-03-10';

/** Money with up to `places` decimals. */
const money = (max: number, places = 4) => fc.integer({ min: 0, max: max * 10 ** places }).map((n) => n / 10 ** places);
const positiveMoney = (max: number, places = 2) => fc.integer({ min: 1, max: max * 10 ** places }).map((n) => n / 10 ** places);

const productEntries = fc
  .uniqueArray(fc.constantFrom(...CODES, 'X'), { minLength: 1, maxLength: 4 })
  .chain((codes) => fc.tuple(...codes.map((internalCode) => fc.record({ internalCode: fc.constant(internalCode), boxRatio: fc.constantFrom(1, 1, 1, 2.5, 3, 12) }))));

/** 1 to 3 non-overlapping tiers (possibly with gaps); any may have no max (it then runs up to the next min). */
const tiers = (cash: boolean): fc.Arbitrary<DiscountTier[]> =>
  fc
    .tuple(
      fc.uniqueArray(fc.integer({ min: 0, max: cash ? 3000 : 30 }), { minLength: 2, maxLength: 6 }),
      fc.array(fc.integer({ min: 0, max: 3 }).map((n) => n === 0), { minLength: 3, maxLength: 3 }),
      fc.array(fc.oneof(fc.integer({ min: 1, max: 10000 }).map((n) => ({ discountPercentage: n / 100 })), positiveMoney(300).map((a) => ({ discountAmount: a }))), {
        minLength: 3,
        maxLength: 3,
      }),
    )
    .map(([bounds, openEnded, benefits]) => {
      const sorted = [...bounds].sort((a, b) => a - b);
      const out: DiscountTier[] = [];
      for (let i = 0; i + 1 < sorted.length && out.length < 3; i += 2) {
        out.push({ min: sorted[i]!, max: sorted[i + 1]!, ...benefits[out.length]! });
      }
      out.forEach((tier, i) => {
        if (openEnded[i]) delete tier.max;
      });
      return out;
    });

const window = fc.record({
  // Mostly taking part, so that most runs exercise the rules that follow the enabled check.
  enabled: fc.integer({ min: 0, max: 9 }).map((n) => n > 0),
  start: fc.constantFrom('2026-03-01', '2026-03-01', '2026-03-01', TODAY, '2026-03-11'),
  end: fc.constantFrom('2026-03-31', '2026-03-31', '2026-03-31', TODAY, '2026-03-09'),
  promotionGrouperCodes: fc.constantFrom<string[] | undefined>(undefined, undefined, [], ['G-ON'], ['G-OFF'], ['G-OTHER', 'G-ON']),
});

const promotion: fc.Arbitrary<Omit<PricingPromotion, 'internalCode'>> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ window, products: productEntries, cash: fc.boolean() }).chain(({ window: w, products, cash }) =>
    tiers(cash).map((t) => ({
      ...w,
      type: products.length === 1 ? ('DISCOUNT_SIMPLE' as const) : ('DISCOUNT_MULTIPLE' as const),
      products,
      ...(cash ? { discountTiersDataCash: t } : { discountTiersData: t }),
    })),
  ) },
  fc.record({ window, products: productEntries, required: fc.integer({ min: 1, max: 10 }), given: fc.integer({ min: 1, max: 3 }), units: fc.constantFrom(...SIZES) }).map(
    ({ window: w, products, required, given, units }) => ({
      ...w,
      type: 'BONUS_INDIVIDUAL' as const,
      products: products[0]!,
      bonusTierData: { quantityRequired: required, quantityGiven: given, units },
    }),
  ),
  fc
    .record({
      window,
      products: productEntries,
      gift: fc.constantFrom(...CODES, 'X'),
      byAmount: fc.boolean(),
      required: fc.integer({ min: 1, max: 10 }),
      amount: positiveMoney(2000),
    })
    .map(({ window: w, products, gift, byAmount, required, amount }) => ({
      ...w,
      type: 'BONUS_CROSSED' as const,
      products,
      ...(byAmount
        ? { bonusTierDataCash: { amountRequired: amount, quantityGiven: 1, units: 1, productInternalCode: gift } }
        : { bonusTierData: { quantityRequired: required, quantityGiven: 2, units: 1, productInternalCode: gift } }),
    })),
);

const input: fc.Arbitrary<PricingInput> = fc
  .record({
    disabledIndex: fc.integer({ min: -CODES.length, max: CODES.length - 1 }),
    // Half the prices from a small set, so equal subtotals (largest-remainder ties) are common.
    prices: fc.array(fc.option(fc.oneof(money(500), fc.constantFrom(1, 5, 3.33, 10)), { freq: 12 }), { minLength: CODES.length * SIZES.length, maxLength: CODES.length * SIZES.length }),
    unavailable: fc.uniqueArray(fc.record({ productInternalCode: fc.constantFrom(...CODES), units: fc.constantFrom<number | undefined>(undefined, ...SIZES) }), {
      maxLength: 1,
      selector: (r) => `${r.productInternalCode}/${r.units}`,
    }),
    promotions: fc.uniqueArray(fc.tuple(fc.stringMatching(/^[A-Z][A-Z0-9]{0,3}$/), promotion), { minLength: 1, maxLength: 10, selector: ([code]) => code }),
    cart: fc.array(fc.record({ productInternalCode: fc.constantFrom(...CODES, ...CODES, 'X'), units: fc.constantFrom(...SIZES), quantity: fc.integer({ min: 1, max: 20 }) }), {
      minLength: 1,
      maxLength: 14,
    }),
    dropSize: fc.option(money(5000), { freq: 2 }),
  })
  .map((g) => ({
    currencyDecimals: 2,
    today: TODAY,
    products: CODES.map((internalCode, i) => ({ internalCode, enabled: i !== g.disabledIndex })),
    prices: CODES.flatMap((productInternalCode, i) =>
      SIZES.flatMap((units, j) => {
        const price = g.prices[i * SIZES.length + j];
        return price === null || price === undefined ? [] : [{ productInternalCode, units, price }];
      }),
    ),
    unavailable: g.unavailable,
    groupers: [
      { internalCode: 'G-ON', enabled: true },
      { internalCode: 'G-OFF', enabled: false },
      { internalCode: 'G-OTHER', enabled: true },
    ],
    store: { promotionGrouperCodes: ['G-ON', 'G-OFF'], dropSize: g.dropSize },
    supplierMinimumOrder: null,
    promotions: g.promotions.map(([internalCode, p]) => ({ ...p, internalCode })),
    cart: g.cart,
  }));

const sum = (values: number[]) => values.reduce((s, v) => s.plus(v), new Decimal(0));
const pricedLines = (result: PricingResult) => result.lines.filter((l): l is PricedLineResult => 'total' in l);
const lineKey = (code: string, units: number) => `${code}/${units}`;

/** A deterministic permutation from a seed (the property varies the seed). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('pricing properties', () => {
  it("a promotion's line discounts add up exactly to its appliedDiscountAmount, and each line has at most one", () => {
    fc.assert(
      fc.property(input, (cart) => {
        const result = priceCart(cart);
        const lineDiscount = new Map(pricedLines(result).map((l) => [lineKey(l.productInternalCode, l.units), l.discount]));
        const seen = new Set<string>();
        for (const d of result.discounts) {
          expect(sum(d.products.map((p) => p.discountAmount)).equals(d.appliedDiscountAmount)).toBe(true);
          for (const p of d.products) {
            const key = lineKey(p.internalCode, p.units);
            expect(seen.has(key)).toBe(false);
            seen.add(key);
            expect(lineDiscount.get(key)).toBe(p.discountAmount);
          }
        }
        for (const [key, discount] of lineDiscount) if (!seen.has(key)) expect(discount).toBe(0);
        expect(sum(result.discounts.map((d) => d.appliedDiscountAmount)).equals(result.discountTotal)).toBe(true);
      }),
      RUNS,
    );
  });

  it('never takes a line below 0, nor gives a negative discount', () => {
    fc.assert(
      fc.property(input, (cart) => {
        for (const l of pricedLines(priceCart(cart))) {
          expect(l.discount).toBeGreaterThanOrEqual(0);
          expect(l.total).toBeGreaterThanOrEqual(0);
          expect(new Decimal(l.subtotal).minus(l.discount).equals(l.total)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('gives the same result for the lines and the promotions in any order', () => {
    fc.assert(
      fc.property(input, fc.integer(), fc.integer(), (cart, a, b) => {
        const reordered = { ...cart, cart: shuffled(cart.cart, a), promotions: shuffled(cart.promotions, b) };
        expect(canonical(priceCart(reordered))).toEqual(canonical(priceCart(cart)));
      }),
      RUNS,
    );
  });

  it('splits a fixed amount the same way whatever the order of the lines (ties included)', () => {
    // Equal subtotals make equal remainders: the tie-break alone decides who gets a unit.
    const split = fc.record({
      prices: fc.array(fc.constantFrom(1, 2, 5), { minLength: CODES.length, maxLength: CODES.length }),
      cart: fc.uniqueArray(fc.record({ productInternalCode: fc.constantFrom(...CODES), units: fc.constant(1), quantity: fc.constantFrom(1, 2) }), {
        minLength: 2,
        maxLength: CODES.length,
        selector: (l) => l.productInternalCode,
      }),
      amount: fc.integer({ min: 1, max: 2000 }).map((n) => n / 100),
      seed: fc.integer(),
    });
    fc.assert(
      fc.property(split, ({ prices, cart, amount, seed }) => {
        const context: PricingInput = {
          today: TODAY,
          products: CODES.map((internalCode) => ({ internalCode, enabled: true })),
          prices: CODES.map((productInternalCode, i) => ({ productInternalCode, units: 1, price: prices[i]! })),
          unavailable: [],
          groupers: [],
          store: { promotionGrouperCodes: [] },
          promotions: [
            { type: 'DISCOUNT_MULTIPLE', internalCode: 'M', enabled: true, start: TODAY, end: TODAY, products: CODES.map((internalCode) => ({ internalCode })), discountTiersData: [{ min: 1, discountAmount: amount }] },
          ],
          cart,
        };
        expect(canonical(priceCart({ ...context, cart: shuffled(cart, seed) }))).toEqual(canonical(priceCart(context)));
      }),
      RUNS,
    );
  });

  it('never discounts a fixed amount beyond the qualifying subtotal or the tier amount', () => {
    fc.assert(
      fc.property(input, (cart) => {
        const result = priceCart(cart);
        const subtotal = new Map(pricedLines(result).map((l) => [lineKey(l.productInternalCode, l.units), l.subtotal]));
        for (const d of result.discounts.filter((x) => x.appliedDiscountPercentage === null)) {
          const qualifying = sum(d.products.map((p) => subtotal.get(lineKey(p.internalCode, p.units))!));
          expect(new Decimal(d.appliedDiscountAmount).lessThanOrEqualTo(qualifying)).toBe(true);
          const promo = cart.promotions.find((p) => p.internalCode === d.promoInternalCode)!;
          const amounts = [...(promo.discountTiersData ?? []), ...(promo.discountTiersDataCash ?? [])].map((t) => t.discountAmount ?? 0);
          const largest = Decimal.max(...amounts).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
          expect(new Decimal(d.appliedDiscountAmount).lessThanOrEqualTo(largest)).toBe(true);
          for (const p of d.products) expect(p.discountAmount).toBeLessThanOrEqual(subtotal.get(lineKey(p.internalCode, p.units))!);
        }
      }),
      RUNS,
    );
  });

  it('has total = subtotal − discountTotal, subtotal the sum of the priced lines', () => {
    fc.assert(
      fc.property(input, (cart) => {
        const result = priceCart(cart);
        const lines = pricedLines(result);
        expect(sum(lines.map((l) => l.subtotal)).equals(result.subtotal)).toBe(true);
        expect(sum(lines.map((l) => l.discount)).equals(result.discountTotal)).toBe(true);
        expect(new Decimal(result.subtotal).minus(result.discountTotal).equals(result.total)).toBe(true);
        if (result.minimumOrder !== null) {
          expect(new Decimal(result.total).plus(result.minimumOrder.missing).equals(result.minimumOrder.amount)).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('is not changed by bonuses: removing them changes no line, discount or total', () => {
    fc.assert(
      fc.property(input, (cart) => {
        const { rewards: _r, hints: _h, ...withBonuses } = priceCart(cart);
        const { rewards, hints: _h2, ...without } = priceCart({ ...cart, promotions: cart.promotions.filter((p) => p.type.startsWith('DISCOUNT')) });
        expect(rewards).toEqual([]);
        expect(without).toEqual(withBonuses);
      }),
      RUNS,
    );
  });
});
