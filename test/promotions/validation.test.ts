// Every validation rule of the promotions README, on the PUT endpoints (400 with pointers) and in
// POST /batch/promotion. A problem the schema sees in one field (format, range, type) is
// structure: in a batch it refuses the whole request (402) with the same code. A rule
// between fields or a reference (tiers, dates, exclusive fields, unknown products and
// groupers) fails only its item, with the code the PUT answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { batchOf, bodies, NODES, PATHS, runBatch, seed, type Kind } from './fixtures.ts';

let t: TestApp;
let s: TestSupplier;
beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  await seed(t, s);
});
afterAll(() => t.close());

interface Case {
  name: string;
  kind: Kind;
  extra: Record<string, unknown>;
  code: string;
  pointers: string[];
}

const tiers = (...list: Record<string, unknown>[]) => ({ discountTiersData: list });

/** Problems between fields and references: 400 on PUT, a failed item in a batch. */
const ruleCases: Case[] = [
  { name: 'end equal to start', kind: 'simple', extra: { start: '2026-03-01', end: '2026-03-01' }, code: 'INVALID_DATE_RANGE', pointers: ['/end'] },
  { name: 'end before start', kind: 'crossed', extra: { start: '2026-03-02', end: '2026-02-28' }, code: 'INVALID_DATE_RANGE', pointers: ['/end'] },
  {
    name: 'quantity and amount discount tiers together',
    kind: 'multiple',
    extra: tiers({ min: 1, discountPercentage: 5 }),
    code: 'MUTUALLY_EXCLUSIVE',
    pointers: ['/discountTiersData', '/discountTiersDataCash'],
  },
  {
    name: 'quantity and amount bonus tiers together',
    kind: 'individual',
    extra: { bonusTierDataCash: { amountRequired: 100, quantityGiven: 1 } },
    code: 'MUTUALLY_EXCLUSIVE',
    pointers: ['/bonusTierData', '/bonusTierDataCash'],
  },
  { name: 'no discount tier field', kind: 'simple', extra: { discountTiersData: undefined }, code: 'REQUIRED', pointers: ['/discountTiersData'] },
  { name: 'no bonus tier field', kind: 'crossed', extra: { bonusTierDataCash: undefined }, code: 'REQUIRED', pointers: ['/bonusTierData'] },
  {
    name: 'percentage and amount in one tier',
    kind: 'simple',
    extra: tiers({ min: 1, max: 5, discountPercentage: 5 }, { min: 6, discountPercentage: 5, discountAmount: 10 }),
    code: 'MUTUALLY_EXCLUSIVE',
    pointers: ['/discountTiersData/1/discountPercentage', '/discountTiersData/1/discountAmount'],
  },
  { name: 'a tier with no benefit', kind: 'simple', extra: tiers({ min: 1 }), code: 'REQUIRED', pointers: ['/discountTiersData/0/discountPercentage'] },
  { name: 'max below min', kind: 'simple', extra: tiers({ min: 10, max: 9, discountPercentage: 5 }), code: 'OUT_OF_RANGE', pointers: ['/discountTiersData/0/max'] },
  {
    name: 'tiers sharing a bound',
    kind: 'simple',
    extra: tiers({ min: 5, discountPercentage: 10 }, { min: 1, max: 5, discountPercentage: 5 }),
    code: 'OVERLAPPING_TIERS',
    pointers: ['/discountTiersData/0'],
  },
  {
    name: 'a tier inside a wide one',
    kind: 'multiple',
    extra: { discountTiersDataCash: [{ min: 0, max: 1000, discountAmount: 1 }, { min: 10, max: 20, discountAmount: 2 }, { min: 2000, discountAmount: 3 }] },
    code: 'OVERLAPPING_TIERS',
    pointers: ['/discountTiersDataCash/1'],
  },
  {
    name: 'two tiers without max at the same min',
    kind: 'simple',
    extra: tiers({ min: 1, discountPercentage: 5 }, { min: 10, discountPercentage: 10 }, { min: 1, discountPercentage: 7 }),
    code: 'OVERLAPPING_TIERS',
    pointers: ['/discountTiersData/2'],
  },
  {
    name: 'a tier without max starting inside a bounded one',
    kind: 'multiple',
    extra: { discountTiersDataCash: [{ min: 0, max: 100, discountAmount: 1 }, { min: 50, discountAmount: 2 }, { min: 200, discountAmount: 3 }] },
    code: 'OVERLAPPING_TIERS',
    pointers: ['/discountTiersDataCash/1'],
  },
  { name: 'unknown product (object)', kind: 'simple', extra: { products: { internalCode: 'P-NOPE' } }, code: 'UNKNOWN_PRODUCT', pointers: ['/products/internalCode'] },
  { name: 'unknown product (one-item array)', kind: 'individual', extra: { products: [{ internalCode: 'P-NOPE' }] }, code: 'UNKNOWN_PRODUCT', pointers: ['/products/0/internalCode'] },
  {
    name: 'unknown product in a list',
    kind: 'multiple',
    extra: { products: [{ internalCode: 'P-1' }, { internalCode: 'p-1' }] },
    code: 'UNKNOWN_PRODUCT',
    pointers: ['/products/1/internalCode'],
  },
  {
    name: 'unknown gift',
    kind: 'crossed',
    extra: { bonusTierDataCash: undefined, bonusTierData: { quantityRequired: 6, quantityGiven: 1, productInternalCode: 'G-NOPE' } },
    code: 'UNKNOWN_PRODUCT',
    pointers: ['/bonusTierData/productInternalCode'],
  },
  { name: 'unknown grouper', kind: 'multiple', extra: { promotionGrouperCodes: ['SEG-A', 'SEG-NOPE'] }, code: 'UNKNOWN_GROUPER', pointers: ['/promotionGrouperCodes/1'] },
  { name: 'a stock grouper is no promotion grouper', kind: 'individual', extra: { promotionGrouperCodes: ['W-1'] }, code: 'UNKNOWN_GROUPER', pointers: ['/promotionGrouperCodes/0'] },
  {
    name: 'a product listed twice',
    kind: 'crossed',
    extra: { products: [{ internalCode: 'P-1' }, { internalCode: 'P-2' }, { internalCode: 'P-1', boxRatio: 2 }] },
    code: 'DUPLICATE_PRODUCT',
    pointers: ['/products/2/internalCode'],
  },
];

/** Problems of one field: 400 on PUT, 402 for the whole batch request, same code. */
const schemaCases: Case[] = [
  { name: 'a date that does not exist', kind: 'simple', extra: { start: '2026-02-30' }, code: 'INVALID_FORMAT', pointers: ['/start'] },
  { name: 'a date not as YYYY-MM-DD', kind: 'crossed', extra: { end: '2026-3-31' }, code: 'INVALID_FORMAT', pointers: ['/end'] },
  { name: 'a timestamp for a date', kind: 'multiple', extra: { end: '2026-03-31T00:00:00Z' }, code: 'INVALID_FORMAT', pointers: ['/end'] },
  { name: 'no tiers at all', kind: 'simple', extra: tiers(), code: 'INVALID_LENGTH', pointers: ['/discountTiersData'] },
  { name: 'min below 0', kind: 'simple', extra: tiers({ min: -1, discountPercentage: 5 }), code: 'OUT_OF_RANGE', pointers: ['/discountTiersData/0/min'] },
  { name: 'percentage 0', kind: 'simple', extra: tiers({ min: 1, discountPercentage: 0 }), code: 'OUT_OF_RANGE', pointers: ['/discountTiersData/0/discountPercentage'] },
  { name: 'percentage over 100', kind: 'simple', extra: tiers({ min: 1, discountPercentage: 100.01 }), code: 'OUT_OF_RANGE', pointers: ['/discountTiersData/0/discountPercentage'] },
  { name: 'amount 0', kind: 'multiple', extra: { discountTiersDataCash: [{ min: 1, discountAmount: 0 }] }, code: 'OUT_OF_RANGE', pointers: ['/discountTiersDataCash/0/discountAmount'] },
  { name: 'amount with 5 decimals', kind: 'multiple', extra: { discountTiersDataCash: [{ min: 1, discountAmount: 1.00001 }] }, code: 'INVALID_PRECISION', pointers: ['/discountTiersDataCash/0/discountAmount'] },
  { name: 'quantityRequired 0', kind: 'individual', extra: { bonusTierData: { quantityRequired: 0, quantityGiven: 1 } }, code: 'OUT_OF_RANGE', pointers: ['/bonusTierData/quantityRequired'] },
  { name: 'quantityGiven not whole', kind: 'individual', extra: { bonusTierData: { quantityRequired: 1, quantityGiven: 1.5 } }, code: 'INVALID_TYPE', pointers: ['/bonusTierData/quantityGiven'] },
  { name: 'units 0', kind: 'crossed', extra: { bonusTierDataCash: { amountRequired: 1, quantityGiven: 1, units: 0, productInternalCode: 'G-1' } }, code: 'OUT_OF_RANGE', pointers: ['/bonusTierDataCash/units'] },
  { name: 'amountRequired 0', kind: 'crossed', extra: { bonusTierDataCash: { amountRequired: 0, quantityGiven: 1, productInternalCode: 'G-1' } }, code: 'OUT_OF_RANGE', pointers: ['/bonusTierDataCash/amountRequired'] },
  { name: 'a crossed bonus without its gift', kind: 'crossed', extra: { bonusTierDataCash: { amountRequired: 1, quantityGiven: 1 } }, code: 'REQUIRED', pointers: ['/bonusTierDataCash/productInternalCode'] },
  { name: 'boxRatio 0 (object)', kind: 'simple', extra: { products: { internalCode: 'P-1', boxRatio: 0 } }, code: 'OUT_OF_RANGE', pointers: ['/products/boxRatio'] },
  { name: 'boxRatio below 0 (one-item array)', kind: 'individual', extra: { products: [{ internalCode: 'P-1', boxRatio: -2 }] }, code: 'OUT_OF_RANGE', pointers: ['/products/0/boxRatio'] },
  { name: 'boxRatio 0 (list)', kind: 'multiple', extra: { products: [{ internalCode: 'P-2' }, { internalCode: 'P-3', boxRatio: 0 }] }, code: 'OUT_OF_RANGE', pointers: ['/products/1/boxRatio'] },
  { name: 'a product without its code', kind: 'simple', extra: { products: { boxRatio: 2 } }, code: 'REQUIRED', pointers: ['/products/internalCode'] },
  { name: 'two products for a simple discount', kind: 'simple', extra: { products: [{ internalCode: 'P-1' }, { internalCode: 'P-2' }] }, code: 'TOO_MANY_ITEMS', pointers: ['/products'] },
  { name: 'products neither object nor array', kind: 'individual', extra: { products: 'P-1' }, code: 'INVALID_TYPE', pointers: ['/products'] },
  { name: 'an object for a multiple discount', kind: 'multiple', extra: { products: { internalCode: 'P-1' } }, code: 'INVALID_TYPE', pointers: ['/products'] },
  { name: 'no products for a crossed bonus', kind: 'crossed', extra: { products: [] }, code: 'INVALID_LENGTH', pointers: ['/products'] },
  { name: 'a missing name', kind: 'multiple', extra: { name: undefined }, code: 'REQUIRED', pointers: ['/name'] },
  { name: 'enabled not boolean', kind: 'simple', extra: { enabled: 'yes' }, code: 'INVALID_TYPE', pointers: ['/enabled'] },
  { name: 'an image that is not http(s)', kind: 'crossed', extra: { image: 'ftp://example.com/a.png' }, code: 'INVALID_FORMAT', pointers: ['/image'] },
];

let seq = 0;
const bodyOf = (c: Case) => bodies[c.kind](`V-${++seq}`, c.extra);

describe('PUT: one problem answers 400 with its own code and pointers, and stores nothing', () => {
  for (const c of [...ruleCases, ...schemaCases]) {
    it(`${c.kind}: ${c.name} → ${c.code}`, async () => {
      const body = bodyOf(c);
      const res = await as(t, s, 'PUT', PATHS[c.kind], body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      const problem = res.json();
      expect(problem.code).toBe(c.code);
      expect(problem.errors.map((e: any) => [e.pointer, e.code])).toEqual(c.pointers.map((p) => [p, c.code]));
      expect((await as(t, s, 'GET', `/promotion/${body.internalCode}`)).statusCode).toBe(404);
    });
  }

  it('accepts the edges: max equal to min, percentage 100, end the day after start, tiers with a gap', async () => {
    const res = await as(t, s, 'PUT', PATHS.simple, bodies.simple('EDGES', {
      start: '2026-12-31',
      end: '2027-01-01',
      discountTiersData: [{ min: 10, max: 10, discountPercentage: 100 }, { min: 0, max: 9.5, discountAmount: 0.0001 }, { min: 10.0001, discountPercentage: 0.0001 }],
    }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().discountTiersData).toEqual([{ min: 10, max: 10, discountPercentage: 100 }, { min: 0, max: 9.5, discountAmount: 0.0001 }, { min: 10.0001, discountPercentage: 0.0001 }]);
  });

  it('several problems answer VALIDATION_FAILED with each one', async () => {
    const res = await as(t, s, 'PUT', PATHS.crossed, bodies.crossed('MANY', {
      end: '2026-01-01',
      products: [{ internalCode: 'P-NOPE' }],
      bonusTierDataCash: { amountRequired: 5, quantityGiven: 1, productInternalCode: 'G-NOPE' },
      promotionGrouperCodes: ['SEG-NOPE'],
    }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', detail: '4 problems found in the request' });
    expect(res.json().errors.map((e: any) => [e.pointer, e.code])).toEqual([
      ['/end', 'INVALID_DATE_RANGE'],
      ['/products/0/internalCode', 'UNKNOWN_PRODUCT'],
      ['/bonusTierDataCash/productInternalCode', 'UNKNOWN_PRODUCT'],
      ['/promotionGrouperCodes/0', 'UNKNOWN_GROUPER'],
    ]);
  });

  it('a refused update leaves the promotion as it was', async () => {
    expect((await as(t, s, 'PUT', PATHS.simple, bodies.simple('KEEP', { promotionGrouperCodes: ['SEG-A'] }))).statusCode).toBe(200);
    const res = await as(t, s, 'PUT', PATHS.simple, bodies.simple('KEEP', { name: 'changed', promotionGrouperCodes: ['SEG-NOPE'] }));
    expect(res.statusCode).toBe(400);
    expect((await as(t, s, 'GET', '/promotion/KEEP')).json()).toMatchObject({ name: 'Promo KEEP', promotionGrouperCodes: ['SEG-A'] });
  });
});

describe('POST /batch/promotion', () => {
  it('fails each item that breaks a rule with the code the PUT answers, applying the valid ones', async () => {
    const failing = ruleCases.map((c) => ({ c, body: bodyOf(c) }));
    const valid = (['simple', 'multiple', 'individual', 'crossed'] as Kind[]).map((kind) => ({ kind, body: bodies[kind](`OK-${kind}`) }));
    const all = [...failing.map((f) => ({ kind: f.c.kind, body: f.body })), ...valid];
    const body: any = { upsert: { discount: { simple: [], multiple: [] }, bonus: { individual: [], crossed: [] } } };
    for (const { kind, body: item } of all) body.upsert[NODES[kind].group][NODES[kind].key].push(item);

    const { status, detail } = await runBatch(t, s, '/batch/promotion', body);
    expect(status).toMatchObject({ status: 'processed', total: all.length, failed: failing.length, completed: valid.length });
    const byCode = new Map(detail.map((d: any) => [d.code, d]));
    for (const { c, body: item } of failing) {
      const d: any = byCode.get(item.internalCode);
      expect([c.name, d.action, d.status, d.errorCode]).toEqual([c.name, NODES[c.kind].action, 'failed', c.code]);
      for (const pointer of c.pointers) expect(d.message).toContain(pointer);
      expect((await as(t, s, 'GET', `/promotion/${item.internalCode}`)).statusCode).toBe(404);
    }
    for (const { kind, body: item } of valid) {
      expect(byCode.get(item.internalCode)).toMatchObject({ status: 'completed', errorCode: null });
      expect((await as(t, s, 'GET', `/promotion/${item.internalCode}`)).json().type).toBe(
        { simple: 'DISCOUNT_SIMPLE', multiple: 'DISCOUNT_MULTIPLE', individual: 'BONUS_INDIVIDUAL', crossed: 'BONUS_CROSSED' }[kind],
      );
    }
  });

  it('an item with several problems fails VALIDATION_FAILED, naming each', async () => {
    const { detail } = await runBatch(t, s, '/batch/promotion', batchOf('simple', [bodies.simple('B-MANY', { end: '2026-01-01', products: { internalCode: 'P-NOPE' } })]));
    expect(detail[0]).toMatchObject({ code: 'B-MANY', status: 'failed', errorCode: 'VALIDATION_FAILED' });
    expect(detail[0].message).toContain('INVALID_DATE_RANGE');
    expect(detail[0].message).toContain('UNKNOWN_PRODUCT');
  });

  for (const c of schemaCases) {
    it(`refuses the whole request with 402 for ${c.kind}: ${c.name} → ${c.code}`, async () => {
      const { group, key } = NODES[c.kind];
      const good = bodies[c.kind]('B-GOOD');
      const res = await as(t, s, 'POST', '/batch/promotion', batchOf(c.kind, [good, bodyOf(c)]));
      expect(res.statusCode, res.body).toBe(402);
      const problem = res.json();
      expect(problem.code).toBe(c.code);
      expect(problem.errors.map((e: any) => [e.pointer, e.code])).toEqual(c.pointers.map((p) => [`/upsert/${group}/${key}/1${p}`, c.code]));
    });
  }

  it('refuses a request without items, and a remove node without its codes', async () => {
    expect((await as(t, s, 'POST', '/batch/promotion', { upsert: { discount: {} } })).json()).toMatchObject({ status: 402, errors: [{ code: 'EMPTY_BATCH' }] });
    expect((await as(t, s, 'POST', '/batch/promotion', { remove: {} })).json()).toMatchObject({ status: 402, errors: [{ pointer: '/remove/internalCodes', code: 'REQUIRED' }] });
  });
});
