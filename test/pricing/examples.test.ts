// Every worked example of the contract, kept as the project's own fixture
// (test/fixtures/pricing-examples.json, a copy of the contract's examples file, unedited),
// read as it is and fed to the engine; each expected field is compared exactly.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { priceCart } from '../../src/modules/pricing/pricing.engine.ts';
import type { PricingInput, PricingResult } from '../../src/modules/pricing/pricing.types.ts';

type Expected = Pick<PricingResult, 'lines' | 'discounts' | 'rewards' | 'subtotal' | 'discountTotal' | 'total' | 'minimumOrder'>;
type Example = Omit<PricingInput, 'currencyDecimals'> & { name: string; expected: Expected };

const file = JSON.parse(readFileSync(new URL('../fixtures/pricing-examples.json', import.meta.url), 'utf8')) as {
  currencyDecimals: number;
  examples: Example[];
};

describe('pricing-examples.json', () => {
  it('has examples', () => {
    expect(file.examples.length).toBeGreaterThan(0);
  });

  it.each(file.examples.map((example) => [example.name, example] as const))('%s', (_name, example) => {
    // The only adaptation: the file gives the currency's precision once for all examples.
    const { name: _, expected, ...context } = example;
    const result = priceCart({ currencyDecimals: file.currencyDecimals, ...context });
    expect(result.lines).toEqual(expected.lines);
    expect(result.discounts).toEqual(expected.discounts);
    expect(result.rewards).toEqual(expected.rewards);
    expect(result.subtotal).toEqual(expected.subtotal);
    expect(result.discountTotal).toEqual(expected.discountTotal);
    expect(result.total).toEqual(expected.total);
    expect(result.minimumOrder).toEqual(expected.minimumOrder);
  });
});
