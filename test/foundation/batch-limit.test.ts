// The items-per-request limit of every batch endpoint is MAX_BATCH_REQUEST_ITEMS and only
// that (issue 14): no schema caps a batch array below it, so raising it takes effect, and
// lowering it refuses with 402 TOO_MANY_ITEMS, nothing queued.
import { afterEach, describe, expect, it } from 'vitest';
import { BATCH_KINDS } from '../../src/batch-kinds.ts';
import { as, createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const rule = (i: number) => ({ grouperCode: 'G', productInternalCode: `P${i}`, available: true });
const entry = (i: number) => ({ priceListInternalCode: 'L', productInternalCode: `P${i}`, units: 1, price: 1 });

describe('MAX_BATCH_REQUEST_ITEMS', () => {
  it('raised to 60000: a request of 55,000 items is accepted', async () => {
    t = await createTestApp({ worker: false, env: { MAX_BATCH_REQUEST_ITEMS: '60000' } });
    const s = await t.supplier();
    const res = await as(t, s, 'POST', '/batch/stock/grouper', { upsert: Array.from({ length: 55_000 }, (_, i) => rule(i)) });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(202);
    expect(res.json().batchId).toHaveLength(11); // BATCH_SIZE 5000
  }, 120_000);

  it('lowered to 10: 11 items over several nodes are refused with 402, 10 are accepted', async () => {
    t = await createTestApp({ worker: false, env: { MAX_BATCH_REQUEST_ITEMS: '10' } });
    const s = await t.supplier();
    const body = (n: number) => ({ upsert: { products: Array.from({ length: n - 5 }, (_, i) => entry(i)) }, remove: { products: Array.from({ length: 5 }, (_, i) => entry(100 + i)) } });
    const refused = await as(t, s, 'POST', '/batch/pricelist', body(11));
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({
      status: 402,
      code: 'TOO_MANY_ITEMS',
      detail: 'a batch request holds at most 10 items; this one has 11',
      errors: [{ pointer: '', code: 'TOO_MANY_ITEMS', message: 'at most 10 items per request' }],
    });
    expect((await as(t, s, 'GET', '/batch')).json().total).toBe(0);
    expect((await as(t, s, 'POST', '/batch/pricelist', body(10))).statusCode).toBe(202);
  });

  it('is not capped again by any batch schema: no array holding a kind\'s items has maxItems', () => {
    // The arrays reachable from the body without entering another array are the item lists.
    const capped: string[] = [];
    const walk = (schema: Record<string, unknown>, path: string) => {
      if (schema.type === 'array') {
        if ('maxItems' in schema) capped.push(path);
        return;
      }
      for (const [name, child] of Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>)) walk(child, `${path}/${name}`);
    };
    for (const kind of BATCH_KINDS) walk(kind.body as unknown as Record<string, unknown>, kind.endpoint);
    expect(capped).toEqual([]);
    expect(BATCH_KINDS.length).toBe(new Set(BATCH_KINDS.map((k) => k.endpoint)).size);
  });
});
