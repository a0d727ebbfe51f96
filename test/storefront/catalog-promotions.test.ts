// The catalog names each promotion a product takes part in with its tiers, in the shapes
// the promotion's own GET answers, so the web shop can show "from 3 boxes: 10 % off"
// without computing anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

const now = new Date('2026-03-10T15:00:00.000Z');
let t: TestApp;
let s: TestSupplier;
let token: string;
let storeId: number;
const ana = { phone: '+573001234599', name: 'Ana' };

async function batch(url: string, body: unknown) {
  const res = await as(t, s, 'POST', url, body);
  expect(res.statusCode, res.body).toBe(202);
  for (const st of await t.waitForBatches(s, res.json().batchId)) expect(st.failed, JSON.stringify(st)).toBe(0);
}
const app = (url: string) => t.request({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
const put = async (url: string, body: object) => expect((await as(t, s, 'PUT', url, body)).statusCode).toBe(200);
const dates = { start: '2026-03-01', end: '2026-03-31', enabled: true };

beforeAll(async () => {
  t = await createTestApp({ clock: { now: () => now } });
  s = await t.supplier();
  await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'Drinks' });
  await batch('/batch/brand', [{ internalCode: 'B', name: 'Brand' }]);
  await batch('/batch/product', { upsert: ['P1', 'P2', 'GIFT'].map((code) => ({ internalCode: code, name: `Product ${code}`, brandInternalCode: 'B', categoryInternalCode: 'C' })) });
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  await batch('/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda', priceListCode: 'PL' }] });
  await batch('/batch/pricelist', {
    upsert: { products: ['P1', 'P2', 'GIFT'].map((code) => ({ priceListInternalCode: 'PL', productInternalCode: code, units: 1, price: 1000 })) },
  });
  await put('/promotion/discount/simple', { internalCode: 'SIMPLE', name: 'From 3 boxes', ...dates, products: { internalCode: 'P1' }, discountTiersData: [{ min: 3, max: 9.5, discountPercentage: 10 }, { min: 10, discountAmount: 2500.25 }] });
  await put('/promotion/discount/multiple', { internalCode: 'CASH', name: 'Spend more', ...dates, products: [{ internalCode: 'P1' }, { internalCode: 'P2', boxRatio: 6 }], discountTiersDataCash: [{ min: 50000, discountPercentage: 5 }] });
  await put('/promotion/bonus/individual', { internalCode: 'IND', name: 'One free', ...dates, products: { internalCode: 'P2' }, bonusTierData: { quantityRequired: 5, quantityGiven: 1 } });
  await put('/promotion/bonus/crossed', { internalCode: 'CROSS', name: 'A gift', ...dates, products: [{ internalCode: 'P2' }], bonusTierDataCash: { amountRequired: 100000, quantityGiven: 2, units: 1, productInternalCode: 'GIFT' } });
  // Promotions naming P1 that do not take part for S1: only for a grouper S1 is not in, disabled, not started yet.
  await as(t, s, 'POST', '/grouper/promotion', { internalCode: 'VIP', name: 'VIP stores' });
  const onP1 = { products: { internalCode: 'P1' }, discountTiersData: [{ min: 1, discountPercentage: 50 }] };
  await put('/promotion/discount/simple', { internalCode: 'VIPONLY', name: 'VIP only', ...dates, promotionGrouperCodes: ['VIP'], ...onP1 });
  await put('/promotion/discount/simple', { internalCode: 'OFF', name: 'Switched off', ...dates, enabled: false, ...onP1 });
  await put('/promotion/discount/simple', { internalCode: 'LATER', name: 'Next month', ...dates, start: '2026-04-01', end: '2026-04-30', ...onP1 });
  await as(t, s, 'POST', '/store/S1/add/user', { users: [ana] });
  await t.request({ method: 'POST', url: '/app/auth/code', payload: { phone: ana.phone } });
  const exchanged = await t.request({ method: 'POST', url: '/app/auth/token', payload: { phone: ana.phone, code: await t.notifier.waitForCode(ana.phone) } });
  token = exchanged.json().access_token;
  storeId = (await app('/app/me')).json().stores[0].id;
});
afterAll(() => t.close());

const tierFields = ['discountTiersData', 'discountTiersDataCash', 'bonusTierData', 'bonusTierDataCash'] as const;

describe('promotions in the store catalog', () => {
  it('are those taking part for the store, with their tiers exactly as the promotion GET answers them', async () => {
    const res = await app(`/app/stores/${storeId}/catalog`);
    expect(res.statusCode, res.body).toBe(200);
    const byCode = new Map<string, any>(res.json().data.map((p: any) => [p.internalCode, p]));
    expect(byCode.get('P1').promotions.map((p: any) => p.internalCode).sort()).toEqual(['CASH', 'SIMPLE']);
    expect(byCode.get('P2').promotions.map((p: any) => p.internalCode).sort()).toEqual(['CASH', 'CROSS', 'IND']);
    expect(byCode.get('GIFT').promotions).toEqual([]);

    const shown = [...byCode.values()].flatMap((p) => p.promotions);
    for (const promo of shown) {
      const got = (await as(t, s, 'GET', `/promotion/${promo.internalCode}`)).json();
      const expected = { internalCode: got.internalCode, name: got.name, type: got.type, ...Object.fromEntries(tierFields.filter((k) => k in got).map((k) => [k, got[k]])) };
      expect(promo).toEqual(expected);
      // The same text, field order included: the schemas are shared.
      expect(JSON.stringify(promo)).toBe(JSON.stringify(expected));
    }
    expect(shown.find((p) => p.internalCode === 'SIMPLE')).toEqual({
      internalCode: 'SIMPLE', name: 'From 3 boxes', type: 'DISCOUNT_SIMPLE',
      discountTiersData: [{ min: 3, max: 9.5, discountPercentage: 10 }, { min: 10, discountAmount: 2500.25 }],
    });
    expect(shown.find((p) => p.internalCode === 'IND').bonusTierData).toEqual({ quantityRequired: 5, quantityGiven: 1, units: 1 });
  });
});
