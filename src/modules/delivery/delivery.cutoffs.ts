// The cut-off job: once a zone's orders for a delivery date close, the supplier hears it
// (delivery.cutoff_reached, an opt-in webhook event) with the orders the route loads, so
// its ERP can pick and route right away. Every worker process runs it; each (zone, date)
// is announced once, whichever process gets there first (README.md, "Cut-off events").
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Clock } from '../../lib/clock.ts';
import { PollingWorker, type WorkerLogger } from '../../lib/polling-worker.ts';
import { recordEvent } from '../webhooks/webhooks.events.ts';
import * as repo from './delivery.repository.ts';
import { addDays, cutoffsReached, localDate } from './delivery.rules.ts';
import type { CutoffReached } from './delivery.schemas.ts';
import type { Static } from 'typebox';

/** How often each worker process looks for cut-offs that passed. */
export const CUTOFF_JOB_INTERVAL_MS = 30_000;
/**
 * A cut-off is announced once it is this far behind: an order the placer accepted just
 * before it (by the app's clock) has committed by then, so it is in the list.
 */
export const CUTOFF_SETTLE_MS = 10_000;
/**
 * How far back a cut-off is still announced: workers stopped for longer miss the older
 * ones (their orders are still listed by GET /order?deliveryDate=&deliveryZone=).
 */
export const CUTOFF_LOOKBACK_MS = 3 * 86_400_000;

export interface CutoffContext {
  db: Kysely<DB>;
  clock: Clock;
}

/**
 * Announces every (zone, date) whose cut-off fell in the look-back window, after the
 * zone was created, and was not announced yet. Each is claimed and announced in one
 * transaction: the claim's row (delivery_cutoffs, keyed by zone and date) and the event
 * commit together, and a second process's claim of the same pair waits for the first and
 * then inserts nothing. The event is recorded only for a supplier subscribed to it
 * (recordEvent); the row is kept either way, so subscribing later never announces a
 * cut-off long past. Answers how many it claimed.
 */
export async function announceCutoffs(ctx: CutoffContext): Promise<number> {
  const until = new Date(ctx.clock.now().getTime() - CUTOFF_SETTLE_MS);
  const zones = await repo.allZones(ctx.db);
  if (zones.length === 0) return 0;
  const lookback = new Date(until.getTime() - CUTOFF_LOOKBACK_MS);
  const done = await repo.claimedCutoffs(ctx.db, zones.map((z) => z.id), addDays(localDate(lookback, 'UTC'), -1));
  let claimed = 0;
  for (const zone of zones) {
    const since = zone.created_at > lookback ? zone.created_at : lookback;
    const calendar = { timezone: zone.timezone, cutoffMode: zone.cutoff_mode, days: zone.days, exceptions: zone.exceptions };
    for (const delivery of cutoffsReached(calendar, since, until)) {
      if (done.has(`${zone.id}/${delivery.date}`)) continue;
      const announced = await inTransaction(ctx.db, async (trx) => {
        const orderIds = await repo.routeOrderIds(trx, zone.supplier_id, zone.id, delivery.date);
        const mine = await repo.claimCutoff(trx, {
          zone_id: zone.id,
          supplier_id: zone.supplier_id,
          delivery_date: delivery.date,
          cutoff_at: delivery.cutoffAt,
          order_count: orderIds.length,
        });
        if (!mine) return false;
        const body: Static<typeof CutoffReached> = { zone: zone.internal_code, date: delivery.date, cutoffAt: delivery.cutoffAt.toISOString(), orderIds };
        await recordEvent(trx, { supplierId: zone.supplier_id, type: 'delivery.cutoff_reached', orderingKey: `deliveryzone:${zone.internal_code}`, body });
        return true;
      });
      if (announced) claimed++;
    }
  }
  return claimed;
}

/** Runs `announceCutoffs` at start and every CUTOFF_JOB_INTERVAL_MS; `onAnnounced` wakes the dispatcher. */
export class CutoffWorker extends PollingWorker {
  constructor(
    private readonly ctx: CutoffContext,
    logger: WorkerLogger,
    private readonly onAnnounced: () => void,
    pollMs = CUTOFF_JOB_INTERVAL_MS,
  ) {
    super({ name: 'delivery cut-off job', concurrency: 1, pollMs, logger });
  }

  protected async work() {
    if ((await announceCutoffs(this.ctx)) > 0) this.onAnnounced();
    return false;
  }
}
