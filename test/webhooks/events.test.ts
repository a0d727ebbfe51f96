// Every event the platform sends: its path, headers, body and Standard Webhooks
// signature, checked by a real receiver with the standardwebhooks package.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/modules/webhooks/webhooks.events.ts';
import { as, type TestApp } from '../helpers/app.ts';
import { app, appAndReceiver, configureWebhook, deliveries, OffsetClock, orderOf, Receiver, settle, storeWithPerson, verify, waitUntil } from './helpers.ts';

let t: TestApp, receiver: Receiver, close: () => Promise<void>;
const clock = new OffsetClock();

beforeAll(async () => void ({ t, receiver, close } = await appAndReceiver({ clock, dispatcher: { random: () => 0.5 } })));
afterAll(() => close());

describe('ticket events', () => {
  it('sends ticket.created to /webhooks/support/create-ticket with the ticket as its body, signed', async () => {
    const s = await t.supplier();
    const secret = await configureWebhook(t, s, receiver);
    const store = await storeWithPerson(t, s);
    const orderId = await orderOf(t, s, 'S-1');
    const opened = await app(t, store, 'POST', `/app/stores/${store.storeId}/tickets`, { message: 'Faltan las cajas de cola', orderId });
    expect(opened.statusCode, opened.body).toBe(200);
    const [call] = await receiver.waitForCalls(s.code, 1);
    expect(call!.method).toBe('POST');
    expect(call!.path).toBe('/webhooks/support/create-ticket');
    expect(call!.headers['x-event-type']).toBe('ticket.created');
    expect(call!.headers['content-type']).toBe('application/json');
    expect(call!.headers['user-agent']).toMatch(/^Surtido-Webhooks\//);
    expect(call!.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(call!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(verify(call!, secret, clock)).toEqual(call!.json);

    const ticket = (await as(t, s, 'GET', `/support/ticket/${opened.json().id}`)).json();
    expect(call!.json).toEqual(ticket);
    expect(Object.keys(call!.json)).toEqual(['id', 'status', 'userMessage', 'externalTicketId', 'platformInternalCode', 'resolvedAt', 'orderId', 'createdAt', 'updatedAt', 'messages']);
    expect(call!.json).toMatchObject({ status: 'PENDING', userMessage: 'Faltan las cajas de cola', platformInternalCode: 'S-1', orderId, externalTicketId: null, resolvedAt: null });
    expect(call!.json.messages).toEqual([{ from: 'STORE', message: 'Faltan las cajas de cola', at: ticket.createdAt }]);

    // The receiver sees the call before the dispatcher records its answer.
    await waitUntil('the delivery to be recorded', async () => (await deliveries(t, s))[0]?.status === 'delivered');
    const [delivery] = await deliveries(t, s);
    expect(delivery).toMatchObject({ webhookId: call!.headers['webhook-id'], eventType: 'ticket.created', path: '/webhooks/support/create-ticket', status: 'delivered', nextAttemptAt: null });
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ statusCode: 200, responseBody: 'ok', error: null });
  });

  it('sends ticket.additional_info_received with the store answer last in messages, after the created event', async () => {
    const s = await t.supplier();
    const secret = await configureWebhook(t, s, receiver);
    const store = await storeWithPerson(t, s);
    const { id } = (await app(t, store, 'POST', `/app/stores/${store.storeId}/tickets`, { message: 'Llegó roto' })).json();
    await receiver.waitForCalls(s.code, 1);
    expect((await as(t, s, 'POST', '/support/ticket/additional-info', { ticketId: id, message: '¿Foto?' })).statusCode).toBe(200);
    const answered = await app(t, store, 'POST', `/app/tickets/${id}/answer`, { message: 'Aquí está la foto' });
    expect(answered.statusCode, answered.body).toBe(200);
    const calls = await receiver.waitForCalls(s.code, 2);
    const call = calls[1]!;
    expect(call.path).toBe('/webhooks/support/ticket-additional-info-received');
    expect(call.headers['x-event-type']).toBe('ticket.additional_info_received');
    expect(verify(call, secret, clock)).toEqual(call.json);
    expect(call.json.status).toBe('IN_PROGRESS');
    expect(call.json.messages.map((m: { from: string; message: string }) => [m.from, m.message])).toEqual([
      ['STORE', 'Llegó roto'],
      ['SUPPLIER', '¿Foto?'],
      ['STORE', 'Aquí está la foto'],
    ]);
    expect(call.json).toEqual((await as(t, s, 'GET', `/support/ticket/${id}`)).json());
    expect(call.headers['webhook-id']).not.toBe(calls[0]!.headers['webhook-id']);
  });
});

describe('order events (recorded by the orders module through recordEvent)', () => {
  it('sends order.created and order.cancelled to /webhooks/order, told apart by status and x-event-type', async () => {
    const s = await t.supplier();
    const secret = await configureWebhook(t, s, receiver);
    const order = { id: 1001, status: 'PENDING', createdAt: '2026-11-21T13:45:00.000Z', buyer: { storeInternalCode: 'S-1' }, products: [], total: 140400, cancellation: null };
    const cancelled = { ...order, status: 'CANCELLED', cancellation: { code: 'NEW_ORDER', reason: 'I will place a new order', by: 'STORE', message: null, at: '2026-11-21T14:00:00.000Z' } };
    await t.deps.db.transaction().execute(async (trx) => {
      await recordEvent(trx, { supplierId: s.id, type: 'order.created', path: '/webhooks/order', orderingKey: 'order:1001', body: order });
    });
    await t.deps.db.transaction().execute(async (trx) => {
      await recordEvent(trx, { supplierId: s.id, type: 'order.cancelled', path: '/webhooks/order', orderingKey: 'order:1001', body: cancelled });
    });
    t.deps.workAccepted();
    const calls = await receiver.waitForCalls(s.code, 2);
    expect(calls.map((c) => [c.path, c.headers['x-event-type'], c.json.status])).toEqual([
      ['/webhooks/order', 'order.created', 'PENDING'],
      ['/webhooks/order', 'order.cancelled', 'CANCELLED'],
    ]);
    expect(calls[0]!.body).toBe(JSON.stringify(order));
    expect(calls[1]!.body).toBe(JSON.stringify(cancelled));
    for (const c of calls) expect(verify(c, secret, clock)).toEqual(c.json);
  });

  it('records nothing when the transaction rolls back (no commit-then-enqueue)', async () => {
    const s = await t.supplier();
    await configureWebhook(t, s, receiver);
    await expect(
      t.deps.db.transaction().execute(async (trx) => {
        await recordEvent(trx, { supplierId: s.id, type: 'order.created', orderingKey: 'order:1', body: { id: 1 } });
        throw new Error('the order failed');
      }),
    ).rejects.toThrow('the order failed');
    await settle();
    expect(receiver.callsOf(s.code)).toEqual([]);
    expect(await deliveries(t, s)).toEqual([]);
  });

  it('refuses a path that is not the event type\'s', async () => {
    const s = await t.supplier();
    await expect(
      t.deps.db.transaction().execute((trx) => recordEvent(trx, { supplierId: s.id, type: 'ticket.created', path: '/webhooks/order' as never, orderingKey: 'x', body: {} })),
    ).rejects.toThrow(/is sent to/);
  });
});

describe('test ping', () => {
  it('sends a signed ping to /webhooks/ping and answers the attempt', async () => {
    const s = await t.supplier();
    const secret = await configureWebhook(t, s, receiver);
    const res = await as(t, s, 'POST', '/webhook/test');
    expect(res.statusCode, res.body).toBe(200);
    const [call] = receiver.callsOf(s.code);
    expect(call!.path).toBe('/webhooks/ping');
    expect(call!.headers['x-event-type']).toBe('ping');
    expect(verify(call!, secret, clock)).toMatchObject({ type: 'ping', supplierCode: s.code });
    expect(res.json()).toMatchObject({ eventType: 'ping', status: 'delivered', webhookId: call!.headers['webhook-id'], attempts: [{ statusCode: 200, responseBody: 'ok', error: null }] });
    expect(res.json().attempts[0].latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('answers a failed ping with the status and the first 1 KiB of the answer, and does not retry it', async () => {
    const s = await t.supplier();
    await configureWebhook(t, s, receiver);
    receiver.respond(s.code, () => ({ status: 500, body: 'x'.repeat(5000) }));
    const res = await as(t, s, 'POST', '/webhook/test');
    expect(res.json()).toMatchObject({ status: 'failed', attempts: [{ statusCode: 500, error: null }] });
    expect(res.json().attempts[0].responseBody).toBe('x'.repeat(1024));
    clock.advance(10 * 60_000);
    await settle();
    expect(receiver.callsOf(s.code)).toHaveLength(1);
  });

  it('answers 409 when the supplier has no webhook base URL; operators ping any supplier', async () => {
    const s = await t.supplier();
    const res = await as(t, s, 'POST', '/webhook/test');
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('WEBHOOK_NOT_CONFIGURED');
    await configureWebhook(t, s, receiver);
    const admin = await t.admin('POST', `/admin/suppliers/${s.id}/webhook/test`);
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json().status).toBe('delivered');
    expect((await t.admin('POST', '/admin/suppliers/999999/webhook/test')).statusCode).toBe(404);
  });
});

describe('secret rotation', () => {
  it('signs with both secrets for 24 h, then with the new one only', async () => {
    const s = await t.supplier();
    const old = await configureWebhook(t, s, receiver);
    const rotated = await t.admin('POST', `/admin/suppliers/${s.id}/webhook/rotate-secret`);
    const fresh = rotated.json().secret;
    expect(fresh).not.toBe(old);
    await as(t, s, 'POST', '/webhook/test');
    const [during] = receiver.callsOf(s.code);
    const signatures = during!.headers['webhook-signature']!.split(' ');
    expect(signatures).toHaveLength(2);
    expect(verify(during!, fresh, clock)).toMatchObject({ type: 'ping' });
    expect(verify(during!, old, clock)).toMatchObject({ type: 'ping' });

    clock.advance(24 * 3600_000 + 60_000);
    // (The supplier's token expired with the day; an operator sends this ping.)
    expect((await t.admin('POST', `/admin/suppliers/${s.id}/webhook/test`)).statusCode).toBe(200);
    const after = receiver.callsOf(s.code)[1]!;
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verify(after, fresh, clock)).toMatchObject({ type: 'ping' });
    expect(() => verify(after, old, clock)).toThrow(/No matching signature/);
  });
});

describe('redelivery', () => {
  it('sends the event again as a new delivery with the same webhook-id and the same body', async () => {
    const s = await t.supplier();
    const other = await t.supplier();
    const secret = await configureWebhook(t, s, receiver);
    const store = await storeWithPerson(t, s);
    await app(t, store, 'POST', `/app/stores/${store.storeId}/tickets`, { message: 'Hola' });
    const [first] = await receiver.waitForCalls(s.code, 1);
    await waitUntil('the delivery to be recorded', async () => (await deliveries(t, s))[0]?.status === 'delivered');
    const [original] = await deliveries(t, s);

    expect((await as(t, other, 'POST', `/webhook/deliveries/${original.id}/redeliver`)).statusCode).toBe(404);
    const res = await as(t, s, 'POST', `/webhook/deliveries/${original.id}/redeliver`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ webhookId: original.webhookId, redeliveryOf: original.id, eventType: 'ticket.created' });
    expect(res.json().id).not.toBe(original.id);
    const calls = await receiver.waitForCalls(s.code, 2);
    expect(calls[1]!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(calls[1]!.body).toBe(first!.body);
    expect(verify(calls[1]!, secret, clock)).toEqual(first!.json);
    await waitUntil('the redelivery to be recorded', async () => (await deliveries(t, s))[0].status === 'delivered');

    const byOperator = await t.admin('POST', `/admin/webhook/deliveries/${original.id}/redeliver`);
    expect(byOperator.statusCode, byOperator.body).toBe(200);
    await receiver.waitForCalls(s.code, 3);
    expect((await t.admin('POST', '/admin/webhook/deliveries/99999999/redeliver')).statusCode).toBe(404);
  });
});
