// The minimum order's rule and the case rules as pure functions (src/modules/pricing/README.md,
// "Minimum order" and "Case rules"), and the engine answering as before when nothing of
// them is configured.
import { describe, expect, it } from 'vitest';
import { priceCart } from '../../src/modules/pricing/pricing.engine.ts';
import { caseRuleViolations, minimumOrderOf, minimumRuleOf } from '../../src/modules/pricing/pricing.minimums.ts';
import type { PricingInput } from '../../src/modules/pricing/pricing.types.ts';

const input = (over: Partial<PricingInput> = {}): PricingInput => ({
  currencyDecimals: 2,
  today: '2027-03-01',
  products: [{ internalCode: 'A', enabled: true }],
  prices: [{ productInternalCode: 'A', units: 1, price: 10.01 }],
  unavailable: [],
  groupers: [],
  store: { promotionGrouperCodes: [] },
  promotions: [],
  cart: [{ productInternalCode: 'A', units: 1, quantity: 3 }],
  ...over,
});

describe('the minimum', () => {
  it("is the store's dropSize, else the zone's amount, else the supplier's; the mode is the zone's", () => {
    const zone = { amount: 500, mode: 'fee' as const, fee: 12.5 };
    expect(minimumRuleOf({ store: { promotionGrouperCodes: [], dropSize: 300 }, zoneMinimumOrder: zone, supplierMinimumOrder: 100 })).toEqual({ amount: 300, mode: 'fee', fee: 12.5, moded: true });
    expect(minimumRuleOf({ store: { promotionGrouperCodes: [] }, zoneMinimumOrder: zone, supplierMinimumOrder: 100 })).toEqual({ amount: 500, mode: 'fee', fee: 12.5, moded: true });
    expect(minimumRuleOf({ store: { promotionGrouperCodes: [] }, supplierMinimumOrder: 100 })).toEqual({ amount: 100, mode: 'hard', fee: null, moded: false });
    expect(minimumRuleOf({ store: { promotionGrouperCodes: [], dropSize: null } })).toBeNull();
  });

  it('counts the other orders of the date exactly, and is null once reached', () => {
    const rule = { amount: 100.3, mode: 'soft' as const, fee: null, moded: true };
    expect(minimumOrderOf(rule, 30.1, 40.1)).toEqual({ amount: 100.3, missing: 30.1, mode: 'soft', alreadyOrdered: 40.1 });
    expect(minimumOrderOf(rule, 30.1, 70.2)).toBeNull();
    expect(minimumOrderOf({ ...rule, moded: false, mode: 'hard' }, 0.1, 0)).toEqual({ amount: 100.3, missing: 100.2 });
  });

  it('leaves the engine answering as before when no zone is configured', () => {
    const result = priceCart(input({ store: { promotionGrouperCodes: [], dropSize: 50 } }));
    expect(result.minimumOrder).toEqual({ amount: 50, missing: 19.97 });
    expect(result).not.toHaveProperty('violations');
    expect(priceCart(input({ store: { promotionGrouperCodes: [], dropSize: 50 }, alreadyOrdered: 19.97 })).minimumOrder).toBeNull();
  });
});

describe('case rules', () => {
  it("are measured in units over the product's priced lines, reported by product code then rule", () => {
    const units = new Map([
      ['B', 30n],
      ['A', 5n],
    ]);
    expect(
      caseRuleViolations(
        [
          { internalCode: 'B', enabled: true, maxUnits: 24, multiple: 12 },
          { internalCode: 'A', enabled: true, minUnits: 6, multiple: 5 },
          { internalCode: 'C', enabled: true, multiple: 7 },
        ],
        units,
      ),
    ).toEqual([
      { code: 'BELOW_MINIMUM_UNITS', productInternalCode: 'A', orderedUnits: 5, minUnits: 6 },
      { code: 'ABOVE_MAXIMUM_UNITS', productInternalCode: 'B', orderedUnits: 30, maxUnits: 24 },
      { code: 'NOT_A_MULTIPLE', productInternalCode: 'B', orderedUnits: 30, multiple: 12 },
    ]);
    expect(caseRuleViolations([{ internalCode: 'A', enabled: true }], units)).toBeUndefined();
  });

  it('count a failed line for nothing, as totals do', () => {
    const result = priceCart(
      input({
        products: [{ internalCode: 'A', enabled: true, multiple: 12 }],
        cart: [
          { productInternalCode: 'A', units: 1, quantity: 12 },
          { productInternalCode: 'A', units: 6, quantity: 1 },
        ],
      }),
    );
    expect(result.lines[1]).toMatchObject({ error: 'NOT_PRICED' });
    expect(result.violations).toEqual([]);
  });
});
