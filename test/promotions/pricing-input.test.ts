// Stored promotions feed the pricing engine: every promotion of the contract's worked
// examples (pricing-examples.json) is written through its PUT endpoint, read back with
// promotionsForPricing, and the engine then prices each example exactly as expected.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceCart } from '../../src/modules/pricing/pricing.engine.ts';
import type { PricingInput, PricingPromotion } from '../../src/modules/pricing/pricing.types.ts';
import { promotionsForPricing } from '../../src/modules/promotions/promotions.service.ts';
import { as, createTestApp, type TestApp } from '../helpers/app.ts';
import { PATHS, runBatch, type Kind } from './fixtures.ts';

type Example = Omit<PricingInput, 'currencyDecimals'> & { name: string; expected: any };
const file = JSON.parse(readFileSync(new URL('../fixtures/pricing-examples.json', import.meta.url), 'utf8')) as {
  currencyDecimals: number;
  examples: Example[];
};
const KIND: Record<PricingPromotion['type'], Kind> = {
  DISCOUNT_SIMPLE: 'simple',
  DISCOUNT_MULTIPLE: 'multiple',
  BONUS_INDIVIDUAL: 'individual',
  BONUS_CROSSED: 'crossed',
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The example's promotion as the store holds it: products a list, defaults filled in. */
function normalised(p: PricingPromotion) {
  const products = (Array.isArray(p.products) ? p.products : [p.products]).map((x: any) => ({ internalCode: x.internalCode, boxRatio: x.boxRatio ?? 1 }));
  const bonus = (tier: any) => (tier ? { units: 1, ...tier } : undefined);
  const { bonusTierData, bonusTierDataCash, ...rest } = p as any;
  return JSON.parse(
    JSON.stringify({ ...rest, products, promotionGrouperCodes: [...(p.promotionGrouperCodes ?? [])].sort(), bonusTierData: bonus(bonusTierData), bonusTierDataCash: bonus(bonusTierDataCash) }),
  );
}

describe('promotionsForPricing', () => {
  it.each(file.examples.map((e) => [e.name, e] as const))('%s', async (_name, example) => {
    const s = await t.supplier();
    expect((await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'C' })).statusCode).toBe(200);
    await runBatch(t, s, '/batch/brand', [{ internalCode: 'B', name: 'B' }]);
    const upsert = example.products.map((p) => ({ internalCode: p.internalCode, name: p.internalCode, enabled: p.enabled, brandInternalCode: 'B', categoryInternalCode: 'C' }));
    if (upsert.length > 0) await runBatch(t, s, '/batch/product', { upsert });
    for (const g of example.groupers) {
      expect((await as(t, s, 'POST', '/grouper/promotion', { internalCode: g.internalCode, name: g.internalCode })).statusCode).toBe(200);
      if (!g.enabled) expect((await as(t, s, 'PUT', `/grouper/${g.internalCode}/status/promotion`, { enabled: false })).statusCode).toBe(200);
    }
    for (const { type, ...body } of example.promotions) {
      const res = await as(t, s, 'PUT', PATHS[KIND[type]], body);
      expect(res.statusCode, res.body).toBe(200);
    }

    const stored = await promotionsForPricing(t.deps.db, s.id);
    const byCode = (a: { internalCode: string }, b: { internalCode: string }) => (a.internalCode < b.internalCode ? -1 : 1);
    expect(stored.map(normalised).sort(byCode)).toEqual(example.promotions.map(normalised).sort(byCode));

    const { name: _n, expected, ...context } = example;
    const result = priceCart({ currencyDecimals: file.currencyDecimals, ...context, promotions: stored });
    for (const field of ['lines', 'discounts', 'rewards', 'subtotal', 'discountTotal', 'total', 'minimumOrder'] as const) {
      expect(result[field], field).toEqual(expected[field]);
    }

    // With `today`, only the promotions in force that day.
    const inForce = await promotionsForPricing(t.deps.db, s.id, { today: example.today });
    expect(inForce.map((p) => p.internalCode).sort()).toEqual(
      stored.filter((p) => p.enabled && p.start <= example.today && example.today <= p.end).map((p) => p.internalCode).sort(),
    );
  });
});
