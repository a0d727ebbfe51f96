// The engine's edge cases that the contract's worked examples do not show.
import { describe, expect, it } from 'vitest';
import { priceCart } from '../../src/modules/pricing/pricing.engine.ts';
import type { PricedLineResult, PricingInput } from '../../src/modules/pricing/pricing.types.ts';
import { canonical, context, crossedBonus, discount, individualBonus, line, withPrice } from './helpers.ts';

const priced = (input: PricingInput) => {
  const result = priceCart(input);
  return { ...result, priced: result.lines.filter((l): l is PricedLineResult => 'total' in l) };
};

describe('lines', () => {
  it('merges lines of the same product and units at the first one, and keeps other sizes apart', () => {
    const input = context({ A: 10, B: 5 }, { cart: [line('A', 2), line('B', 1), line('A', 3), line('A', 1, 12)] });
    withPrice(input, 'A', 12, 100);
    const { lines } = priceCart(input);
    expect(lines.map((l) => [l.productInternalCode, l.units, l.quantity])).toEqual([
      ['A', 1, 5],
      ['B', 1, 1],
      ['A', 12, 1],
    ]);
  });

  it('fails every line when the store has no price list, or it is disabled', () => {
    for (const state of ['NO_PRICE_LIST', 'PRICE_LIST_DISABLED'] as const) {
      const result = priceCart(context({ A: 10, B: 5 }, { prices: state, cart: [line('A', 1), line('B', 2)] }));
      expect(result.lines).toEqual([
        { productInternalCode: 'A', units: 1, quantity: 1, error: state },
        { productInternalCode: 'B', units: 1, quantity: 2, error: state },
      ]);
      expect([result.subtotal, result.discountTotal, result.total]).toEqual([0, 0, 0]);
    }
  });

  it('checks in the order of the contract table: unknown, disabled, price list, not priced, unavailable', () => {
    const input = context(
      { A: 10 },
      {
        products: [
          { internalCode: 'A', enabled: true },
          { internalCode: 'D', enabled: false },
          { internalCode: 'N', enabled: true },
        ],
        unavailable: [{ productInternalCode: 'N' }, { productInternalCode: 'D' }],
        cart: [line('X', 1), line('D', 1), line('N', 1)],
      },
    );
    expect(priceCart(input).lines.map((l) => ('error' in l ? l.error : 'ok'))).toEqual(['UNKNOWN_PRODUCT', 'PRODUCT_DISABLED', 'NOT_PRICED']);
    expect(priceCart({ ...input, prices: 'NO_PRICE_LIST' }).lines.map((l) => ('error' in l ? l.error : 'ok'))).toEqual([
      'UNKNOWN_PRODUCT',
      'PRODUCT_DISABLED',
      'NO_PRICE_LIST',
    ]);
  });

  it('marks only the package size a rule names as unavailable', () => {
    const input = context({ A: 10 }, { unavailable: [{ productInternalCode: 'A', units: 12 }], cart: [line('A', 1), line('A', 1, 12)] });
    withPrice(input, 'A', 12, 100);
    expect(priceCart(input).lines.map((l) => ('error' in l ? l.error : 'ok'))).toEqual(['ok', 'UNAVAILABLE']);
  });

  it('rounds a line subtotal once, half away from zero, in the currency', () => {
    const { priced: lines } = priced(context({ A: 0.3333, B: 0.0025 }, { cart: [line('A', 3), line('B', 2)] }));
    expect(lines.map((l) => l.subtotal)).toEqual([1, 0.01]);
  });

  it('uses currencyDecimals (2 when absent)', () => {
    const zero = priceCart({ ...context({ A: 1234.5 }, { cart: [line('A', 1)], promotions: [discount('D', 'A', [{ min: 1, discountPercentage: 10 }])] }), currencyDecimals: 0 });
    expect([zero.subtotal, zero.discountTotal, zero.total]).toEqual([1235, 124, 1111]);
    const { currencyDecimals: _, ...rest } = context({ A: 0.125 }, { cart: [line('A', 1)] });
    expect(priceCart(rest).subtotal).toBe(0.13);
  });

  it('does not count failed lines towards a promotion', () => {
    const input = context({ A: 10 }, { unavailable: [{ productInternalCode: 'A', units: 6 }], cart: [line('A', 2), line('A', 1, 6)] });
    withPrice(input, 'A', 6, 50);
    input.promotions = [discount('D', 'A', [{ min: 3, discountPercentage: 10 }])];
    const result = priceCart(input);
    expect(result.discounts).toEqual([]);
    expect(result.hints.nextTiers).toEqual([
      { promoInternalCode: 'D', measure: 'count', current: 2, target: 3, missing: 1, packagesToAdd: [{ internalCode: 'A', units: 1, quantity: 1 }], gives: { discountPercentage: 10 } },
    ]);
  });
});

describe('which promotions take part', () => {
  const seen = (overrides: Parameters<typeof discount>[3], input: Partial<PricingInput> = {}) =>
    priceCart(context({ A: 100 }, { cart: [line('A', 1)], promotions: [discount('D', 'A', [{ min: 1, discountPercentage: 10 }], overrides)], ...input })).discounts.length === 1;

  it('includes both ends of start..end', () => {
    expect(seen({ start: '2026-03-10', end: '2026-03-10' })).toBe(true);
    expect(seen({ start: '2026-03-11', end: '2026-03-31' })).toBe(false);
    expect(seen({ start: '2026-02-01', end: '2026-03-09' })).toBe(false);
  });

  it('is visible to all without groupers, else through at least one enabled grouper of the store', () => {
    const groupers = [
      { internalCode: 'ON', enabled: true },
      { internalCode: 'OFF', enabled: false },
    ];
    const store = { promotionGrouperCodes: ['ON', 'OFF', 'GONE'], dropSize: null };
    expect(seen({ promotionGrouperCodes: null })).toBe(true);
    expect(seen({ promotionGrouperCodes: [] })).toBe(true);
    expect(seen({ promotionGrouperCodes: ['OFF', 'ON'] }, { groupers, store })).toBe(true);
    expect(seen({ promotionGrouperCodes: ['OFF'] }, { groupers, store })).toBe(false);
    // A grouper the context does not list is not known to be enabled.
    expect(seen({ promotionGrouperCodes: ['GONE'] }, { groupers, store })).toBe(false);
    expect(seen({ promotionGrouperCodes: ['ON'] }, { groupers, store: { promotionGrouperCodes: [], dropSize: null } })).toBe(false);
  });

  it('accepts products as an object or as an array, and ignores products not in the cart', () => {
    const asObject = priceCart(context({ A: 100 }, { cart: [line('A', 1)], promotions: [{ ...discount('D', 'A', [{ min: 1, discountPercentage: 10 }]), products: { internalCode: 'A' } }] }));
    const asArray = priceCart(context({ A: 100 }, { cart: [line('A', 1)], promotions: [discount('D', ['A', 'NOPE'], [{ min: 1, discountPercentage: 10 }])] }));
    expect(asObject.discounts).toEqual(asArray.discounts);
    expect(asObject.discountTotal).toBe(10);
  });
});

describe('tiers', () => {
  const tiers = [
    { min: 2, max: 4, discountPercentage: 5 },
    { min: 10, max: 19, discountPercentage: 10 },
    { min: 20, discountPercentage: 15 },
  ];
  const pctAt = (quantity: number) => priceCart(context({ A: 100 }, { cart: [line('A', quantity)], promotions: [discount('D', 'A', tiers)] })).discounts[0]?.appliedDiscountPercentage ?? null;

  it('applies min and max both included; nothing below the first tier or in a gap; no max is unbounded', () => {
    expect([1, 2, 4, 5, 9, 10, 19, 20, 1_000_000].map(pctAt)).toEqual([null, 5, 5, null, null, 10, 10, 15, 15]);
  });

  it('counts exactly: boxRatio 3 makes 1/3 + 2/3 reach a tier starting at 1', () => {
    const input = context({ A: 1 }, { cart: [line('A', 1), line('A', 1, 2)], promotions: [discount('D', [{ internalCode: 'A', boxRatio: 3 }], [{ min: 1, discountPercentage: 10 }])] });
    withPrice(input, 'A', 2, 2);
    expect(priceCart(input).discounts.map((d) => d.appliedDiscountAmount)).toEqual([0.3]);
  });

  it('runs a tier without max up to the next tier by min, excluded, wherever it is; the highest without max is open', () => {
    // Written out of order, no max anywhere: 2.. up to 10, 10.. up to 20, 20.. unbounded.
    const open = [
      { min: 20, discountPercentage: 15 },
      { min: 2, discountPercentage: 5 },
      { min: 10, discountPercentage: 10 },
    ];
    const at = (quantity: number, list = open) =>
      priceCart(context({ A: 100 }, { cart: [line('A', quantity)], promotions: [discount('D', 'A', list)] })).discounts[0]?.appliedDiscountPercentage ?? null;
    expect([1, 2, 9, 10, 19, 20, 1_000_000].map((q) => at(q))).toEqual([null, 5, 5, 10, 10, 15, 15]);
    // An open tier below a bounded one, then a gap above it: no discount in the gap.
    const mixed = [{ min: 1, discountPercentage: 5 }, { min: 5, max: 8, discountPercentage: 10 }];
    expect([1, 4, 5, 8, 9, 100].map((q) => at(q, mixed))).toEqual([5, 5, 10, 10, null, null]);
  });

  it('reaches an open tier\'s end exactly with fractional counts and amounts', () => {
    // boxRatio 3: 2 packages count 2/3, below the next min of 1; 3 packages count exactly 1.
    const q = (quantity: number) =>
      priceCart(context({ A: 1 }, { cart: [line('A', quantity)], promotions: [discount('D', [{ internalCode: 'A', boxRatio: 3 }], [{ min: 0.5, discountPercentage: 5 }, { min: 1, discountPercentage: 10 }])] }))
        .discounts[0]?.appliedDiscountPercentage ?? null;
    expect([1, 2, 3].map(q)).toEqual([null, 5, 10]);
    // Amount tiers: 499.99 is still the first tier, 500 the second.
    const cash = (price: number) =>
      priceCart(context({ A: price }, { cart: [line('A', 1)], promotions: [discount('C', 'A', [{ min: 100, discountAmount: 10 }, { min: 500, discountAmount: 60 }], { cash: true })] })).discountTotal;
    expect([99.99, 100, 499.99, 500, 10_000].map(cash)).toEqual([0, 10, 10, 60, 60]);
  });

  it('uses the amount for ...Cash tiers, max included', () => {
    const at = (price: number) =>
      priceCart(context({ A: price }, { cart: [line('A', 1)], promotions: [discount('C', 'A', [{ min: 100, max: 499.99, discountAmount: 10 }, { min: 500, discountAmount: 60 }], { cash: true })] })).discountTotal;
    expect([99.99, 100, 499.99, 500].map(at)).toEqual([0, 10, 10, 60]);
  });
});

describe('discounts', () => {
  it('rounds a percentage per line, half away from zero', () => {
    const result = priceCart(context({ A: 0.1, B: 0.3 }, { cart: [line('A', 1), line('B', 1)], promotions: [discount('D', ['A', 'B'], [{ min: 1, discountPercentage: 5 }])] }));
    expect(result.discounts[0]!.products.map((p) => p.discountAmount)).toEqual([0.01, 0.02]); // 0.005 → 0.01, 0.015 → 0.02
    expect(result.discountTotal).toBe(0.03);
  });

  it('rounds a fixed amount finer than the currency before splitting it', () => {
    const result = priceCart(context({ A: 100 }, { cart: [line('A', 1)], promotions: [discount('D', 'A', [{ min: 1, discountAmount: 10.005 }])] }));
    expect(result.discountTotal).toBe(10.01);
  });

  it('gives a largest-remainder tie to the first line in canonical order, whatever the cart order', () => {
    const promotions = [discount('M', ['P4', 'P3', 'P2'], [{ min: 1, discountAmount: 10 }])];
    const cart = [line('P4', 1), line('P2', 1), line('P3', 1)];
    const result = priceCart(context({ P2: 5, P3: 5, P4: 5 }, { cart, promotions }));
    expect(result.discounts[0]!.products.map((p) => [p.internalCode, p.discountAmount])).toEqual([
      ['P4', 3.33],
      ['P2', 3.34],
      ['P3', 3.33],
    ]);
  });

  it('breaks a tie between two sizes of one product by units', () => {
    const input = context({ A: 5 }, { cart: [line('A', 1, 6), line('A', 1)], promotions: [discount('D', 'A', [{ min: 1, discountAmount: 0.01 }])] });
    withPrice(input, 'A', 6, 5);
    expect(priceCart(input).lines.map((l) => ('discount' in l ? l.discount : null))).toEqual([0, 0.01]);
  });

  it('does not apply a promotion that gives nothing', () => {
    const result = priceCart(context({ A: 0 }, { cart: [line('A', 3)], promotions: [discount('D', 'A', [{ min: 1, discountAmount: 10 }])] }));
    expect(result.discounts).toEqual([]);
  });
});

describe('one discount per line', () => {
  it('takes the largest total first; ties by internalCode; the loser is told who took its lines', () => {
    const promotions = [discount('Z', 'A', [{ min: 1, discountPercentage: 10 }]), discount('B', ['A', 'C'], [{ min: 1, discountAmount: 10 }])];
    const result = priceCart(context({ A: 100, C: 50 }, { cart: [line('C', 1), line('A', 1)], promotions }));
    expect(result.discounts.map((d) => d.promoInternalCode)).toEqual(['B']);
    expect(result.hints.lostConflicts).toEqual([{ promoInternalCode: 'Z', discountAmount: 10, takenBy: [{ promoInternalCode: 'B', products: [{ internalCode: 'A', units: 1 }] }] }]);
  });

  it('applies a promotion whole or not at all, so a loser frees lines for a later one', () => {
    const promotions = [
      discount('BIG', 'A', [{ min: 1, discountPercentage: 50 }]),
      discount('MID', ['A', 'B'], [{ min: 1, discountPercentage: 20 }]),
      discount('SMALL', 'B', [{ min: 1, discountPercentage: 1 }]),
    ];
    const result = priceCart(context({ A: 100, B: 100 }, { cart: [line('A', 1), line('B', 1)], promotions }));
    expect(result.discounts.map((d) => [d.promoInternalCode, d.appliedDiscountAmount])).toEqual([
      ['BIG', 50],
      ['SMALL', 1],
    ]);
    expect(result.hints.lostConflicts.map((h) => h.promoInternalCode)).toEqual(['MID']);
  });
});

describe('bonuses', () => {
  it('gives the individual bonus in the tier units and counts boxes', () => {
    const promo = individualBonus('B', { internalCode: 'A', boxRatio: 12 }, 2, 3, 12);
    const input = context({ A: 1 }, { cart: [line('A', 30)], promotions: [promo] }); // 30 units = 2.5 boxes
    expect(priceCart(input).rewards).toEqual([{ promoInternalCode: 'B', quantity: 3, products: [{ internalCode: 'A', units: 12 }] }]);
  });

  it('gives an amount bonus once per order, and never changes a total', () => {
    const result = priceCart(context({ A: 100, G: 1 }, { cart: [line('A', 50)], promotions: [crossedBonus('B', ['A'], 'G', { amountRequired: 1000 }, 2)] }));
    expect(result.rewards).toEqual([{ promoInternalCode: 'B', quantity: 2, products: [{ internalCode: 'G', units: 1 }] }]);
    expect([result.subtotal, result.discountTotal, result.total]).toEqual([5000, 0, 5000]);
    expect(result.hints.nextTiers).toEqual([]);
  });

  it('gives bonuses on lines that also have a discount', () => {
    const promotions = [discount('D', 'A', [{ min: 1, discountPercentage: 10 }]), individualBonus('B', 'A', 1)];
    const result = priceCart(context({ A: 100 }, { cart: [line('A', 2)], promotions }));
    expect([result.discounts.length, result.rewards.length]).toEqual([1, 1]);
  });

  it('does not give a gift that is unknown, disabled or unavailable, and says why', () => {
    const input = context(
      { A: 10 },
      {
        products: [
          { internalCode: 'A', enabled: true },
          { internalCode: 'OFF', enabled: false },
          { internalCode: 'OUT', enabled: true },
          { internalCode: 'SIZE', enabled: true },
        ],
        unavailable: [{ productInternalCode: 'OUT' }, { productInternalCode: 'SIZE', units: 6 }],
        cart: [line('A', 10)],
        promotions: [
          crossedBonus('B1', ['A'], 'NOPE', { quantityRequired: 5 }),
          crossedBonus('B2', ['A'], 'OFF', { quantityRequired: 5 }),
          crossedBonus('B3', ['A'], 'OUT', { quantityRequired: 5 }),
          crossedBonus('B4', ['A'], 'SIZE', { quantityRequired: 5 }, 1, 6),
          crossedBonus('B5', ['A'], 'SIZE', { quantityRequired: 5 }, 1, 1),
        ],
      },
    );
    const result = priceCart(input);
    expect(result.rewards).toEqual([{ promoInternalCode: 'B5', quantity: 2, products: [{ internalCode: 'SIZE', units: 1 }] }]);
    expect(result.hints.giftsNotGiven).toEqual([
      { promoInternalCode: 'B1', quantity: 2, product: { internalCode: 'NOPE', units: 1 }, reason: 'UNKNOWN_PRODUCT' },
      { promoInternalCode: 'B2', quantity: 2, product: { internalCode: 'OFF', units: 1 }, reason: 'PRODUCT_DISABLED' },
      { promoInternalCode: 'B3', quantity: 2, product: { internalCode: 'OUT', units: 1 }, reason: 'UNAVAILABLE' },
      { promoInternalCode: 'B4', quantity: 2, product: { internalCode: 'SIZE', units: 6 }, reason: 'UNAVAILABLE' },
    ]);
    // Only the bonus that can be given invites the store to buy more.
    expect(result.hints.nextTiers.map((h) => h.promoInternalCode)).toEqual(['B5']);
  });
});

describe('minimum order', () => {
  const withMinimum = (dropSize: number | null, supplierMinimumOrder: number | null) =>
    priceCart(context({ A: 100 }, { cart: [line('A', 3)], store: { promotionGrouperCodes: [], dropSize }, supplierMinimumOrder })).minimumOrder;

  it("is the store's dropSize, else the supplier's minimum, else none", () => {
    expect(withMinimum(1000, 400)).toEqual({ amount: 1000, missing: 700 });
    expect(withMinimum(null, 400)).toEqual({ amount: 400, missing: 100 });
    expect(withMinimum(null, null)).toBeNull();
    expect(withMinimum(300, 400)).toBeNull(); // reached exactly
    expect(withMinimum(300.0001, null)).toEqual({ amount: 300.0001, missing: 0.0001 });
  });

  it('compares the total after discounts', () => {
    const result = priceCart(
      context({ A: 100 }, { cart: [line('A', 3)], store: { promotionGrouperCodes: [], dropSize: 300 }, promotions: [discount('D', 'A', [{ min: 1, discountPercentage: 10 }])] }),
    );
    expect(result.minimumOrder).toEqual({ amount: 300, missing: 30 });
  });
});

describe('hints', () => {
  it('tells the next discount tier and what is missing, in count or amount', () => {
    const promotions = [
      discount('Q', [{ internalCode: 'A', boxRatio: 3 }], [{ min: 1, max: 2, discountPercentage: 5 }, { min: 4, discountAmount: 20 }]),
      discount('C', 'B', [{ min: 500, discountPercentage: 3 }], { cash: true }),
    ];
    const result = priceCart(context({ A: 10, B: 123.45 }, { cart: [line('A', 5), line('B', 2)], promotions }));
    expect(result.hints.nextTiers).toEqual([
      { promoInternalCode: 'C', measure: 'amount', current: 246.9, target: 500, missing: 253.1, gives: { discountPercentage: 3 } },
      // count 5/3: shown rounded down; missing 4 − 5/3 = 7/3 rounded up so adding it is enough
      { promoInternalCode: 'Q', measure: 'count', current: 1.6666, target: 4, missing: 2.3334, packagesToAdd: [{ internalCode: 'A', units: 1, quantity: 7 }], gives: { discountAmount: 20 } },
    ]);
  });

  it('has no next tier at the top one, and tells the next multiple of a quantity bonus', () => {
    const promotions = [discount('D', 'A', [{ min: 1, discountPercentage: 5 }]), individualBonus('B', 'A', 4, 2)];
    const result = priceCart(context({ A: 10 }, { cart: [line('A', 9)], promotions }));
    expect(result.hints.nextTiers).toEqual([
      {
        promoInternalCode: 'B',
        measure: 'count',
        current: 9,
        target: 12,
        missing: 3,
        packagesToAdd: [{ internalCode: 'A', units: 1, quantity: 3 }],
        gives: { quantity: 6, product: { internalCode: 'A', units: 1 } },
      },
    ]);
  });

  it('tells the amount missing for an amount bonus', () => {
    const result = priceCart(context({ A: 100, G: 1 }, { cart: [line('A', 3)], promotions: [crossedBonus('B', ['A'], 'G', { amountRequired: 1000 })] }));
    expect(result.hints.nextTiers).toEqual([
      { promoInternalCode: 'B', measure: 'amount', current: 300, target: 1000, missing: 700, gives: { quantity: 1, product: { internalCode: 'G', units: 1 } } },
    ]);
  });
});

describe('hints in the packages the buyer adds (issue 34)', () => {
  // What the shop words: "add 1 more box", never the promotion's count where the line is boxes.
  const named = (input: PricingInput, names: Record<string, string>) => {
    input.products = input.products.map((p) => ({ ...p, ...(names[p.internalCode] ? { name: names[p.internalCode] } : {}) }));
    return input;
  };
  /** The demo's papas: 1 unit or a box of 12; every 12 units give 1 water. */
  const papas = (cart: ReturnType<typeof line>[]) => {
    const input = named(context({ PAPAS: 2100, AGUA: 1200 }, { cart, promotions: [crossedBonus('BONO', ['PAPAS'], 'AGUA', { quantityRequired: 12 })] }), { AGUA: 'Agua 600 ml' });
    withPrice(input, 'PAPAS', 12, 23_200);
    return input;
  };
  /** Adds `quantity` packages of `units` to the cart's line of that size (or a new line). */
  const adding = (input: PricingInput, add: { internalCode: string; units: number; quantity: number }, less = 0): PricingInput => {
    const at = input.cart.findIndex((l) => l.productInternalCode === add.internalCode && l.units === add.units);
    const cart = [...input.cart];
    if (at === -1) cart.push(line(add.internalCode, add.quantity - less, add.units));
    else cart[at] = { ...cart[at]!, quantity: cart[at]!.quantity + add.quantity - less };
    return { ...input, cart: cart.filter((l) => l.quantity > 0) };
  };
  const gifts = (input: PricingInput) => priceCart(input).rewards.reduce((n, r) => n + r.quantity, 0);

  it('a box of 12 towards "every 12 units: 1 free" needs one more box, not 12, and names the gift', () => {
    const [hint] = priceCart(papas([line('PAPAS', 1, 12)])).hints.nextTiers;
    expect(hint).toEqual({
      promoInternalCode: 'BONO',
      measure: 'count',
      current: 12,
      target: 24,
      // The promotion's count (units here), kept as it was.
      missing: 12,
      packagesToAdd: [{ internalCode: 'PAPAS', units: 12, quantity: 1 }],
      gives: { quantity: 2, product: { internalCode: 'AGUA', units: 1, name: 'Agua 600 ml' } },
    });
    expect(priceCart(papas([line('PAPAS', 1, 12)])).rewards).toEqual([{ promoInternalCode: 'BONO', quantity: 1, products: [{ internalCode: 'AGUA', units: 1, name: 'Agua 600 ml' }] }]);
  });

  it('with mixed package sizes, each line gets its own count, the fewest first, and the engine agrees each one is enough and one less is not', () => {
    const input = papas([line('PAPAS', 5), line('PAPAS', 1, 12)]);
    const [hint] = priceCart(input).hints.nextTiers;
    expect(hint!.missing).toBe(7);
    expect(hint!.packagesToAdd).toEqual([
      { internalCode: 'PAPAS', units: 12, quantity: 1 },
      { internalCode: 'PAPAS', units: 1, quantity: 7 },
    ]);
    expect(gifts(input)).toBe(1);
    for (const add of hint!.packagesToAdd!) {
      expect(gifts(adding(input, add)), JSON.stringify(add)).toBe(2);
      expect(gifts(adding(input, add, 1)), JSON.stringify(add)).toBe(1);
    }
  });

  it('a discount counted in boxes of 24: one more box, or 18 more units, over two products', () => {
    const input = context({ COLA: 1650, LIMA: 1550 }, {
      cart: [line('LIMA', 6), line('COLA', 1, 24)],
      promotions: [discount('SODA', ['COLA', 'LIMA'].map((internalCode) => ({ internalCode, boxRatio: 24 })), [{ min: 2, max: 4, discountPercentage: 5 }, { min: 5, discountPercentage: 10 }])],
    });
    withPrice(input, 'COLA', 24, 36_400);
    const [hint] = priceCart(input).hints.nextTiers;
    expect(hint).toMatchObject({ measure: 'count', current: 1.25, target: 2, missing: 0.75 });
    expect(hint!.packagesToAdd).toEqual([
      { internalCode: 'COLA', units: 24, quantity: 1 },
      { internalCode: 'LIMA', units: 1, quantity: 18 },
    ]);
    expect(priceCart(input).discounts).toEqual([]);
    for (const add of hint!.packagesToAdd!) {
      expect(priceCart(adding(input, add)).discounts.map((d) => d.appliedDiscountPercentage), JSON.stringify(add)).toEqual([5]);
      expect(priceCart(adding(input, add, 1)).discounts, JSON.stringify(add)).toEqual([]);
    }
  });

  it('ties between sizes go by product code, then units, whatever the order of the cart', () => {
    const promotions = [discount('D', ['A', 'B'], [{ min: 10, discountPercentage: 5 }])];
    const hints = (cart: ReturnType<typeof line>[]) => priceCart(context({ A: 1, B: 1 }, { cart, promotions })).hints.nextTiers[0]!.packagesToAdd;
    const expected = [
      { internalCode: 'A', units: 1, quantity: 8 },
      { internalCode: 'B', units: 1, quantity: 8 },
    ];
    expect(hints([line('B', 1), line('A', 1)])).toEqual(expected);
    expect(hints([line('A', 1), line('B', 1)])).toEqual(expected);
  });

  it('an amount hint stays in money, without packages', () => {
    const result = priceCart(context({ A: 100, G: 1 }, { cart: [line('A', 3)], promotions: [crossedBonus('B', ['A'], 'G', { amountRequired: 1000 })] }));
    expect(result.hints.nextTiers[0]).not.toHaveProperty('packagesToAdd');
  });
});

describe('order independence', () => {
  it('gives the same result for the cart and the promotions in any order', () => {
    const promotions = [
      discount('M', ['A', 'B', 'C'], [{ min: 3, discountAmount: 10 }]),
      discount('S', 'A', [{ min: 1, discountAmount: 10 }]),
      individualBonus('I', 'B', 1),
    ];
    const cart = [line('A', 1), line('B', 1), line('C', 1)];
    const prices = { A: 5, B: 5, C: 5 };
    const first = canonical(priceCart(context(prices, { cart, promotions })));
    const second = canonical(priceCart(context(prices, { cart: [...cart].reverse(), promotions: [...promotions].reverse() })));
    expect(second).toEqual(first);
  });
});
