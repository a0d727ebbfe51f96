// One supplier's receiver that hangs must not hold up every other supplier's webhooks:
// a supplier has at most WEBHOOK_SUPPLIER_CONCURRENCY deliveries in flight, across every
// dispatcher (webhooks.repository.ts, claimDue).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/modules/webhooks/webhooks.events.ts';
import type { TestApp, TestSupplier } from '../helpers/app.ts';
import { appAndReceiver, configureWebhook, OffsetClock, Receiver, waitUntil } from './helpers.ts';

const CAP = 3;
let t: TestApp, receiver: Receiver, close: () => Promise<void>;
const clock = new OffsetClock();

beforeAll(async () => void ({ t, receiver, close } = await appAndReceiver({ clock, dispatcher: { random: () => 0.5 }, env: { WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_SUPPLIER_CONCURRENCY: String(CAP) } })));
afterAll(() => close());

async function record(s: TestSupplier, n: number) {
  await t.deps.db.transaction().execute(async (trx) => {
    for (let i = 0; i < n; i++) await recordEvent(trx, { supplierId: s.id, type: 'order.created', orderingKey: `order:${s.code}-${i}`, body: { id: i } });
  });
  t.deps.workAccepted();
}

describe('a receiver that hangs', () => {
  it('holds at most its own share of the delivery slots, while other suppliers are served', async () => {
    const slow = await t.supplier();
    const fast = await t.supplier();
    await configureWebhook(t, slow, receiver);
    await configureWebhook(t, fast, receiver);
    receiver.respond(slow.code, () => ({ status: 200, hang: true }));

    await record(slow, 20); // 20 independent orders: without the cap they would take all 16 slots
    await receiver.waitForCalls(slow.code, CAP);
    await record(fast, 4);
    const started = Date.now();
    await receiver.waitForCalls(fast.code, 4, 4000);
    // The other supplier's events went out while the hanging ones still hold their slots
    // (the timeout is 5 s), and the hanging supplier never had more than its cap open.
    expect(Date.now() - started).toBeLessThan(4000);
    expect(receiver.callsOf(slow.code)).toHaveLength(CAP);
    const inFlight = await t.deps.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('supplier_id', '=', slow.id)
      .where('status', '=', 'pending')
      .where('lease_owner', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(Number(inFlight.n)).toBe(CAP);
    await waitUntil('the next hanging attempts after the timeout', () => receiver.callsOf(slow.code).length > CAP, 10_000);
    expect(receiver.callsOf(slow.code).length).toBeLessThanOrEqual(2 * CAP);
  });
});
