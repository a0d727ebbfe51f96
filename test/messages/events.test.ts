// Issue 15: the events of the in-app list reach, as messages, exactly the people of the
// store who opted into them, by the channel they chose; the message row is written in the
// transaction of the change, so a refused or rolled back change leaves none.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutgoingMessage } from '../../src/lib/notifier.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { waitFor } from '../helpers/process.ts';

let t: TestApp;
let s: TestSupplier;
const ORDER_EVENTS = ['ORDER_CONFIRMED', 'ORDER_DELIVERED', 'ORDER_CANCELLED'];
const ANA = 'ana@example.com'; // opted into the order events, in English
const BOB = 'bob@example.com'; // never chose anything
const CLEO = 'cleo@example.com'; // chose a channel, but no event
const DANA = 'dana@example.com'; // opted into tickets only

async function tokenOf(email: string) {
  const res = await t.admin('POST', '/admin/store-users/token', { email });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token as string;
}
async function prefer(email: string, preferences: unknown) {
  const res = await t.request({ method: 'PUT', url: '/app/me/preferences', headers: { authorization: `Bearer ${await tokenOf(email)}` }, payload: preferences as never });
  expect(res.statusCode, res.body).toBe(200);
}

async function pendingOrders(tag: string, n: number): Promise<number[]> {
  const orders = Array.from({ length: n }, (_, i) => ({
    externalId: `${tag}-${i}`,
    storeInternalCode: 'S1',
    createdAt: '2026-03-01T10:00:00Z',
    status: 'PENDING',
    products: [{ internalCode: 'P1', units: 1, quantity: 1, unitPrice: 100 }],
  }));
  const res = await as(t, s, 'POST', '/order/bulk-import', { orders });
  expect(res.statusCode, res.body).toBe(202);
  await t.waitForBatches(s, res.json().batchId);
  const list = (await as(t, s, 'GET', '/order?take=50')).json().data as { id: number; externalId: string }[];
  return orders.map((o) => list.find((x) => x.externalId === o.externalId)!.id);
}

const events = (to?: string) => t.notifier.sent.filter((m) => m.purpose === 'event' && (to === undefined || m.to === to));
const rows = async () => (await sql<{ recipient: string; body: string }>`select recipient, body from messages where purpose = 'event' order by id`.execute(t.deps.db)).rows;
const counts = async () =>
  (await sql<{ messages: number; notifications: number }>`select (select count(*)::int from messages) as messages, (select count(*)::int from notifications) as notifications`.execute(t.deps.db)).rows[0]!;

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  const stores = await as(t, s, 'POST', '/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda Uno' }] });
  await t.waitForBatches(s, stores.json().batchId);
  const users = [ANA, BOB, CLEO, DANA].map((email) => ({ email }));
  expect((await as(t, s, 'POST', '/store/S1/add/user', { users })).statusCode).toBe(200);
  await prefer(ANA, { language: 'en', channel: 'email', events: ORDER_EVENTS });
  await prefer(CLEO, { channel: 'email' });
  await prefer(DANA, { channel: 'email', events: ['TICKET_INFO_REQUESTED'] });
});
afterAll(() => t.close());

describe('event messages', () => {
  it('an opted-in person is sent order confirmed, delivered and cancelled (single and batch writes); nobody else is', async () => {
    const [first, second, third] = await pendingOrders('events', 3);
    expect((await as(t, s, 'PUT', `/order/${first}/confirm`, {})).statusCode).toBe(200);
    expect((await as(t, s, 'PUT', `/order/${first}/deliver`, { complete: true })).statusCode).toBe(200);
    expect((await as(t, s, 'PUT', `/order/${second}/cancel`, { cancelCode: 'OUT_OF_STOCK' })).statusCode).toBe(200);
    // The batch path runs the same operations in the worker.
    const batch = await as(t, s, 'POST', '/batch/order', { confirm: [{ id: third }] });
    expect(batch.statusCode, batch.body).toBe(202);
    const [status] = await t.waitForBatches(s, batch.json().batchId);
    expect(status.failed).toBe(0);

    const sent = await waitFor('the four messages', async () => (events(ANA).length >= 4 ? events(ANA) : undefined), 20_000);
    expect(sent.map((m: OutgoingMessage) => [m.kind, m.channel, m.subject, m.body])).toEqual([
      ['email', 'email', 'Order confirmed', `Tienda Uno: your order #${first} was confirmed.`],
      ['email', 'email', 'Order delivered', `Tienda Uno: your order #${first} was delivered.`],
      ['email', 'email', 'Order cancelled', `Tienda Uno: your order #${second} was cancelled.`],
      ['email', 'email', 'Order confirmed', `Tienda Uno: your order #${third} was confirmed.`],
    ]);
    // Everyone of the store has the in-app notifications; only Ana has messages.
    const inApp = await t.request({ method: 'GET', url: '/app/notifications', headers: { authorization: `Bearer ${await tokenOf(BOB)}` } });
    expect(inApp.json().total).toBe(4);
    expect(events().filter((m) => m.to !== ANA)).toEqual([]);
    expect((await rows()).map((r) => r.recipient)).toEqual([ANA, ANA, ANA, ANA]);
  });

  it('a refused change and a rolled back change leave no message row', async () => {
    const [order] = await pendingOrders('refused', 1);
    const before = await counts();

    // Refused by the rules: a pending order cannot be delivered.
    expect((await as(t, s, 'PUT', `/order/${order}/deliver`, { complete: true })).statusCode).toBe(409);
    expect(await counts()).toEqual(before);

    // Rolled back after the notification and its message were written: the order's own
    // update fails (a trigger stands in for any failure later in the transaction).
    await sql`create function refuse_order_update() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`.execute(t.deps.db);
    await sql`create trigger refuse_order_update before update on orders for each row execute function refuse_order_update()`.execute(t.deps.db);
    try {
      expect((await as(t, s, 'PUT', `/order/${order}/confirm`, {})).statusCode).toBe(500);
      expect((await as(t, s, 'PUT', `/order/${order}/cancel`, { cancelCode: 'OUT_OF_STOCK' })).statusCode).toBe(500);
    } finally {
      await sql`drop trigger refuse_order_update on orders`.execute(t.deps.db);
      await sql`drop function refuse_order_update()`.execute(t.deps.db);
    }
    expect(await counts()).toEqual(before);
    const sentBefore = events(ANA).length;

    // The same change, once nothing refuses it, writes its message (so the 500 was the rollback).
    expect((await as(t, s, 'PUT', `/order/${order}/confirm`, {})).statusCode).toBe(200);
    expect((await counts()).messages).toBe(before.messages + 1);
    const sent = await waitFor('the confirmation', async () => events(ANA)[sentBefore], 20_000);
    expect(sent.body).toBe(`Tienda Uno: your order #${order} was confirmed.`);
  });
});
