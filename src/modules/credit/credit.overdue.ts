// The overdue job: once an invoice passes its due date unpaid, its supplier hears it
// (invoice.overdue, an opt-in webhook event), once per invoice, whichever worker process
// gets there first (README.md, "Overdue invoices").
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import { todayIn, type Clock } from '../../lib/clock.ts';
import { PollingWorker, type WorkerLogger } from '../../lib/polling-worker.ts';
import { recordEvent } from '../webhooks/webhooks.events.ts';
import * as repo from './credit.repository.ts';
import { invoiceView } from './credit.service.ts';

/** How often each worker process looks for invoices that became overdue. */
export const OVERDUE_JOB_INTERVAL_MS = 60_000;
/** Invoices one transaction claims and announces. */
const CLAIM = 200;

export interface OverdueContext {
  db: Kysely<DB>;
  clock: Clock;
  /** The platform's timezone: a due date is a calendar day there (docs/conventions.md). */
  timezone: string;
}

/**
 * Announces every invoice whose due date is before today (platform timezone, the app's
 * clock), still unpaid and not announced yet. Each transaction claims up to CLAIM of them
 * (marking them, SKIP LOCKED) and records their events, so the mark and the event commit
 * together: another process skips the rows held, and finds them marked once they commit.
 * The event is recorded only for a subscribed supplier (recordEvent); the mark is set
 * either way, so subscribing later never announces an invoice long overdue. Answers how
 * many it claimed.
 */
export async function announceOverdue(ctx: OverdueContext): Promise<number> {
  const today = todayIn(ctx.clock, ctx.timezone);
  let claimed = 0;
  for (;;) {
    const n = await inTransaction(ctx.db, async (trx) => {
      const invoices = await repo.claimOverdue(trx, today, CLAIM);
      for (const invoice of invoices) {
        await recordEvent(trx, { supplierId: invoice.supplier_id, type: 'invoice.overdue', orderingKey: `invoice:${invoice.internal_code}`, body: invoiceView(invoice, today) });
      }
      return invoices.length;
    });
    claimed += n;
    if (n < CLAIM) return claimed;
  }
}

/** Runs `announceOverdue` at start and every OVERDUE_JOB_INTERVAL_MS; `onAnnounced` wakes the dispatcher. */
export class OverdueWorker extends PollingWorker {
  constructor(
    private readonly ctx: OverdueContext,
    logger: WorkerLogger,
    private readonly onAnnounced: () => void,
    pollMs = OVERDUE_JOB_INTERVAL_MS,
  ) {
    super({ name: 'invoice overdue job', concurrency: 1, pollMs, logger });
  }

  protected async work() {
    if ((await announceOverdue(this.ctx)) > 0) this.onAnnounced();
    return false;
  }
}
