// Messages in test mode never leave the platform (src/modules/sandbox/README.md,
// "Messages"): a test store user's code and notifications land in the twin's test inbox,
// codes only for identifiers reserved for tests; the live side's are sent as before.
// And POST /sandbox/copy-live gives the twin the live catalog without its store users.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { loadSmallCatalog, testCredential } from '../helpers/sandbox.ts';

let t: TestApp;
let live: TestSupplier;
let test: TestSupplier;

const ok = (res: { statusCode: number; body: string }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return JSON.parse(res.body);
};

async function inboxFor(to: string) {
  for (let i = 0; i < 200; i++) {
    const found = ok(await as(t, test, 'GET', '/sandbox/messages')).data.filter((m: { to: string }) => m.to === to);
    if (found.length > 0) return found;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`nothing reached the inbox for ${to}`);
}

beforeAll(async () => {
  t = await createTestApp();
  live = await t.supplier('INBOX-SUP');
  await loadSmallCatalog(t, live, 'live.buyer@example.com');
  test = await testCredential(t, live);
});
afterAll(() => t.close());

describe('copy-live', () => {
  it("copies the live catalog, groupers, price lists, stores and promotions, never the stores' users", async () => {
    const copied = ok(await as(t, test, 'POST', '/sandbox/copy-live'));
    expect(copied.counts).toMatchObject({ products: 1, brands: 1, categories: 1, priceLists: 1, prices: 1, stores: 1, groupers: 1, promotions: 1, users: 0 });
    expect(ok(await as(t, test, 'GET', '/product/P1')).name).toBe('Cola');
    expect(ok(await as(t, test, 'GET', '/store/S1')).users ?? []).toEqual([]);
    const cart = ok(await as(t, test, 'POST', '/store/S1/cart', { lines: [{ productInternalCode: 'P1', units: 1, quantity: 2 }] }));
    expect(cart.discountTotal).toBe(200);
  });
});

describe('the test inbox', () => {
  it("keeps a test store user's sign-in code (an identifier reserved for tests), sends nothing, and the code signs in", async () => {
    ok(await as(t, test, 'POST', '/store/S1/add/user', { users: [{ email: 'buyer@shop.example', name: 'Buyer' }, { email: 'someone@mail.co', name: 'Real' }] }));
    expect((await t.request({ method: 'POST', url: '/app/auth/code', payload: { email: 'buyer@shop.example' } })).statusCode).toBe(202);
    const [message] = await inboxFor('buyer@shop.example');
    expect(message).toMatchObject({ purpose: 'code', status: 'inbox', channel: 'email' });
    const code = /\d{6}/.exec(message.body)![0];
    expect(t.notifier.sent.filter((m) => m.to === 'buyer@shop.example')).toEqual([]);
    const token = ok(await t.request({ method: 'POST', url: '/app/auth/token', payload: { email: 'buyer@shop.example', code } }));
    const me = ok(await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token.access_token}` } }));
    expect(me.stores.map((s: { internalCode: string }) => s.internalCode)).toEqual(['S1']);
  });

  it('withholds the code of an identifier not reserved for tests: never sent, and not shown', async () => {
    expect((await t.request({ method: 'POST', url: '/app/auth/code', payload: { email: 'someone@mail.co' } })).statusCode).toBe(202);
    const [message] = await inboxFor('someone@mail.co');
    expect(message).toMatchObject({ purpose: 'code', status: 'withheld', body: '' });
    expect(message.note).toContain('reserved for tests');
    expect(t.notifier.sent.filter((m) => m.to === 'someone@mail.co')).toEqual([]);
  });

  it("keeps a test store's notifications there too, while the live store's user gets the real message", async () => {
    const subscribe = async (email: string) => {
      const { access_token } = ok(await t.admin('POST', '/admin/store-users/token', { email }));
      const headers = { authorization: `Bearer ${access_token}` };
      ok(await t.request({ method: 'PUT', url: '/app/me/preferences', payload: { channel: 'email', events: ['ORDER_CONFIRMED'] }, headers }));
      return headers;
    };
    await subscribe('buyer@shop.example');
    const placed = ok(await as(t, test, 'POST', '/sandbox/events', { type: 'order.created', storeCode: 'S1' }));
    ok(await as(t, test, 'PUT', `/order/${placed.orderId}/confirm`, {}));
    const messages = await inboxFor('buyer@shop.example');
    expect(messages.find((m: { purpose: string }) => m.purpose === 'event')).toMatchObject({ status: 'inbox', subject: 'Pedido confirmado' });
    expect(t.notifier.sent.filter((m) => m.to === 'buyer@shop.example')).toEqual([]);

    const liveBuyer = await subscribe('live.buyer@example.com');
    const me = ok(await t.request({ method: 'GET', url: '/app/me', headers: liveBuyer }));
    const liveOrder = ok(await t.request({ method: 'POST', url: `/app/stores/${me.stores[0].id}/orders`, payload: { lines: [{ productInternalCode: 'P1', units: 1, quantity: 1 }] }, headers: liveBuyer }));
    ok(await as(t, live, 'PUT', `/order/${liveOrder.id}/confirm`, {}));
    for (let i = 0; i < 200 && !t.notifier.sent.some((m) => m.to === 'live.buyer@example.com' && m.purpose === 'event'); i++) await new Promise((r) => setTimeout(r, 25));
    expect(t.notifier.sent.some((m) => m.to === 'live.buyer@example.com' && m.purpose === 'event')).toBe(true);
  });

  it('is not there for a live credential (404)', async () => {
    expect((await as(t, live, 'GET', '/sandbox/messages')).statusCode).toBe(404);
    expect((await as(t, live, 'POST', '/sandbox/events', { type: 'order.created' })).statusCode).toBe(404);
    expect((await as(t, live, 'POST', '/sandbox/reset')).statusCode).toBe(404);
  });
});
