// Order events: placing and a store's cancellation send signed webhooks, in order, with
// the order as GET shows it; a supplier's cancellation sends none. The store hears of the
// supplier's confirmations, deliveries and cancellations; a ticket names only its store's orders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { configureWebhook, OffsetClock, Receiver, settle, verify } from '../webhooks/helpers.ts';

const clock = new OffsetClock();
let t: TestApp;
let s: TestSupplier;
let receiver: Receiver;
let secret: string;
let token: string;
let storeId: number;
const cart = [{ productInternalCode: 'P1', units: 1, quantity: 2 }];

async function batch(url: string, body: unknown) {
  for (const st of (await t.runBatch(s, url, body)).statuses) expect(st.failed).toBe(0);
}
const app = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  t.request({ method, url, payload: payload as never, headers: { authorization: `Bearer ${token}` } });

beforeAll(async () => {
  t = await createTestApp({ clock, dispatcher: true });
  s = await t.supplier();
  receiver = await new Receiver().start();
  secret = await configureWebhook(t, s, receiver);
  await as(t, s, 'PUT', '/category', { internalCode: 'C', name: 'C' });
  await batch('/batch/brand', [{ internalCode: 'B', name: 'B' }]);
  await batch('/batch/product', { upsert: [{ internalCode: 'P1', name: 'Cola', brandInternalCode: 'B', categoryInternalCode: 'C' }] });
  await as(t, s, 'POST', '/pricelist', { internalCode: 'PL' });
  await batch('/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda', priceListCode: 'PL' }, { internalCode: 'S2', name: 'Otra' }] });
  await batch('/batch/pricelist', { upsert: { products: [{ priceListInternalCode: 'PL', productInternalCode: 'P1', units: 1, price: 1500 }] } });
  await as(t, s, 'POST', '/store/S1/add/user', { users: [{ email: 'ana@example.com', name: 'Ana' }] });
  token = (await t.admin('POST', '/admin/store-users/token', { email: 'ana@example.com' })).json().access_token;
  storeId = (await app('GET', '/app/me')).json().stores[0].id;
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

describe('order events', () => {
  it('sends order.created then order.cancelled, signed, with the order as GET shows it', async () => {
    const order = (await app('POST', `/app/stores/${storeId}/orders`, { lines: cart })).json();
    const cancelled = (await app('POST', `/app/orders/${order.id}/cancel`, { cancelCode: 'NEW_ORDER' })).json();
    const calls = await receiver.waitForCalls(s.code, 2);
    expect(calls.map((c) => `${c.method} ${c.path} ${c.headers['x-event-type']}`)).toEqual([
      'POST /webhooks/order order.created',
      'POST /webhooks/order order.cancelled',
    ]);
    for (const call of calls) verify(call, secret, clock);
    expect(calls[0]!.json).toEqual(order);
    expect(calls[1]!.json).toEqual(cancelled);
    expect(calls[1]!.json).toMatchObject({ status: 'CANCELLED', cancellation: { code: 'NEW_ORDER', by: 'STORE' } });
    expect(calls[0]!.headers['webhook-id']).not.toBe(calls[1]!.headers['webhook-id']);
  });

  it("sends nothing for the supplier's own changes, and tells the store of them", async () => {
    const before = receiver.callsOf(s.code).length;
    const order = (await app('POST', `/app/stores/${storeId}/orders`, { lines: cart })).json();
    await receiver.waitForCalls(s.code, before + 1);
    expect((await as(t, s, 'PUT', `/order/${order.id}/confirm`, {})).statusCode).toBe(200);
    expect((await as(t, s, 'PUT', `/order/${order.id}/cancel`, { cancelCode: 'OUT_OF_STOCK', message: 'sorry' })).statusCode).toBe(200);
    await settle(300);
    expect(receiver.callsOf(s.code)).toHaveLength(before + 1);
    const notes = (await app('GET', '/app/notifications')).json().data.filter((n: { orderId: number | null }) => n.orderId === order.id);
    expect(notes.map((n: { type: string; message: string | null }) => `${n.type} ${n.message}`)).toEqual(['ORDER_CANCELLED sorry', 'ORDER_CONFIRMED null']);
  });

  it("lets a ticket name only an order of the store it is opened for", async () => {
    const order = (await app('POST', `/app/stores/${storeId}/orders`, { lines: cart })).json();
    const ok = await app('POST', `/app/stores/${storeId}/tickets`, { message: 'missing bottles', orderId: order.id });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().orderId).toBe(order.id);
    const bad = await app('POST', `/app/stores/${storeId}/tickets`, { message: 'which order?', orderId: 999999 });
    expect(bad.json()).toMatchObject({ status: 400, code: 'UNKNOWN_ORDER', errors: [{ pointer: '/orderId' }] });
  });
});
