// The sandbox's clock in the store's suggestions (issue #33, "one clock abstraction"; issue
// #32's recommendations and order guide): a twin's moved clock decides what is shown today,
// as it does for promotions and prices; live time never moves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { dayFromToday, loadSmallCatalog, testCredential } from '../helpers/sandbox.ts';

let t: TestApp;
let live: TestSupplier;
let test: TestSupplier;
let liveBuyer: { headers: Record<string, string>; storeId: number };
let testBuyer: { headers: Record<string, string>; storeId: number };

/** A recommendation for store S1 from tomorrow (platform timezone: UTC in tests). */
const tomorrow = () => ({ name: 'Para mañana', reason: 'NEW', start: dayFromToday(1), end: dayFromToday(10), storeInternalCodes: ['S1'], products: [{ productInternalCode: 'P1', units: 1, quantity: 3 }] });
const shown = async (buyer: typeof liveBuyer) => {
  const res = await t.request({ method: 'GET', url: `/app/stores/${buyer.storeId}/recommendations`, headers: buyer.headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { internalCode: string | null }[]).map((r) => r.internalCode);
};

beforeAll(async () => {
  t = await createTestApp();
  live = await t.supplier('CLOCK-REC');
  test = await testCredential(t, live);
  liveBuyer = await loadSmallCatalog(t, live, 'live.rec@example.test');
  testBuyer = await loadSmallCatalog(t, test, 'test.rec@example.test');
  for (const s of [live, test]) {
    const put = await as(t, s, 'PUT', '/recommendation/R-NEXT', tomorrow());
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().active).toBe(false);
  }
});
afterAll(() => t.close());

describe("the sandbox's clock in recommendations", () => {
  it('answers a recommendation starting tomorrow only once the twin’s clock has moved a day; live keeps real time', async () => {
    expect(await shown(testBuyer)).toEqual([]);
    expect(await shown(liveBuyer)).toEqual([]);

    const moved = await as(t, test, 'PUT', '/sandbox/clock', { now: `${dayFromToday(1)}T12:00:00Z` });
    expect(moved.statusCode, moved.body).toBe(200);

    expect(await shown(testBuyer)).toEqual(['R-NEXT']);
    expect((await as(t, test, 'GET', '/recommendation/R-NEXT')).json().active).toBe(true);
    expect((await as(t, test, 'GET', '/recommendation?active=true')).json().data.map((r: { internalCode: string }) => r.internalCode)).toEqual(['R-NEXT']);
    expect(await shown(liveBuyer)).toEqual([]);
    expect((await as(t, live, 'GET', '/recommendation/R-NEXT')).json().active).toBe(false);
  });
});
