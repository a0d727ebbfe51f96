// Shared setup for the promotion tests: a supplier's catalogue and promotion groupers, and
// one valid body of each promotion type to vary.
import { expect } from 'vitest';
import { as, type TestApp, type TestSupplier } from '../helpers/app.ts';

export { ISO, stamps } from '../helpers/fixtures.ts';

export type Kind = 'simple' | 'multiple' | 'individual' | 'crossed';
export const PATHS: Record<Kind, string> = {
  simple: '/promotion/discount/simple',
  multiple: '/promotion/discount/multiple',
  individual: '/promotion/bonus/individual',
  crossed: '/promotion/bonus/crossed',
};
/** Where each kind goes in POST /batch/promotion, and the action the detail names. */
export const NODES: Record<Kind, { group: 'discount' | 'bonus'; key: Kind; action: string }> = {
  simple: { group: 'discount', key: 'simple', action: 'upsert.discount.simple' },
  multiple: { group: 'discount', key: 'multiple', action: 'upsert.discount.multiple' },
  individual: { group: 'bonus', key: 'individual', action: 'upsert.bonus.individual' },
  crossed: { group: 'bonus', key: 'crossed', action: 'upsert.bonus.crossed' },
};

export async function runBatch(t: TestApp, s: TestSupplier, url: string, body: unknown) {
  const { ids, statuses } = await t.runBatch(s, url, body);
  const detail = (await as(t, s, 'GET', `/batch/${ids[0]}/detail`)).json().detail;
  return { id: ids[0]!, status: statuses[0], detail };
}

/** Products P-1..P-4 and the gift G-1, promotion groupers SEG-A and SEG-B, stock grouper W-1. */
export async function seed(t: TestApp, s: TestSupplier, products = ['P-1', 'P-2', 'P-3', 'P-4', 'G-1']) {
  expect((await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'All' })).statusCode).toBe(200);
  await runBatch(t, s, '/batch/brand', [{ internalCode: 'B', name: 'Brand' }]);
  const upsert = products.map((code) => ({ internalCode: code, name: code, brandInternalCode: 'B', categoryInternalCode: 'C' }));
  const { status } = await runBatch(t, s, '/batch/product', { upsert });
  expect(status.completed).toBe(products.length);
  for (const code of ['SEG-A', 'SEG-B']) expect((await as(t, s, 'POST', '/grouper/promotion', { internalCode: code, name: code })).statusCode).toBe(200);
  expect((await as(t, s, 'POST', '/grouper/stock', { internalCode: 'W-1', name: 'Warehouse' })).statusCode).toBe(200);
}

const base = (code: string) => ({ internalCode: code, name: `Promo ${code}`, start: '2026-03-01', end: '2026-03-31', enabled: true });

export const bodies: Record<Kind, (code: string, extra?: Record<string, unknown>) => Record<string, any>> = {
  simple: (code, extra = {}) => ({
    ...base(code),
    products: { internalCode: 'P-1', boxRatio: 12 },
    discountTiersData: [
      { min: 2, max: 4, discountPercentage: 5 },
      { min: 5, discountPercentage: 10 },
    ],
    ...extra,
  }),
  multiple: (code, extra = {}) => ({
    ...base(code),
    products: [{ internalCode: 'P-2' }, { internalCode: 'P-3', boxRatio: 0.5 }],
    discountTiersDataCash: [
      { min: 10000, max: 49999.99, discountPercentage: 2.5 },
      { min: 50000, discountAmount: 1234.5678 },
    ],
    ...extra,
  }),
  individual: (code, extra = {}) => ({
    ...base(code),
    products: { internalCode: 'P-4' },
    bonusTierData: { quantityRequired: 10, quantityGiven: 1, units: 1 },
    ...extra,
  }),
  crossed: (code, extra = {}) => ({
    ...base(code),
    products: [{ internalCode: 'P-1' }, { internalCode: 'P-2' }],
    bonusTierDataCash: { amountRequired: 100000.5, quantityGiven: 2, productInternalCode: 'G-1', units: 6 },
    ...extra,
  }),
};

/** A batch body with the given items under one kind's node. */
export function batchOf(kind: Kind, items: unknown[]) {
  const { group, key } = NODES[kind];
  return { upsert: { [group]: { [key]: items } } };
}
