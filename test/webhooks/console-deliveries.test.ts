// The delivery log as the console reads it (issue #34): a pending delivery says what holds
// it back (no URL, the webhook off, an earlier event of its resource) rather than a
// "next attempt" already past; redelivering while a delivery of the same event is still
// pending joins that delivery (sent now, never queued twice), so the receiver gets the
// event once; one delivery's read carries the exact body its attempts sent, never the secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/modules/webhooks/webhooks.events.ts';
import { as, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { memberSession } from '../helpers/console.ts';
import { appAndReceiver, configureWebhook, deliveries, OffsetClock, Receiver, settle, waitUntil } from './helpers.ts';

let t: TestApp, receiver: Receiver, close: () => Promise<void>;
const clock = new OffsetClock();

beforeAll(async () => void ({ t, receiver, close } = await appAndReceiver({ clock, dispatcher: { random: () => 0.5 } })));
afterAll(() => close());

async function record(s: TestSupplier, orderingKey: string, body: unknown) {
  const recorded = await t.deps.db.transaction().execute((trx) => recordEvent(trx, { supplierId: s.id, type: 'order.created', orderingKey, body }));
  t.deps.workAccepted();
  return recorded;
}

const adminDelivery = async (s: TestSupplier, id: number) => {
  const res = await t.admin('GET', `/admin/suppliers/${s.id}/webhook/deliveries`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as any[]).find((d) => d.id === id);
};

describe('what holds a pending delivery back', () => {
  it('says no URL, then the webhook off, then an earlier event of the same resource; a delivered one says nothing', async () => {
    const s = await t.supplier();
    const { deliveryId } = await record(s, 'order:1', { id: 1, status: 'PENDING' });
    const second = await record(s, 'order:1', { id: 1, status: 'CONFIRMED' });
    let [later, first] = await deliveries(t, s);
    expect(first).toMatchObject({ id: deliveryId, status: 'pending', waitingFor: 'baseUrl' });
    expect(later).toMatchObject({ id: second.deliveryId, waitingFor: 'baseUrl' });

    await configureWebhook(t, s, receiver, false);
    [later, first] = await deliveries(t, s);
    expect(first.waitingFor).toBe('enabled');

    receiver.respond(s.code, (_call, n) => (n === 0 ? { status: 500 } : { status: 200 }));
    await configureWebhook(t, s, receiver, true);
    await receiver.waitForCalls(s.code, 1);
    await waitUntil('the failed attempt recorded', async () => (await adminDelivery(s, deliveryId)).attempts.length === 1);
    [later, first] = await deliveries(t, s);
    // Retrying: its next attempt is ahead, and nothing else holds it; the later event waits for it.
    expect(first.status).toBe('pending');
    expect(first.waitingFor).toBeUndefined();
    expect(Date.parse(first.nextAttemptAt)).toBeGreaterThan(clock.now().getTime());
    expect(later.waitingFor).toBe('earlierEvent');

    clock.advance(6_000);
    await receiver.waitForCalls(s.code, 3);
    await waitUntil('both delivered', async () => (await deliveries(t, s)).every((d) => d.status === 'delivered'));
    for (const d of await deliveries(t, s)) expect(d).not.toHaveProperty('waitingFor');
  });
});

describe('redelivering while a delivery of the event is pending', () => {
  it('joins the delivery waiting for a URL: no second delivery, and the receiver gets the event exactly once', async () => {
    const s = await t.supplier();
    const { deliveryId, webhookId } = await record(s, 'order:7', { id: 7, status: 'PENDING' });
    for (const res of [
      await as(t, s, 'POST', `/webhook/deliveries/${deliveryId}/redeliver`),
      await as(t, s, 'POST', `/webhook/deliveries/${deliveryId}/redeliver`),
      await t.admin('POST', `/admin/webhook/deliveries/${deliveryId}/redeliver`),
    ]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: deliveryId, status: 'pending', redeliveryOf: null, waitingFor: 'baseUrl' });
    }
    expect(await deliveries(t, s)).toHaveLength(1);

    await configureWebhook(t, s, receiver);
    await receiver.waitForCalls(s.code, 1);
    await waitUntil('delivered', async () => (await deliveries(t, s))[0].status === 'delivered');
    await settle(300);
    expect(receiver.callsOf(s.code).filter((c) => c.headers['webhook-id'] === webhookId)).toHaveLength(1);

    // Finished, it may be sent again: once, as a new delivery of the same webhook-id. The
    // webhook is off meanwhile, so the replay is still pending when it is asked for again.
    await configureWebhook(t, s, receiver, false);
    const again = await as(t, s, 'POST', `/webhook/deliveries/${deliveryId}/redeliver`);
    expect(again.statusCode, again.body).toBe(200);
    const replay = again.json();
    expect(replay).toMatchObject({ status: 'pending', redeliveryOf: deliveryId, waitingFor: 'enabled' });
    const twice = await as(t, s, 'POST', `/webhook/deliveries/${deliveryId}/redeliver`);
    expect(twice.json()).toMatchObject({ id: replay.id, redeliveryOf: deliveryId });
    expect(await deliveries(t, s)).toHaveLength(2);
    await configureWebhook(t, s, receiver, true);
    await receiver.waitForCalls(s.code, 2);
    await waitUntil('the replay delivered', async () => (await deliveries(t, s))[0].status === 'delivered');
    await settle(300);
    expect(receiver.callsOf(s.code).filter((c) => c.headers['webhook-id'] === webhookId)).toHaveLength(2);
  });

  it('sends a retrying delivery now instead of queueing a second one, so no retry sends the event again', async () => {
    const s = await t.supplier();
    await configureWebhook(t, s, receiver);
    receiver.respond(s.code, (_call, n) => (n === 0 ? { status: 500, body: 'down' } : { status: 200 }));
    const { deliveryId, webhookId } = await record(s, 'order:8', { id: 8, status: 'PENDING' });
    await receiver.waitForCalls(s.code, 1);
    await waitUntil('the failed attempt recorded', async () => (await adminDelivery(s, deliveryId)).attempts.length === 1);
    const retrying = await adminDelivery(s, deliveryId);
    expect(Date.parse(retrying.nextAttemptAt)).toBeGreaterThan(clock.now().getTime());

    // The clock does not move: the retry is 5 s away, and the redelivery sends it now.
    const res = await as(t, s, 'POST', `/webhook/deliveries/${deliveryId}/redeliver`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: deliveryId, status: 'pending', redeliveryOf: null });
    expect(Date.parse(res.json().nextAttemptAt)).toBeLessThanOrEqual(Date.now());
    await receiver.waitForCalls(s.code, 2);
    await waitUntil('delivered', async () => (await adminDelivery(s, deliveryId)).status === 'delivered');
    clock.advance(10 * 60_000);
    await settle(300);
    expect(receiver.callsOf(s.code).filter((c) => c.headers['webhook-id'] === webhookId)).toHaveLength(2);
    expect(await deliveries(t, s)).toHaveLength(1);
  });

  it('queues one delivery for two redeliveries of a finished one sent at once', async () => {
    const s = await t.supplier();
    await configureWebhook(t, s, receiver, true);
    receiver.respond(s.code, () => ({ status: 500 }));
    const ping = (await as(t, s, 'POST', '/webhook/test')).json();
    expect(ping.status).toBe('failed');
    await configureWebhook(t, s, receiver, false);
    const answers = await Promise.all([1, 2].map(() => as(t, s, 'POST', `/webhook/deliveries/${ping.id}/redeliver`)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(answers[0]!.json().id).toBe(answers[1]!.json().id);
    expect(await deliveries(t, s)).toHaveLength(2);
  });
});

describe("one delivery's read", () => {
  it('carries the body every attempt sent, byte for byte, without the secret; another supplier reads a 404', async () => {
    const s = await t.supplier();
    const secret = await configureWebhook(t, s, receiver);
    receiver.respond(s.code, (_c, n) => (n === 0 ? { status: 503, body: 'later' } : { status: 200 }));
    const { deliveryId } = await record(s, 'order:9', { id: 9, status: 'PENDING', note: 'Doña Rosa — 2 cajas' });
    await receiver.waitForCalls(s.code, 1);
    clock.advance(6_000);
    await receiver.waitForCalls(s.code, 2);
    await waitUntil('delivered', async () => (await adminDelivery(s, deliveryId)).status === 'delivered');

    const viewer = await memberSession(t, s, `viewer.${s.code.toLowerCase()}@example.com`, 'viewer');
    const res = await as(t, viewer, 'GET', `/webhook/deliveries/${deliveryId}`);
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    const sent = receiver.callsOf(s.code).map((c) => c.body);
    expect(sent).toEqual([d.requestBody, d.requestBody]);
    expect(d).toMatchObject({ id: deliveryId, status: 'delivered', requestBodyBytes: Buffer.byteLength(d.requestBody), requestBodyTruncated: false });
    expect(d.attempts).toHaveLength(2);
    expect(res.body).not.toContain(secret);
    expect(res.body).not.toContain(secret.replace(/^whsec_/, ''));

    const other = await t.supplier();
    const theirs = await as(t, other, 'GET', `/webhook/deliveries/${deliveryId}`);
    expect(theirs.statusCode).toBe(404);
    expect((await as(t, other, 'GET', '/webhook/deliveries/99999999')).statusCode).toBe(404);
  });
});
