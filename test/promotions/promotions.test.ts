// The four PUT endpoints, GET /promotion/{code} and PUT /promotion/{code}/status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { bodies, PATHS, seed, stamps } from './fixtures.ts';

let t: TestApp;
let s: TestSupplier;
// A fixed day inside the fixtures' March 2026, so `active` is known.
let now = new Date('2026-03-15T12:00:00Z');
const clock = { now: () => now };
beforeAll(async () => {
  t = await createTestApp({ clock, env: { TOKEN_TTL_SECONDS: String(365 * 24 * 3600) } });
  s = await t.supplier();
  await seed(t, s);
});
afterAll(() => t.close());

const put = (path: string, body: unknown) => as(t, s, 'PUT', path, body);
const get = (code: string) => as(t, s, 'GET', `/promotion/${encodeURIComponent(code)}`);

describe('PUT /promotion/...', () => {
  it('creates a simple discount and answers it as GET does', async () => {
    const res = await put(PATHS.simple, bodies.simple('S-1', { title: 'Cola deal', description: 'Buy more, pay less', image: 'https://cdn.example/cola.png', promotionGrouperCodes: ['SEG-B', 'SEG-A'] }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      internalCode: 'S-1',
      name: 'Promo S-1',
      title: 'Cola deal',
      description: 'Buy more, pay less',
      image: 'https://cdn.example/cola.png',
      // No image worker runs in this file: the image waits to be processed.
      imageUrls: null,
      imageStatus: 'pending',
      imageError: null,
      enabled: true,
      start: '2026-03-01',
      end: '2026-03-31',
      type: 'DISCOUNT_SIMPLE',
      products: [{ internalCode: 'P-1', boxRatio: 12 }],
      discountTiersData: [
        { min: 2, max: 4, discountPercentage: 5 },
        { min: 5, discountPercentage: 10 },
      ],
      promotionGrouperCodes: ['SEG-A', 'SEG-B'],
      active: true,
      ...stamps,
    });
    const got = await get('S-1');
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(res.json());
  });

  it('creates a multiple discount with amount tiers, keeping money exact', async () => {
    const res = await put(PATHS.multiple, bodies.multiple('M-1'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      internalCode: 'M-1',
      name: 'Promo M-1',
      title: null,
      description: null,
      image: null,
      imageUrls: null,
      imageStatus: null,
      imageError: null,
      enabled: true,
      start: '2026-03-01',
      end: '2026-03-31',
      type: 'DISCOUNT_MULTIPLE',
      products: [{ internalCode: 'P-2', boxRatio: 1 }, { internalCode: 'P-3', boxRatio: 0.5 }],
      discountTiersDataCash: [
        { min: 10000, max: 49999.99, discountPercentage: 2.5 },
        { min: 50000, discountAmount: 1234.5678 },
      ],
      promotionGrouperCodes: [],
      active: true,
      ...stamps,
    });
    // Stored as exact decimals, not binary floats.
    const row = await t.deps.db.selectFrom('promotions').select(['tiers']).where('supplier_id', '=', s.id).where('internal_code', '=', 'M-1').executeTakeFirstOrThrow();
    expect(JSON.stringify(row.tiers)).toContain('49999.99');
    const ratio = await t.deps.db.selectFrom('promotion_products').select('box_ratio').where('supplier_id', '=', s.id).where('box_ratio', '<', '1').executeTakeFirstOrThrow();
    expect(ratio.box_ratio).toBe('0.5000');
  });

  it('creates an individual bonus (units default 1) and a crossed bonus with a gift', async () => {
    const individual = await put(PATHS.individual, bodies.individual('I-1', { bonusTierData: { quantityRequired: 10, quantityGiven: 2 } }));
    expect(individual.statusCode, individual.body).toBe(200);
    expect(individual.json()).toMatchObject({
      type: 'BONUS_INDIVIDUAL',
      products: [{ internalCode: 'P-4', boxRatio: 1 }],
      bonusTierData: { quantityRequired: 10, quantityGiven: 2, units: 1 },
    });
    expect(individual.json()).not.toHaveProperty('bonusTierDataCash');
    expect(individual.json()).not.toHaveProperty('discountTiersData');

    const crossed = await put(PATHS.crossed, bodies.crossed('X-1'));
    expect(crossed.statusCode, crossed.body).toBe(200);
    expect(crossed.json()).toMatchObject({
      type: 'BONUS_CROSSED',
      products: [
        { internalCode: 'P-1', boxRatio: 1 },
        { internalCode: 'P-2', boxRatio: 1 },
      ],
      bonusTierDataCash: { amountRequired: 100000.5, quantityGiven: 2, productInternalCode: 'G-1', units: 6 },
    });
    expect(crossed.json()).not.toHaveProperty('bonusTierData');
  });

  it('accepts a one-item array as the product of a simple discount and an individual bonus', async () => {
    const simple = await put(PATHS.simple, bodies.simple('S-ARR', { products: [{ internalCode: 'P-2', boxRatio: 6 }] }));
    expect(simple.statusCode, simple.body).toBe(200);
    expect(simple.json().products).toEqual([{ internalCode: 'P-2', boxRatio: 6 }]);
    const individual = await put(PATHS.individual, bodies.individual('I-ARR', { products: [{ internalCode: 'P-3' }] }));
    expect(individual.statusCode, individual.body).toBe(200);
    expect(individual.json().products).toEqual([{ internalCode: 'P-3', boxRatio: 1 }]);
  });

  it('replaces the promotion on a second PUT, keeping createdAt; absent optional fields become null', async () => {
    const first = (await put(PATHS.multiple, bodies.multiple('M-R', { title: 'Old', image: 'https://cdn.example/a.png' }))).json();
    now = new Date(now.getTime() + 1000);
    const res = await put(
      PATHS.multiple,
      bodies.multiple('M-R', { name: 'Renamed', products: [{ internalCode: 'P-4' }], discountTiersData: [{ min: 1, discountAmount: 5 }], discountTiersDataCash: undefined }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const second = res.json();
    expect(second).toMatchObject({ name: 'Renamed', title: null, image: null, products: [{ internalCode: 'P-4', boxRatio: 1 }], discountTiersData: [{ min: 1, discountAmount: 5 }] });
    expect(second).not.toHaveProperty('discountTiersDataCash');
    expect(second.createdAt).toBe(first.createdAt);
    expect(second.updatedAt >= first.updatedAt).toBe(true);
  });

  it('writing a code through another type changes its type', async () => {
    expect((await put(PATHS.simple, bodies.simple('T-1', { promotionGrouperCodes: ['SEG-A'] }))).statusCode).toBe(200);
    const crossed = await put(PATHS.crossed, bodies.crossed('T-1'));
    expect(crossed.statusCode, crossed.body).toBe(200);
    expect(crossed.json()).toMatchObject({ type: 'BONUS_CROSSED', bonusTierDataCash: { productInternalCode: 'G-1' }, promotionGrouperCodes: ['SEG-A'] });
    expect(crossed.json()).not.toHaveProperty('discountTiersData');
    const individual = await put(PATHS.individual, bodies.individual('T-1'));
    expect(individual.json()).toMatchObject({ type: 'BONUS_INDIVIDUAL', products: [{ internalCode: 'P-4', boxRatio: 1 }], bonusTierData: { quantityRequired: 10 } });
    expect((await get('T-1')).json().type).toBe('BONUS_INDIVIDUAL');
  });

  it('keeps the grouper set when promotionGrouperCodes is absent and replaces it when present', async () => {
    expect((await put(PATHS.simple, bodies.simple('G-SET', { promotionGrouperCodes: ['SEG-A'] }))).json().promotionGrouperCodes).toEqual(['SEG-A']);
    expect((await put(PATHS.simple, bodies.simple('G-SET', { name: 'no groupers field' }))).json()).toMatchObject({ name: 'no groupers field', promotionGrouperCodes: ['SEG-A'] });
    expect((await put(PATHS.simple, bodies.simple('G-SET', { promotionGrouperCodes: ['SEG-B', 'SEG-B'] }))).json().promotionGrouperCodes).toEqual(['SEG-B']);
    expect((await put(PATHS.simple, bodies.simple('G-SET', { promotionGrouperCodes: [] }))).json().promotionGrouperCodes).toEqual([]);
    expect((await put(PATHS.simple, bodies.simple('G-SET'))).json().promotionGrouperCodes).toEqual([]);
  });

  it('ignores unknown fields, including the tier fields of other types', async () => {
    const res = await put(PATHS.simple, bodies.simple('U-1', { colour: 'red', bonusTierData: { quantityRequired: 1, quantityGiven: 1 }, products: { internalCode: 'P-1', extra: 1 } }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).not.toHaveProperty('colour');
    expect(res.json()).not.toHaveProperty('bonusTierData');
    expect(res.json().products).toEqual([{ internalCode: 'P-1', boxRatio: 1 }]);
  });

  it('treats codes as case-sensitive', async () => {
    expect((await put(PATHS.simple, bodies.simple('case', { name: 'lower' }))).statusCode).toBe(200);
    expect((await put(PATHS.simple, bodies.simple('CASE', { name: 'upper' }))).statusCode).toBe(200);
    expect((await get('case')).json().name).toBe('lower');
    expect((await get('CASE')).json().name).toBe('upper');
  });

  it('routes codes that look like the write paths to the promotion', async () => {
    expect((await put(PATHS.simple, bodies.simple('discount'))).statusCode).toBe(200);
    const res = await put('/promotion/discount/status', { enabled: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ internalCode: 'discount', enabled: false });
  });

  it('needs supplier/promotion.write to write and is idempotent with a key', async () => {
    const body = bodies.simple('IDEM');
    const first = await as(t, s, 'PUT', PATHS.simple, body, { 'idempotency-key': 'promo-idem-1' });
    const again = await as(t, s, 'PUT', PATHS.simple, body, { 'idempotency-key': 'promo-idem-1' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});

describe('GET /promotion/{code}', () => {
  it('answers 404 for an unknown code', async () => {
    const res = await get('NOPE');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND', errors: [{ pointer: '/params/code', code: 'NOT_FOUND' }] });
  });
});

describe('PUT /promotion/{code}/status', () => {
  it('disables and enables, answering the promotion with active following enabled', async () => {
    expect((await put(PATHS.individual, bodies.individual('ST-1', { promotionGrouperCodes: ['SEG-A'] }))).statusCode).toBe(200);
    const off = await put('/promotion/ST-1/status', { enabled: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ internalCode: 'ST-1', enabled: false, active: false, type: 'BONUS_INDIVIDUAL', promotionGrouperCodes: ['SEG-A'], ...stamps });
    expect((await get('ST-1')).json()).toEqual(off.json());
    const on = await put('/promotion/ST-1/status', { enabled: true });
    expect(on.json()).toMatchObject({ enabled: true, active: true, bonusTierData: { quantityRequired: 10, quantityGiven: 1, units: 1 } });
  });

  it('answers 404 for an unknown code and 400 for a bad body', async () => {
    expect((await put('/promotion/NOPE/status', { enabled: false })).statusCode).toBe(404);
    const bad = await put('/promotion/ST-1/status', { enabled: 'no' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'INVALID_TYPE', errors: [{ pointer: '/enabled', code: 'INVALID_TYPE' }] });
  });
});
