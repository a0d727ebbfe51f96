// Promotion tenancy (another supplier's promotions answer as missing and never show in its
// lists; its products and groupers are unknown; codes are per supplier) and scopes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { batchOf, bodies, PATHS, runBatch, seed } from './fixtures.ts';

let t: TestApp;
let a: TestSupplier;
let b: TestSupplier;
beforeAll(async () => {
  t = await createTestApp();
  a = await t.supplier();
  b = await t.supplier();
  await seed(t, a, ['P-1', 'P-2', 'P-3', 'P-4', 'G-1', 'P-A-ONLY']);
  await seed(t, b);
  expect((await as(t, a, 'POST', '/grouper/promotion', { internalCode: 'SEG-A-ONLY', name: 'only A' })).statusCode).toBe(200);
  expect((await as(t, a, 'PUT', PATHS.simple, bodies.simple('PROMO-A', { promotionGrouperCodes: ['SEG-A'] }))).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('tenancy', () => {
  it("answers another supplier's promotion as missing and never lists it", async () => {
    for (const [method, url, body] of [
      ['GET', '/promotion/PROMO-A', undefined],
      ['PUT', '/promotion/PROMO-A/status', { enabled: false }],
    ] as const) {
      const res = await as(t, b, method, url, body);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    expect((await as(t, b, 'GET', '/promotion')).json()).toEqual({ data: [], page: 1, take: 50, total: 0, totalPages: 0 });
    expect((await as(t, a, 'GET', '/promotion/PROMO-A')).json()).toMatchObject({ enabled: true, promotionGrouperCodes: ['SEG-A'] });
  });

  it("refuses another supplier's products, gifts and groupers as unknown", async () => {
    const product = await as(t, b, 'PUT', PATHS.simple, bodies.simple('PROMO-B', { products: { internalCode: 'P-A-ONLY' } }));
    expect(product.statusCode).toBe(400);
    expect(product.json()).toMatchObject({ code: 'UNKNOWN_PRODUCT', errors: [{ pointer: '/products/internalCode', code: 'UNKNOWN_PRODUCT' }] });
    const gift = await as(t, b, 'PUT', PATHS.crossed, bodies.crossed('PROMO-B', { bonusTierDataCash: { amountRequired: 1, quantityGiven: 1, productInternalCode: 'P-A-ONLY' } }));
    expect(gift.json()).toMatchObject({ code: 'UNKNOWN_PRODUCT', errors: [{ pointer: '/bonusTierDataCash/productInternalCode' }] });
    const grouper = await as(t, b, 'PUT', PATHS.simple, bodies.simple('PROMO-B', { promotionGrouperCodes: ['SEG-A-ONLY'] }));
    expect(grouper.json()).toMatchObject({ code: 'UNKNOWN_GROUPER', errors: [{ pointer: '/promotionGrouperCodes/0' }] });

    const { detail } = await runBatch(t, b, '/batch/promotion', batchOf('multiple', [bodies.multiple('PROMO-B', { products: [{ internalCode: 'P-1' }, { internalCode: 'P-A-ONLY' }] })]));
    expect(detail[0]).toMatchObject({ status: 'failed', errorCode: 'UNKNOWN_PRODUCT' });
    expect((await as(t, b, 'GET', '/promotion/PROMO-B')).statusCode).toBe(404);
  });

  it('lets both suppliers use the same promotion code independently; removing one leaves the other', async () => {
    const res = await as(t, b, 'PUT', PATHS.individual, bodies.individual('SHARED', { name: 'B shared' }));
    expect(res.statusCode, res.body).toBe(200);
    expect((await as(t, a, 'PUT', PATHS.simple, bodies.simple('SHARED', { name: 'A shared' }))).statusCode).toBe(200);
    expect((await as(t, b, 'GET', '/promotion/SHARED')).json()).toMatchObject({ name: 'B shared', type: 'BONUS_INDIVIDUAL' });
    expect((await as(t, a, 'GET', '/promotion/SHARED')).json()).toMatchObject({ name: 'A shared', type: 'DISCOUNT_SIMPLE' });

    const { detail } = await runBatch(t, b, '/batch/promotion', { remove: { internalCodes: ['SHARED', 'PROMO-A'] } });
    expect(detail.map((d: any) => [d.code, d.message])).toEqual([
      ['SHARED', null],
      ['PROMO-A', 'promotion PROMO-A does not exist; nothing to remove'],
    ]);
    expect((await as(t, b, 'GET', '/promotion/SHARED')).statusCode).toBe(404);
    expect((await as(t, a, 'GET', '/promotion/SHARED')).statusCode).toBe(200);
    expect((await as(t, a, 'GET', '/promotion/PROMO-A')).statusCode).toBe(200);
    expect((await as(t, a, 'GET', '/promotion')).json().data.map((p: any) => p.internalCode)).toEqual(['PROMO-A', 'SHARED']);
  });
});

describe('scopes', () => {
  const routes = [
    ['GET', '/promotion', undefined, 'supplier/promotion.read'],
    ['GET', '/promotion/PROMO-A', undefined, 'supplier/promotion.read'],
    ['PUT', PATHS.simple, bodies.simple('SC-1'), 'supplier/promotion.write'],
    ['PUT', PATHS.multiple, bodies.multiple('SC-1'), 'supplier/promotion.write'],
    ['PUT', PATHS.individual, bodies.individual('SC-1'), 'supplier/promotion.write'],
    ['PUT', PATHS.crossed, bodies.crossed('SC-1'), 'supplier/promotion.write'],
    ['PUT', '/promotion/PROMO-A/status', { enabled: true }, 'supplier/promotion.write'],
    ['POST', '/batch/promotion', { remove: { internalCodes: ['SC-1'] } }, 'supplier/promotion.bulkwrite'],
  ] as const;

  it('answers 403 naming the missing scope', async () => {
    // Every promotion scope but the one each route needs.
    const all = ['supplier/promotion.read', 'supplier/promotion.write', 'supplier/promotion.bulkwrite', 'supplier/batch.read'];
    for (const [method, url, body, scope] of routes) {
      const limited = await t.supplier(undefined, all.filter((x) => x !== scope));
      const res = await as(t, limited, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('INSUFFICIENT_SCOPE');
      expect(res.json().detail).toContain(scope);
    }
  });

  it('lets each scope do its part', async () => {
    const reader = await t.supplier(undefined, ['supplier/promotion.read']);
    const writer = await t.supplier(undefined, ['supplier/promotion.write', 'supplier/catalog.write', 'supplier/catalog.bulkwrite', 'supplier/grouper.write', 'supplier/batch.read']);
    await seed(t, writer);
    expect((await as(t, writer, 'PUT', PATHS.simple, bodies.simple('SC-W'))).statusCode).toBe(200);
    expect((await as(t, writer, 'GET', '/promotion/SC-W')).statusCode).toBe(403);
    expect((await as(t, reader, 'GET', '/promotion')).statusCode).toBe(200);
    expect((await as(t, reader, 'PUT', PATHS.simple, bodies.simple('SC-R'))).statusCode).toBe(403);
  });
});
