// Issue 34, "Partial deliveries are invisible to the buyer": after 4 of 5 packages were
// delivered, both sides answer what the store keeps (`deliveredTotal`, each line's net
// price times what was delivered and not returned), the store's notification says how much
// came, and the opted-in person's message says "entregado en parte: 4 de 5", in their
// language. Delivering more than was ordered is refused naming the line, never clamped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptTotal } from '../../src/modules/orders/orders.rules.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { importPendingOrders } from '../helpers/fixtures.ts';
import { waitFor } from '../helpers/process.ts';

let t: TestApp;
let s: TestSupplier;
const ANA = 'ana@example.com'; // opted into deliveries, in Spanish
const BEN = 'ben@example.com'; // opted into deliveries, in English
const CAIO = 'caio@example.com'; // opted into deliveries, in Portuguese

async function tokenOf(email: string) {
  const res = await t.admin('POST', '/admin/store-users/token', { email });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token as string;
}
const asStore = async (url: string, email = ANA) => t.request({ method: 'GET', url, headers: { authorization: `Bearer ${await tokenOf(email)}` } });

/** A CONFIRMED order of 4 boxes of P1 and 1 unit of P2 (5 packages). */
async function confirmedOrder(tag: string): Promise<number> {
  const lines = [
    { internalCode: 'P1', units: 12, quantity: 4, unitPrice: 11000 },
    { internalCode: 'P2', units: 1, quantity: 1, unitPrice: 2500.5 },
  ];
  const [id] = await importPendingOrders(t, s, [[tag, lines]]);
  expect((await as(t, s, 'PUT', `/order/${id}/confirm`, {})).statusCode).toBe(200);
  return id!;
}

const messagesTo = (to: string) => t.notifier.sent.filter((m) => m.purpose === 'event' && m.to === to);

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  const stores = await as(t, s, 'POST', '/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda Uno' }] });
  await t.waitForBatches(s, stores.json().batchId);
  expect((await as(t, s, 'POST', '/store/S1/add/user', { users: [ANA, BEN, CAIO].map((email) => ({ email })) })).statusCode).toBe(200);
  for (const [email, language] of [
    [ANA, 'es'],
    [BEN, 'en'],
    [CAIO, 'pt-BR'],
  ] as const) {
    const res = await t.request({
      method: 'PUT',
      url: '/app/me/preferences',
      headers: { authorization: `Bearer ${await tokenOf(email)}` },
      payload: { language, channel: 'email', events: ['ORDER_DELIVERED'] },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterAll(() => t.close());

describe('a partial delivery', () => {
  it('is refused above the ordered quantity, naming the line, and nothing moves', async () => {
    const id = await confirmedOrder('too-many');
    // 3 for 1 was stored as 1 by the console's form; the API refuses it.
    const res = await as(t, s, 'POST', `/order/${id}/deliver`, { products: [{ internalCode: 'P2', units: 1, quantity: 3 }] });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'QUANTITY_EXCEEDED', errors: [{ pointer: '/products/0/quantity', code: 'QUANTITY_EXCEEDED', message: 'at most 1 packages can be delivered' }] });
    const order = (await as(t, s, 'GET', `/order/${id}`)).json();
    expect(order.status).toBe('CONFIRMED');
    expect(order.products.map((l: { deliveredQuantity: number }) => l.deliveredQuantity)).toEqual([0, 0]);
    expect(order).not.toHaveProperty('deliveredTotal');
  });

  it('answers what the store keeps on both sides, tells the store how much came, and says "en parte: 4 de 5" in each person\'s language', async () => {
    const id = await confirmedOrder('partial');
    const delivered = await as(t, s, 'POST', `/order/${id}/deliver`, { products: [{ internalCode: 'P1', units: 12, quantity: 3 }, { internalCode: 'P2', units: 1, quantity: 1 }] });
    expect(delivered.statusCode, delivered.body).toBe(200);
    // Ordered 4 × 11,000 + 2,500.5; kept 3 × 11,000 + 2,500.5. The order's total stays what was ordered.
    expect(delivered.json()).toMatchObject({ status: 'DELIVERED', total: 46_500.5, deliveredTotal: 35_500.5 });
    expect((await as(t, s, 'GET', `/order/${id}`)).json().deliveredTotal).toBe(35_500.5);
    expect(((await as(t, s, 'GET', '/order?take=50')).json().data as { id: number; deliveredTotal?: number }[]).find((o) => o.id === id)!.deliveredTotal).toBe(35_500.5);

    // The store's side: the same order, the same figure, and the notification's packages.
    const own = await asStore(`/app/orders/${id}`);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ total: 46_500.5, deliveredTotal: 35_500.5 });
    expect(own.json().products.map((l: { quantity: number; deliveredQuantity: number }) => [l.quantity, l.deliveredQuantity])).toEqual([
      [4, 3],
      [1, 1],
    ]);
    const notifications = (await asStore('/app/notifications')).json().data as { type: string; orderId: number; packages?: unknown }[];
    expect(notifications.find((n) => n.orderId === id && n.type === 'ORDER_DELIVERED')).toMatchObject({ packages: { delivered: 4, ordered: 5 } });
    expect(notifications.find((n) => n.orderId === id && n.type === 'ORDER_CONFIRMED')).not.toHaveProperty('packages');

    const said = async (to: string) => (await waitFor(`${to}'s delivery`, async () => messagesTo(to).find((m) => m.body.includes(`#${id} `)), 20_000)).body;
    expect(await said(ANA)).toBe(`Tienda Uno: tu pedido #${id} fue entregado en parte: 4 de 5 paquetes.`);
    expect(await said(BEN)).toBe(`Tienda Uno: your order #${id} was partly delivered: 4 of 5 packages.`);
    expect(await said(CAIO)).toBe(`Tienda Uno: seu pedido #${id} foi entregue em parte: 4 de 5 pacotes.`);
    expect(messagesTo(ANA).find((m) => m.body.includes(`#${id} `))!.subject).toBe('Pedido entregado en parte');

    // A return takes its packages off what is kept.
    const returned = await as(t, s, 'POST', `/order/${id}/return`, { products: [{ internalCode: 'P1', units: 12, quantity: 1 }] });
    expect(returned.json()).toMatchObject({ status: 'DELIVERED', deliveredTotal: 24_500.5 });
  });

  it('a complete delivery keeps the whole total and is told as delivered', async () => {
    const id = await confirmedOrder('complete');
    const delivered = await as(t, s, 'PUT', `/order/${id}/deliver`, { complete: true });
    expect(delivered.json()).toMatchObject({ status: 'DELIVERED', total: 46_500.5, deliveredTotal: 46_500.5 });
    const notifications = (await asStore('/app/notifications')).json().data as { type: string; orderId: number; packages?: unknown }[];
    expect(notifications.find((n) => n.orderId === id && n.type === 'ORDER_DELIVERED')).toMatchObject({ packages: { delivered: 5, ordered: 5 } });
    expect((await waitFor('the message', async () => messagesTo(ANA).find((m) => m.body.includes(`#${id} `)), 20_000)).body).toBe(`Tienda Uno: tu pedido #${id} fue entregado.`);
  });
});

describe('keptTotal', () => {
  it("keeps each line's net price (discounts fixed at placement), summed exactly and rounded once", () => {
    // 3 packages for 100.00 after a discount: one third each. Keeping 1 of each of three such lines is exactly 100.
    const third = { quantity: 3, total: 100, deliveredQuantity: 1, returnedQuantity: 0 };
    expect(keptTotal([third, third, third], 2)).toBe(100);
    expect(keptTotal([third], 2)).toBe(33.33);
    expect(keptTotal([{ ...third, deliveredQuantity: 2 }], 2)).toBe(66.67);
    expect(keptTotal([{ ...third, deliveredQuantity: 2 }], 0)).toBe(67);
    expect(keptTotal([{ ...third, deliveredQuantity: 3, returnedQuantity: 3 }], 2)).toBe(0);
  });
});
