// Discount tiers without `max` anywhere (issue 13): such a tier runs up to the `min` of the
// next tier by `min` (excluded), and the highest one without `max` has no bound. Written
// through the PUT endpoints and POST /batch/promotion, read back with `max` only where it
// was sent, and priced by the store's cart preview through HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { runBatch } from './fixtures.ts';

let t: TestApp;
let s: TestSupplier;
let token: string;
let storeId: number;

async function batch(url: string, body: unknown) {
  const { status } = await runBatch(t, s, url, body);
  expect(status.failed, JSON.stringify(status)).toBe(0);
}

const promo = (internalCode: string, product: string, tiers: Record<string, unknown>) => ({
  internalCode,
  name: internalCode,
  start: '2026-01-01',
  end: '2099-12-31',
  enabled: true,
  products: { internalCode: product },
  ...tiers,
});

// Written out of order; no max but on the middle one: 2.. up to 10 (excl.), 10..14, a gap, 20.. open.
const QUANTITY_TIERS = [
  { min: 20, discountPercentage: 15 },
  { min: 2, discountPercentage: 5 },
  { min: 10, max: 14, discountPercentage: 10 },
];
// Amounts: 100.. up to 500 (excl.), 500.. open.
const CASH_TIERS = [{ min: 500, discountAmount: 60 }, { min: 100, discountAmount: 10 }];

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'All' });
  await batch('/batch/brand', [{ internalCode: 'B', name: 'Brand' }]);
  await batch('/batch/product', { upsert: ['QTY', 'CASH', 'BATCHED'].map((code) => ({ internalCode: code, name: code, brandInternalCode: 'B', categoryInternalCode: 'C' })) });
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  await batch('/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda', priceListCode: 'PL' }] });
  await batch('/batch/pricelist', {
    upsert: { products: ['QTY', 'CASH', 'BATCHED'].map((code) => ({ priceListInternalCode: 'PL', productInternalCode: code, units: 1, price: code === 'CASH' ? 0.01 : 100 })) },
  });
  await as(t, s, 'POST', '/store/S1/add/user', { users: [{ phone: '+573005551414' }] });
  token = (await t.admin('POST', '/admin/store-users/token', { phone: '+573005551414' })).json().access_token;
  storeId = (await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token}` } })).json().stores[0].id;
});
afterAll(() => t.close());

/** The discount the cart preview gives on `quantity` packages of `product`. */
async function preview(product: string, quantity: number) {
  const res = await t.request({
    method: 'POST',
    url: `/app/stores/${storeId}/cart`,
    headers: { authorization: `Bearer ${token}` },
    payload: { lines: [{ productInternalCode: product, units: 1, quantity }] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { discountTotal: number; discounts: { promoInternalCode: string; appliedDiscountPercentage: number | null }[] };
}

describe('tiers without max', () => {
  it('PUT accepts them on any tier, and GET answers max only where it was sent', async () => {
    const res = await as(t, s, 'PUT', '/promotion/discount/simple', promo('Q-OPEN', 'QTY', { discountTiersData: QUANTITY_TIERS }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().discountTiersData).toEqual(QUANTITY_TIERS);
    expect((await as(t, s, 'GET', '/promotion/Q-OPEN')).json().discountTiersData).toEqual(QUANTITY_TIERS);
    const cash = await as(t, s, 'PUT', '/promotion/discount/multiple', { ...promo('C-OPEN', 'CASH', { discountTiersDataCash: CASH_TIERS }), products: [{ internalCode: 'CASH' }] });
    expect(cash.statusCode, cash.body).toBe(200);
    expect((await as(t, s, 'GET', '/promotion/C-OPEN')).json().discountTiersDataCash).toEqual(CASH_TIERS);
  });

  it('the cart preview prices a quantity tier up to the next min, a gap, and the open highest tier', async () => {
    const at = async (quantity: number) => (await preview('QTY', quantity)).discounts.find((d) => d.promoInternalCode === 'Q-OPEN')?.appliedDiscountPercentage ?? null;
    const seen = [];
    for (const quantity of [1, 2, 9, 10, 14, 15, 19, 20, 500]) seen.push(await at(quantity));
    expect(seen).toEqual([null, 5, 5, 10, 10, null, null, 15, 15]);
  });

  it('the cart preview prices an amount tier up to the next min, excluded', async () => {
    // A package costs 0.01: 49,999 of them are 499.99, below the next tier's 500.
    const total = async (quantity: number) => (await preview('CASH', quantity)).discountTotal;
    expect(await total(9_999)).toBe(0);
    expect(await total(10_000)).toBe(10);
    expect(await total(49_999)).toBe(10);
    expect(await total(50_000)).toBe(60);
  });

  it('POST /batch/promotion accepts them too, and fails only the item whose tiers overlap', async () => {
    const { status, detail } = await runBatch(t, s, '/batch/promotion', {
      upsert: {
        discount: {
          simple: [
            promo('B-OPEN', 'BATCHED', { discountTiersData: [{ min: 10, discountPercentage: 10 }, { min: 1, discountPercentage: 1 }] }),
            promo('B-SAME-MIN', 'BATCHED', { discountTiersData: [{ min: 1, discountPercentage: 1 }, { min: 1, discountPercentage: 2 }] }),
            promo('B-INSIDE', 'BATCHED', { discountTiersData: [{ min: 1, max: 10, discountPercentage: 1 }, { min: 5, discountPercentage: 2 }] }),
          ],
        },
      },
    });
    expect(status).toMatchObject({ completed: 1, failed: 2 });
    expect(detail.map((d: { code: string; errorCode: string | null }) => `${d.code} ${d.errorCode}`)).toEqual(['B-OPEN null', 'B-SAME-MIN OVERLAPPING_TIERS', 'B-INSIDE OVERLAPPING_TIERS']);
    expect((await as(t, s, 'GET', '/promotion/B-OPEN')).json().discountTiersData).toEqual([{ min: 10, discountPercentage: 10 }, { min: 1, discountPercentage: 1 }]);
    expect((await as(t, s, 'GET', '/promotion/B-SAME-MIN')).statusCode).toBe(404);
    const pct = async (quantity: number) => (await preview('BATCHED', quantity)).discounts.find((d) => d.promoInternalCode === 'B-OPEN')?.appliedDiscountPercentage;
    expect([await pct(9), await pct(10)]).toEqual([1, 10]);
  });

  it('PUT still refuses overlapping tiers, naming the tier', async () => {
    const res = await as(t, s, 'PUT', '/promotion/discount/simple', promo('Q-BAD', 'QTY', { discountTiersData: [{ min: 0, max: 5, discountPercentage: 1 }, { min: 5, discountPercentage: 2 }] }));
    expect(res.json()).toMatchObject({ status: 400, code: 'OVERLAPPING_TIERS', errors: [{ pointer: '/discountTiersData/1' }] });
  });
});
