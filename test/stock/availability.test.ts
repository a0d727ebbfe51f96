// POST /batch/stock/grouper: whether a product, or one of its package sizes, is available
// to the stores of a stock grouper. No endpoint reads the rules back yet (the store app's
// catalogue will apply them), so the outcome is checked in the batch detail and in the
// stock_rules table itself, read-only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;

async function run(body: unknown, supplier = s) {
  const { ids, statuses } = await t.runBatch(supplier, '/batch/stock/grouper', body);
  const detail = (await as(t, supplier, 'GET', `/batch/${ids[0]}/detail`)).json().detail;
  return { status: statuses[0], statuses, detail };
}
async function batch(url: string, body: unknown) {
  const { statuses } = await t.runBatch(s, url, body);
  expect(statuses.every((x) => x.failed === 0)).toBe(true);
}

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  expect((await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'All' })).statusCode).toBe(200);
  await batch('/batch/brand', { upsert: [{ internalCode: 'B', name: 'Brand' }] });
  await batch('/batch/product', {
    upsert: ['P-1', 'P-2', 'P-3'].map((code) => ({
      internalCode: code,
      name: code,
      brandInternalCode: 'B',
      categoryInternalCode: 'C',
      displayProducts: [
        { units: 1, name: 'Unit', default: true },
        { units: 12, name: 'Box x12' },
      ],
    })),
  });
  for (const w of ['W-1', 'W-2']) expect((await as(t, s, 'POST', '/grouper/stock', { internalCode: w, name: w })).statusCode).toBe(200);
});
afterAll(() => t.close());

type Rule = [grouper: string, product: string, units: number | null, available: boolean];
/** The supplier's rules for a grouper, by product then units (null: every package size). */
async function rules(grouper: string, supplierId = s.id): Promise<Rule[]> {
  const rows = await t.deps.db
    .selectFrom('stock_rules as r')
    .innerJoin('groupers as g', 'g.id', 'r.grouper_id')
    .innerJoin('products as p', 'p.id', 'r.product_id')
    .select(['g.internal_code as g', 'p.internal_code as p', 'r.units', 'r.available'])
    .where('r.supplier_id', '=', supplierId)
    .where('g.internal_code', '=', grouper)
    .orderBy('p.internal_code')
    .orderBy('r.units')
    .execute();
  return rows.map((r) => [r.g, r.p, r.units === 0 ? null : r.units, r.available]);
}

let groupers = 0;
async function newGrouper() {
  const code = `W-T${++groupers}`;
  expect((await as(t, s, 'POST', '/grouper/stock', { internalCode: code, name: code })).statusCode).toBe(200);
  return code;
}

describe('POST /batch/stock/grouper', () => {
  it('sets a product rule without units and a package-size rule with them', async () => {
    const w = await newGrouper();
    const { status, detail } = await run({
      upsert: [
        { grouperCode: w, productInternalCode: 'P-1', available: false },
        { grouperCode: w, productInternalCode: 'P-1', available: true, units: 12 },
        { grouperCode: w, productInternalCode: 'P-2', available: false, units: 1 },
      ],
    });
    expect(status).toMatchObject({ endpoint: '/batch/stock/grouper', status: 'processed', total: 3, completed: 3, failed: 0 });
    expect(detail.map((d: any) => [d.code, d.action, d.status, d.errorCode])).toEqual([
      [`${w}/P-1`, 'upsert', 'completed', null],
      [`${w}/P-1/12`, 'upsert', 'completed', null],
      [`${w}/P-2/1`, 'upsert', 'completed', null],
    ]);
    expect(JSON.parse(detail[1].batchItem)).toEqual({ grouperCode: w, productInternalCode: 'P-1', available: true, units: 12 });
    // The size rule sits beside the product rule; neither replaces the other.
    expect(await rules(w)).toEqual([
      [w, 'P-1', null, false],
      [w, 'P-1', 12, true],
      [w, 'P-2', 1, false],
    ]);
  });

  it('a later rule for the same grouper, product and units wins, in one request and across batches', async () => {
    const w = await newGrouper();
    await run({
      upsert: [
        { grouperCode: w, productInternalCode: 'P-3', available: false },
        { grouperCode: w, productInternalCode: 'P-3', available: true, units: 12 },
        { grouperCode: w, productInternalCode: 'P-3', available: true },
        { grouperCode: w, productInternalCode: 'P-3', available: false, units: 12 },
      ],
    });
    expect(await rules(w)).toEqual([
      [w, 'P-3', null, true],
      [w, 'P-3', 12, false],
    ]);
    const submit = async (available: boolean) => (await as(t, s, 'POST', '/batch/stock/grouper', { upsert: [{ grouperCode: w, productInternalCode: 'P-3', available }] })).json().batchId as string[];
    const ids = [...(await submit(false)), ...(await submit(true)), ...(await submit(false))];
    await t.waitForBatches(s, ids);
    expect(await rules(w)).toEqual([
      [w, 'P-3', null, false],
      [w, 'P-3', 12, false],
    ]);
    // Re-sending the same rule is harmless.
    const again = await run({ upsert: [{ grouperCode: w, productInternalCode: 'P-3', available: false }] });
    expect(again.status).toMatchObject({ completed: 1, failed: 0 });
    expect(await rules(w)).toHaveLength(2);
  });

  it('rules are per stock grouper', async () => {
    const a = await newGrouper();
    const b = await newGrouper();
    await run({ upsert: [{ grouperCode: a, productInternalCode: 'P-1', available: false }, { grouperCode: b, productInternalCode: 'P-1', available: true }] });
    expect(await rules(a)).toEqual([[a, 'P-1', null, false]]);
    expect(await rules(b)).toEqual([[b, 'P-1', null, true]]);
  });

  it('fails unknown stock groupers and products per item and applies the others', async () => {
    const w = await newGrouper();
    expect((await as(t, s, 'POST', '/grouper/promotion', { internalCode: `SEG-${w}`, name: 'Segment' })).statusCode).toBe(200);
    const { status, detail } = await run({
      upsert: [
        { grouperCode: 'W-NOPE', productInternalCode: 'P-1', available: false },
        { grouperCode: w, productInternalCode: 'P-NOPE', available: false, units: 12 },
        { grouperCode: `SEG-${w}`, productInternalCode: 'P-1', available: false },
        { grouperCode: 'W-NOPE', productInternalCode: 'P-NOPE', available: true },
        { grouperCode: w, productInternalCode: 'p-1', available: false },
        { grouperCode: w, productInternalCode: 'P-2', available: false },
      ],
    });
    expect(status).toMatchObject({ status: 'processed', total: 6, completed: 1, failed: 5 });
    expect(detail.map((d: any) => [d.code, d.status, d.errorCode, d.message])).toEqual([
      ['W-NOPE/P-1', 'failed', 'UNKNOWN_STOCK_GROUPER', 'stock grouper W-NOPE does not exist'],
      [`${w}/P-NOPE/12`, 'failed', 'UNKNOWN_PRODUCT', 'product P-NOPE does not exist'],
      [`SEG-${w}/P-1`, 'failed', 'UNKNOWN_STOCK_GROUPER', `stock grouper SEG-${w} does not exist`],
      ['W-NOPE/P-NOPE', 'failed', 'UNKNOWN_STOCK_GROUPER', 'stock grouper W-NOPE does not exist'],
      [`${w}/p-1`, 'failed', 'UNKNOWN_PRODUCT', 'product p-1 does not exist'],
      [`${w}/P-2`, 'completed', null, null],
    ]);
    expect(await rules(w)).toEqual([[w, 'P-2', null, false]]);
  });

  it('a batch whose every item fails ends failed', async () => {
    const { status } = await run({ upsert: [{ grouperCode: 'W-NOPE', productInternalCode: 'P-1', available: false }] });
    expect(status).toMatchObject({ status: 'failed', total: 1, completed: 0, failed: 1 });
  });

  it('a disabled stock grouper still takes and keeps its rules', async () => {
    const w = await newGrouper();
    await run({ upsert: [{ grouperCode: w, productInternalCode: 'P-1', available: false }] });
    expect((await as(t, s, 'PUT', `/grouper/${w}/status/stock`, { enabled: false })).json().enabled).toBe(false);
    const { status } = await run({ upsert: [{ grouperCode: w, productInternalCode: 'P-2', available: false, units: 12 }] });
    expect(status).toMatchObject({ completed: 1, failed: 0 });
    expect(await rules(w)).toEqual([
      [w, 'P-1', null, false],
      [w, 'P-2', 12, false],
    ]);
  });

  it('loads many rules across batches', async () => {
    const w = await newGrouper();
    // 3 products × 2,000 alternating rules: the last one per (product, units) wins.
    const upsert = Array.from({ length: 6_000 }, (_, i) => ({ grouperCode: w, productInternalCode: `P-${(i % 3) + 1}`, available: i % 2 === 0, ...(i % 4 < 2 ? {} : { units: 12 }) }));
    const { statuses } = await run({ upsert });
    expect(statuses.map((x: any) => [x.status, x.total, x.failed])).toEqual([
      ['processed', 5000, 0],
      ['processed', 1000, 0],
    ]);
    const expected = new Map<string, boolean>();
    for (const r of upsert) expected.set(`${r.productInternalCode}/${r.units ?? null}`, r.available);
    const got = await rules(w);
    expect(got).toHaveLength(expected.size);
    for (const [, p, u, available] of got) expect(available, `${p}/${u}`).toBe(expected.get(`${p}/${u}`));
  });

  it('refuses a bad structure with 402 and pointers, queuing nothing', async () => {
    const w = await newGrouper();
    const bad = async (body: unknown) => {
      const res = await as(t, s, 'POST', '/batch/stock/grouper', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(402);
      expect(res.json().status).toBe(402);
      return res.json();
    };
    expect(await bad({ upsert: [{ grouperCode: w, productInternalCode: 'P-1' }] })).toMatchObject({
      code: 'REQUIRED',
      errors: [{ pointer: '/upsert/0/available', code: 'REQUIRED' }],
    });
    const several = await bad({
      upsert: [
        { grouperCode: w, productInternalCode: 'P-1', available: false },
        { grouperCode: w, productInternalCode: 'P-1', available: 'false' },
        { grouperCode: w, productInternalCode: 'P-1', available: false, units: 0 },
        { grouperCode: w, productInternalCode: 'P-1', available: false, units: 1.5 },
        { productInternalCode: 'P-1', available: true },
        { grouperCode: w, productInternalCode: '', available: true },
      ],
    });
    expect(several.code).toBe('BATCH_VALIDATION_FAILED');
    expect(several.errors.map((e: any) => [e.pointer, e.code])).toEqual([
      ['/upsert/1/available', 'INVALID_TYPE'],
      ['/upsert/2/units', 'OUT_OF_RANGE'],
      ['/upsert/3/units', 'INVALID_TYPE'],
      ['/upsert/4/grouperCode', 'REQUIRED'],
      ['/upsert/5/productInternalCode', 'INVALID_LENGTH'],
    ]);
    expect((await bad({})).errors).toMatchObject([{ pointer: '/upsert', code: 'REQUIRED' }]);
    expect((await bad({ upsert: {} })).errors).toMatchObject([{ pointer: '/upsert', code: 'INVALID_TYPE' }]);
    expect((await bad({ upsert: [] })).errors).toMatchObject([{ code: 'EMPTY_BATCH' }]);
    expect(await rules(w)).toEqual([]);
  });
});
