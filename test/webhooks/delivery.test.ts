// How deliveries behave when receivers fail: the retry schedule (on a clock the test
// moves, no real waiting), timeouts, refused connections, Retry-After, 410 Gone,
// ordering per resource, and suppliers without a usable webhook.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/modules/webhooks/webhooks.events.ts';
import { RETRY_DELAYS_MS } from '../../src/modules/webhooks/webhooks.schedule.ts';
import { createWebhookDispatcher } from '../../src/main/worker.ts';
import type { TestApp, TestSupplier } from '../helpers/app.ts';
import { freePort } from '../helpers/process.ts';
import { appAndReceiver, configureWebhook, deliveries, OffsetClock, Receiver, settle, waitUntil } from './helpers.ts';

let t: TestApp, receiver: Receiver, close: () => Promise<void>;
const clock = new OffsetClock();
// Long enough for a loaded CI machine to answer a local request; the hanging receiver waits it out once.
const TIMEOUT_MS = 1_500;

// random 0.5: no jitter, so each retry is due exactly its delay after the failure.
beforeAll(async () => void ({ t, receiver, close } = await appAndReceiver({ clock, dispatcher: { random: () => 0.5 }, env: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } })));
afterAll(() => close());

async function record(s: TestSupplier, orderingKey: string, body: unknown, type: 'order.created' | 'order.cancelled' = 'order.created') {
  const recorded = await t.deps.db.transaction().execute((trx) => recordEvent(trx, { supplierId: s.id, type, orderingKey, body }));
  t.deps.workAccepted();
  return recorded;
}

/** The supplier's deliveries as the admin API shows them (supplier tokens expire as the clock moves). */
async function adminDeliveries(s: TestSupplier, query = '') {
  const res = await t.admin('GET', `/admin/suppliers/${s.id}/webhook/deliveries${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as any[];
}

async function waitForAttempts(s: TestSupplier, deliveryId: number, count: number) {
  let found: any;
  await waitUntil(`${count} attempts of delivery ${deliveryId}`, async () => {
    found = (await adminDeliveries(s)).find((d) => d.id === deliveryId);
    return found !== undefined && found.attempts.length >= count && (found.status !== 'pending' || found.nextAttemptAt !== null);
  });
  return found;
}

const webhookEnabled = async (supplierId: number) =>
  (await t.deps.db.selectFrom('supplier_webhooks').select('enabled').where('supplier_id', '=', supplierId).executeTakeFirstOrThrow()).enabled;

describe('retries', () => {
  it('retries a 500 after 5 s, then 5 min, and records every attempt', async () => {
    const s = await t.supplier();
    await configureWebhook(t, s, receiver);
    receiver.respond(s.code, (_call, n) => (n < 2 ? { status: 500, body: `boom ${n}` } : { status: 204 }));
    const { deliveryId } = await record(s, 'order:1', { id: 1, status: 'PENDING' });

    let d = await waitForAttempts(s, deliveryId, 1);
    expect(d).toMatchObject({ status: 'pending', lastStatusCode: 500, lastError: 'the receiver answered 500' });
    const failedAt = Date.parse(d.attempts[0].at);
    expect(Date.parse(d.nextAttemptAt) - failedAt).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[0]);
    expect(Date.parse(d.nextAttemptAt) - failedAt).toBeLessThan(RETRY_DELAYS_MS[0] + 1000);

    clock.advance(4_000);
    await settle();
    expect(receiver.callsOf(s.code)).toHaveLength(1);
    clock.advance(1_500);
    d = await waitForAttempts(s, deliveryId, 2);
    expect(Date.parse(d.nextAttemptAt) - Date.parse(d.attempts[1].at)).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[1]);

    clock.advance(RETRY_DELAYS_MS[1] + 1_000);
    d = await waitForAttempts(s, deliveryId, 3);
    expect(d.status).toBe('delivered');
    expect(d.attempts.map((a: { statusCode: number; responseBody: string | null }) => [a.statusCode, a.responseBody])).toEqual([
      [500, 'boom 0'],
      [500, 'boom 1'],
      [204, null],
    ]);
    const calls = receiver.callsOf(s.code);
    expect(new Set(calls.map((c) => c.headers['webhook-id'])).size).toBe(1);
    expect(calls.map((c) => c.headers['webhook-timestamp'])).toEqual([...new Set(calls.map((c) => c.headers['webhook-timestamp']))]);
  });

  it('fails a delivery after the 10th attempt; the next event of the resource waited for it, others did not', async () => {
    const s = await t.supplier();
    await configureWebhook(t, s, receiver);
    receiver.respond(s.code, (call) => (call.json.id === 'A1' ? { status: 302, headers: { location: 'https://elsewhere.example/' } } : { status: 200 }));
    const first = await record(s, 'order:A', { id: 'A1' });
    const second = await record(s, 'order:A', { id: 'A2' });
    await record(s, 'order:B', { id: 'B1' });
    await waitUntil('B1 to arrive while A1 is retried', () => receiver.callsOf(s.code).some((c) => c.json.id === 'B1'));

    for (let attempt = 1; attempt <= 10; attempt++) {
      const d = await waitForAttempts(s, first.deliveryId, attempt);
      if (attempt < 10) {
        // A1 is still pending: A2 has not been sent.
        expect(receiver.callsOf(s.code).some((c) => c.json.id === 'A2')).toBe(false);
        expect(d.status).toBe('pending');
        clock.advance(RETRY_DELAYS_MS[attempt - 1]! + 1_000);
      } else {
        expect(d.status).toBe('failed');
        expect(d.nextAttemptAt).toBeNull();
        expect(d.finishedAt).not.toBeNull();
        expect(d.attempts.every((a: { statusCode: number }) => a.statusCode === 302)).toBe(true);
      }
    }
    await waitUntil('A2 after A1 failed for good', () => receiver.callsOf(s.code).some((c) => c.json.id === 'A2'));
    expect(receiver.callsOf(s.code).filter((c) => c.json.id === 'A1')).toHaveLength(10);
    const failed = await adminDeliveries(s, '?status=failed');
    expect(failed.map((d) => d.id)).toEqual([first.deliveryId]);
    // The receiver answered A2; the dispatcher records it a moment later.
    await waitUntil('A2 recorded delivered', async () => (await adminDeliveries(s)).find((d) => d.id === second.deliveryId).status === 'delivered');
  });

  it('ends an attempt that gets no answer within the timeout, and retries it', async () => {
    const s = await t.supplier();
    await configureWebhook(t, s, receiver);
    receiver.respond(s.code, (_call, n) => (n === 0 ? { status: 200, hang: true } : { status: 200 }));
    const { deliveryId } = await record(s, 'order:T', { id: 'T' });
    const d = await waitForAttempts(s, deliveryId, 1);
    expect(d.attempts[0]).toMatchObject({ statusCode: null, error: `no answer within ${TIMEOUT_MS} ms` });
    expect(d.attempts[0].latencyMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    clock.advance(RETRY_DELAYS_MS[0] + 1_000);
    expect((await waitForAttempts(s, deliveryId, 2)).status).toBe('delivered');
  });

  it('records a refused connection and retries it', async () => {
    const s = await t.supplier();
    const port = await freePort();
    const res = await t.admin('PUT', `/admin/suppliers/${s.id}/webhook`, { baseUrl: `http://127.0.0.1:${port}/erp`, enabled: true });
    expect(res.statusCode).toBe(200);
    const { deliveryId } = await record(s, 'order:R', { id: 'R' });
    const d = await waitForAttempts(s, deliveryId, 1);
    expect(d.status).toBe('pending');
    expect(d.attempts[0].statusCode).toBeNull();
    expect(d.attempts[0].error).toMatch(/ECONNREFUSED/);
    await configureWebhook(t, s, receiver);
    clock.advance(RETRY_DELAYS_MS[0] + 1_000);
    expect((await waitForAttempts(s, deliveryId, 2)).status).toBe('delivered');
  });

  it('waits at least as long as a 503 Retry-After says', async () => {
    const s = await t.supplier();
    await configureWebhook(t, s, receiver);
    receiver.respond(s.code, (_call, n) => (n === 0 ? { status: 503, headers: { 'retry-after': '3600' } } : { status: 200 }));
    const { deliveryId } = await record(s, 'order:RA', { id: 'RA' });
    const d = await waitForAttempts(s, deliveryId, 1);
    expect(Date.parse(d.nextAttemptAt) - Date.parse(d.attempts[0].at)).toBeGreaterThanOrEqual(3600_000);
    clock.advance(60_000);
    await settle();
    expect(receiver.callsOf(s.code)).toHaveLength(1);
    clock.advance(3600_000);
    expect((await waitForAttempts(s, deliveryId, 2)).status).toBe('delivered');
  });
});

describe('410 Gone and unusable webhooks', () => {
  it('disables the webhook at once on 410, keeps recording events and delivers them once enabled again', async () => {
    const s = await t.supplier();
    await configureWebhook(t, s, receiver);
    let gone = true;
    receiver.respond(s.code, () => (gone ? { status: 410 } : { status: 200 }));
    const first = await record(s, 'order:G1', { id: 'G1' });
    const d = await waitForAttempts(s, first.deliveryId, 1);
    expect(d.status).toBe('pending');
    expect(d.lastError).toMatch(/410 Gone/);
    expect(await webhookEnabled(s.id)).toBe(false);

    await record(s, 'order:G2', { id: 'G2' });
    clock.advance(RETRY_DELAYS_MS[0] * 10);
    await settle();
    expect(receiver.callsOf(s.code)).toHaveLength(1);

    gone = false;
    await configureWebhook(t, s, receiver, true);
    t.deps.workAccepted();
    await receiver.waitForCalls(s.code, 3);
    expect(receiver.callsOf(s.code).slice(1).map((c) => c.json.id).sort()).toEqual(['G1', 'G2']);
    await waitUntil('both delivered', async () => (await adminDeliveries(s)).every((x) => x.status === 'delivered'));
  });

  it('sends nothing to a supplier without a base URL or with its webhook disabled, and keeps the events', async () => {
    const bare = await t.supplier();
    const disabled = await t.supplier();
    await configureWebhook(t, disabled, receiver, false);
    await record(bare, 'order:N1', { id: 'N1' });
    await record(disabled, 'order:N2', { id: 'N2' });
    clock.advance(3600_000);
    await settle();
    expect(receiver.callsOf(bare.code)).toEqual([]);
    expect(receiver.callsOf(disabled.code)).toEqual([]);
    expect((await adminDeliveries(bare)).map((d) => [d.status, d.attempts.length])).toEqual([['pending', 0]]);

    await configureWebhook(t, bare, receiver);
    await configureWebhook(t, disabled, receiver, true);
    t.deps.workAccepted();
    expect((await receiver.waitForCalls(bare.code, 1))[0]!.json).toEqual({ id: 'N1' });
    expect((await receiver.waitForCalls(disabled.code, 1))[0]!.json).toEqual({ id: 'N2' });
  });
});

describe('ordering', () => {
  it('delivers the events of one resource in order while the receiver fails for a while; other resources do not wait', async () => {
    const s = await t.supplier();
    await configureWebhook(t, s, receiver);
    let failing = true;
    receiver.respond(s.code, (call) => (failing && call.json.key === 'K' ? { status: 500 } : { status: 200 }));
    for (let i = 1; i <= 3; i++) await record(s, 'ticket:K', { key: 'K', n: i });
    await record(s, 'ticket:L', { key: 'L', n: 1 });
    await waitUntil('L to arrive while K retries', () => receiver.callsOf(s.code).some((c) => c.json.key === 'L'));
    for (let round = 0; round < 3; round++) {
      clock.advance(RETRY_DELAYS_MS[round]! + 1_000);
      await settle(60);
    }
    failing = false;
    clock.advance(RETRY_DELAYS_MS[3]! + 1_000);
    await waitUntil('K 1..3 delivered', () => receiver.callsOf(s.code).filter((c) => c.json.key === 'K' && c.json.n === 3).length > 0);
    const k = receiver.callsOf(s.code).filter((c) => c.json.key === 'K').map((c) => c.json.n);
    // Every attempt of n=1 comes before any of n=2, which comes before n=3.
    expect(k).toEqual([...k].sort());
    expect(k.filter((n: number) => n === 2)).toHaveLength(1);
    expect(k.filter((n: number) => n === 3)).toHaveLength(1);
  });
});

describe('several dispatchers', () => {
  it('share the work without sending an event twice, and keep each resource in order', async () => {
    const s = await t.supplier();
    await configureWebhook(t, s, receiver);
    receiver.respond(s.code, () => ({ status: 200, delayMs: 2 }));
    const logger = { info() {}, warn() {}, error: (o: object, m: string) => console.error(m, o) };
    const others = [0, 1].map(() => createWebhookDispatcher(t.deps, logger, { concurrency: 4 }));
    others.forEach((d) => d.start());
    try {
      const KEYS = 8;
      const PER_KEY = 15;
      for (let n = 0; n < PER_KEY; n++) {
        await t.deps.db.transaction().execute(async (trx) => {
          for (let k = 0; k < KEYS; k++) await recordEvent(trx, { supplierId: s.id, type: 'order.created', orderingKey: `order:${k}`, body: { k, n } });
        });
        t.deps.workAccepted();
        others.forEach((d) => d.wake());
      }
      const calls = await receiver.waitForCalls(s.code, KEYS * PER_KEY, 30_000);
      await settle();
      expect(receiver.callsOf(s.code)).toHaveLength(KEYS * PER_KEY);
      expect(new Set(calls.map((c) => c.headers['webhook-id'])).size).toBe(KEYS * PER_KEY);
      for (let k = 0; k < KEYS; k++) {
        expect(calls.filter((c) => c.json.k === k).map((c) => c.json.n)).toEqual(Array.from({ length: PER_KEY }, (_, n) => n));
      }
    } finally {
      await Promise.all(others.map((d) => d.stop()));
    }
  });
});

describe('the delivery log', () => {
  it('filters by status, eventType and dates, newest first, paged', async () => {
    const s = await t.supplier();
    for (let i = 0; i < 3; i++) await record(s, `order:F${i}`, { id: i }, i === 2 ? 'order.cancelled' : 'order.created');
    const all = await adminDeliveries(s);
    expect(all.map((d) => d.eventType)).toEqual(['order.cancelled', 'order.created', 'order.created']);
    expect(all[0].id).toBeGreaterThan(all[1].id);
    expect((await adminDeliveries(s, '?eventType=order.cancelled')).length).toBe(1);
    expect((await adminDeliveries(s, '?status=pending')).length).toBe(3);
    expect((await adminDeliveries(s, '?status=delivered')).length).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await adminDeliveries(s, `?from=${today}&to=${today}`)).length).toBe(3);
    expect((await adminDeliveries(s, '?to=2000-01-01')).length).toBe(0);
    expect((await adminDeliveries(s, `?from=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`)).length).toBe(0);
    const page = await t.admin('GET', `/admin/suppliers/${s.id}/webhook/deliveries?take=2&page=2`);
    expect(page.json()).toMatchObject({ page: 2, take: 2, total: 3, totalPages: 2 });
    expect(page.json().data.map((d: { id: number }) => d.id)).toEqual([all[2].id]);
    expect((await t.admin('GET', `/admin/suppliers/${s.id}/webhook/deliveries?status=lost`)).statusCode).toBe(400);
    expect((await t.admin('GET', `/admin/suppliers/${s.id}/webhook/deliveries?take=51`)).statusCode).toBe(400);
    expect((await t.admin('GET', '/admin/suppliers/999999/webhook/deliveries')).statusCode).toBe(404);
  });

  it("keeps suppliers apart and checks the webhook scopes", async () => {
    const s = await t.supplier();
    const other = await t.supplier();
    const readOnly = await t.supplier(undefined, ['supplier/webhook.read']);
    const none = await t.supplier(undefined, ['supplier/support.read']);
    await record(s, 'order:X', { id: 'X' });
    expect(await deliveries(t, other)).toEqual([]);
    const [mine] = await deliveries(t, s);
    expect((await t.request({ method: 'POST', url: `/webhook/deliveries/${mine.id}/redeliver`, headers: other.headers })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/webhook/deliveries', headers: none.headers })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/webhook/deliveries', headers: readOnly.headers })).statusCode).toBe(200);
    const refused = await t.request({ method: 'POST', url: '/webhook/test', headers: readOnly.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('INSUFFICIENT_SCOPE');
    expect((await t.request({ method: 'POST', url: `/webhook/deliveries/${mine.id}/redeliver`, headers: readOnly.headers })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/webhook/deliveries' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: `/admin/suppliers/${s.id}/webhook/deliveries`, headers: s.headers })).statusCode).toBe(401);
  });
});
