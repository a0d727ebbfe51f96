// The supplier clocks inside a transaction (src/modules/sandbox/sandbox.clocks.ts): an
// audited write reads the supplier's time through its own transaction. On embedded PGlite
// the transaction holds the one connection, so reading the clocks beside it (after a
// clock change made the process forget them) waited for it for ever, and every request
// and worker with it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { dayFromToday, loadSmallCatalog, testCredential } from '../helpers/sandbox.ts';

let t: TestApp;
let live: TestSupplier;
let test: TestSupplier;
let buyer: { headers: Record<string, string>; storeId: number };
beforeAll(async () => {
  t = await createTestApp();
  live = await t.supplier('CLOCK-TRX');
  test = await testCredential(t, live);
  buyer = await loadSmallCatalog(t, live, 'clock.trx.buyer@example.test');
});
afterAll(() => t.close());

it('the sandbox clock moves twice in a row (the second move reads the time the first made the process forget)', async () => {
  expect((await as(t, test, 'PUT', '/sandbox/clock', { now: `${dayFromToday(1)}T10:00:00Z` })).statusCode).toBe(200);
  const again = await as(t, test, 'PUT', '/sandbox/clock', { now: `${dayFromToday(2)}T10:00:00Z` });
  expect(again.statusCode, again.body).toBe(200);
  expect(again.json().now.slice(0, 10)).toBe(dayFromToday(2));
}, 15_000);

it("a supplier's ticket write right after a clock change anywhere answers", async () => {
  const ticket = await t.request({ method: 'POST', url: `/app/stores/${buyer.storeId}/tickets`, payload: { message: 'Falta un producto' }, headers: buyer.headers });
  expect(ticket.statusCode, ticket.body).toBe(200);
  t.deps.clocks.forget(); // what NOTIFY sandbox_clock_changed does when any twin's clock moves
  const res = await as(t, live, 'POST', '/support/ticket/additional-info', { ticketId: ticket.json().id, message: 'Which one?' });
  expect(res.statusCode, res.body).toBe(200);
}, 15_000);
