// The claim (webhooks.repository.ts, claimDue) reads what it can claim, not the backlog:
// the deliveries of a supplier with no webhook wait without being read, and every supplier
// with an enabled webhook gets its share of one claim however many deliveries another has
// due before it. No dispatcher runs here: the test claims by hand.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { claimDue } from '../../src/modules/webhooks/webhooks.repository.ts';
import { recordEvent } from '../../src/modules/webhooks/webhooks.events.ts';
import type { TestApp, TestSupplier } from '../helpers/app.ts';
import { appAndReceiver, configureWebhook, Receiver } from './helpers.ts';

let t: TestApp, receiver: Receiver, close: () => Promise<void>;

beforeAll(async () => void ({ t, receiver, close } = await appAndReceiver()));
afterAll(() => close());

async function record(s: TestSupplier, n: number) {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const recorded = await t.deps.db.transaction().execute((trx) => recordEvent(trx, { supplierId: s.id, type: 'order.created', orderingKey: `order:${s.code}-${i}`, body: { id: i } }));
    ids.push(recorded.deliveryId);
  }
  return ids;
}

it('claims the first due deliveries of each supplier with a webhook, passing over a backlog waiting for one', async () => {
  const waiting = await t.supplier(); // no webhook: its deliveries wait until one is configured
  const busy = await t.supplier();
  const quiet = await t.supplier();
  await configureWebhook(t, busy, receiver);
  await configureWebhook(t, quiet, receiver);
  const backlog = await record(waiting, 30);
  const busyIds = await record(busy, 12);
  const quietId = (await record(quiet, 1))[0]!; // due after all of busy's

  const claimed = await claimDue(t.deps.db, 'test-claim', 60, new Date(), 6, 3);
  const ids = claimed.map((d) => d.id);
  // Three of busy's (its cap) and quiet's one, though nine of busy's were due before it.
  expect(ids.sort((a, b) => a - b)).toEqual([...busyIds.slice(0, 3), quietId].sort((a, b) => a - b));
  expect(ids.some((id) => backlog.includes(id))).toBe(false);

  // Once the waiting supplier configures its webhook, its backlog is claimed in order.
  await configureWebhook(t, waiting, receiver);
  const next = await claimDue(t.deps.db, 'test-claim', 60, new Date(), 6, 3);
  expect(next.filter((d) => d.supplier_id === waiting.id).map((d) => d.id)).toEqual(backlog.slice(0, 3));
  expect(next.filter((d) => d.supplier_id === busy.id)).toEqual([]); // busy is at its cap
});
