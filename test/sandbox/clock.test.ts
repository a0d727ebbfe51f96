// The sandbox's clock (src/modules/sandbox/README.md, "The clock"): a twin's time moves
// forward on demand and its rules follow it (a promotion's validity, the cart's prices,
// an order's and a ticket's times); live time never moves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { dayFromToday, loadSmallCatalog, testCredential } from '../helpers/sandbox.ts';

let t: TestApp;
let live: TestSupplier;
let test: TestSupplier;
let liveBuyer: { headers: Record<string, string>; storeId: number };
let testBuyer: { headers: Record<string, string>; storeId: number };

const cart = (buyer: typeof liveBuyer) =>
  t.request({ method: 'POST', url: `/app/stores/${buyer.storeId}/cart`, payload: { lines: [{ productInternalCode: 'P1', units: 1, quantity: 2 }] }, headers: buyer.headers });

beforeAll(async () => {
  t = await createTestApp();
  live = await t.supplier('CLOCK-SUP');
  test = await testCredential(t, live);
  liveBuyer = await loadSmallCatalog(t, live, 'live.buyer@example.test');
  testBuyer = await loadSmallCatalog(t, test, 'test.buyer@example.test');
});
afterAll(() => t.close());

describe("the sandbox's clock", () => {
  it('starts at real time', async () => {
    const res = await as(t, test, 'GET', '/sandbox/clock');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().moved).toBe(false);
    expect(Math.abs(Date.parse(res.json().now) - Date.now())).toBeLessThan(5_000);
  });

  it('prices a promotion that ends tomorrow before the clock moves past it, and not after; live keeps it', async () => {
    expect((await cart(testBuyer)).json().discountTotal).toBe(200);
    const target = `${dayFromToday(2)}T10:00:00-05:00`;
    const moved = await as(t, test, 'PUT', '/sandbox/clock', { now: target });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ moved: true });
    expect(Date.parse(moved.json().now)).toBeGreaterThanOrEqual(Date.parse(target));
    expect((await cart(testBuyer)).json().discountTotal).toBe(0);
    expect((await cart(liveBuyer)).json().discountTotal).toBe(200);
  });

  it("dates the twin's orders and tickets by its clock, the live supplier's by real time", async () => {
    const place = (buyer: typeof liveBuyer) =>
      t.request({ method: 'POST', url: `/app/stores/${buyer.storeId}/orders`, payload: { lines: [{ productInternalCode: 'P1', units: 1, quantity: 1 }] }, headers: buyer.headers });
    const testOrder = (await place(testBuyer)).json();
    const liveOrder = (await place(liveBuyer)).json();
    expect(testOrder.createdAt.slice(0, 10)).toBe(dayFromToday(2));
    expect(Math.abs(Date.parse(liveOrder.createdAt) - Date.now())).toBeLessThan(60_000);
    const ticket = await t.request({ method: 'POST', url: `/app/stores/${testBuyer.storeId}/tickets`, payload: { message: 'late', orderId: testOrder.id }, headers: testBuyer.headers });
    expect(ticket.statusCode, ticket.body).toBe(200);
    expect(ticket.json().createdAt.slice(0, 10)).toBe(dayFromToday(2));
    const confirmed = await as(t, test, 'PUT', `/order/${testOrder.id}/confirm`, {});
    expect(confirmed.json().history.at(-1).at.slice(0, 10)).toBe(dayFromToday(2));
  });

  it('moves forward only (400 naming /now), and DELETE goes back to real time', async () => {
    const back = await as(t, test, 'PUT', '/sandbox/clock', { now: `${dayFromToday(1)}T10:00:00Z` });
    expect(back.statusCode, back.body).toBe(400);
    expect(back.json().errors[0]).toMatchObject({ pointer: '/now' });
    const bad = await as(t, test, 'PUT', '/sandbox/clock', { now: 'next tuesday' });
    expect(bad.statusCode, bad.body).toBe(400);
    const reset = await as(t, test, 'DELETE', '/sandbox/clock');
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().moved).toBe(false);
    expect((await cart(testBuyer)).json().discountTotal).toBe(200);
  });

  it('is not there for a live credential (404)', async () => {
    expect((await as(t, live, 'PUT', '/sandbox/clock', { now: `${dayFromToday(3)}T10:00:00Z` })).statusCode).toBe(404);
    expect((await as(t, live, 'GET', '/sandbox/clock')).statusCode).toBe(404);
  });

  it("moves a twin's delivery dates and cut-offs, for the store and the supplier alike; live dates stay", async () => {
    // The same zone in both worlds: every day, closing at 18:00 UTC the day before.
    const zone = { name: 'Diaria', timezone: 'UTC', cutoffMode: 'strict', days: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, cutoff: { daysBefore: 1, time: '18:00' } })) };
    for (const s of [live, test]) {
      expect((await as(t, s, 'PUT', '/deliveryzone/DIARIA', zone)).statusCode).toBe(200);
      await t.runBatch(s, '/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda', deliveryZoneCode: 'DIARIA' }] });
    }
    const first = async (s: TestSupplier, buyer: typeof liveBuyer) => {
      const supplierSide = (await as(t, s, 'GET', '/store/S1/delivery-options')).json().data[0];
      const storeSide = (await t.request({ method: 'GET', url: `/app/stores/${buyer.storeId}/delivery-options`, headers: buyer.headers })).json().data[0];
      expect(storeSide).toEqual(supplierSide);
      return supplierSide as { date: string; cutoffAt: string };
    };
    const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;
    expect((await first(test, testBuyer)).date).toBe((await first(live, liveBuyer)).date);
    const moved = await as(t, test, 'PUT', '/sandbox/clock', { now: new Date(Date.now() + 3 * 86_400_000).toISOString() });
    expect(moved.statusCode, moved.body).toBe(200);
    const [twin, real] = [await first(test, testBuyer), await first(live, liveBuyer)];
    expect(days(real.date, twin.date)).toBe(3);
    expect(days(real.cutoffAt, twin.cutoffAt)).toBe(3);
    expect((await as(t, test, 'DELETE', '/sandbox/clock')).statusCode).toBe(200);
  });
});
