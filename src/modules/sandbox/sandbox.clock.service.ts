// A twin's clock (README.md, "The clock"): set forward, read, back to real time.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Clock } from '../../lib/clock.ts';
import { fieldError } from '../../lib/errors.ts';
import type { TwinClocks } from './sandbox.clocks.ts';
import * as repo from './sandbox.repository.ts';

export interface ClockContext {
  db: Kysely<DB>;
  /** The process's real time (a test's moved clock included). */
  clock: Clock;
  clocks: Pick<TwinClocks, 'nowFor' | 'forget'>;
}

/** The twin's time now, and whether it was moved. */
export async function clockView(ctx: ClockContext, twinId: number) {
  const row = await repo.clockRow(ctx.db, twinId);
  const real = ctx.clock.now();
  const now = row ? new Date(row.set_now.getTime() + (real.getTime() - row.set_at.getTime())) : real;
  return { now: now.toISOString(), moved: row !== undefined };
}

/**
 * Moves the twin's time to `now`, from where it keeps running. Forward only: a time before
 * the twin's current one is refused (DELETE goes back to real time), so what happened in
 * the twin never happened "later" than its clock says.
 */
export async function setClock(ctx: ClockContext, twinId: number, nowText: string) {
  const requested = new Date(nowText);
  if (Number.isNaN(requested.getTime())) throw fieldError('INVALID_FORMAT', '/now', 'send an RFC 3339 date-time, such as 2026-12-24T10:00:00-05:00');
  // Through ctx.db: the audited route's transaction, which on PGlite holds the one connection.
  const current = await ctx.clocks.nowFor(twinId, ctx.db);
  if (requested.getTime() < current.getTime()) {
    throw fieldError('INVALID_VALUE', '/now', `the sandbox's clock moves forward only: it is ${current.toISOString()} in the sandbox already (DELETE /sandbox/clock goes back to real time)`);
  }
  await inTransaction(ctx.db, (trx) => repo.saveClock(trx, twinId, requested, ctx.clock.now()));
  ctx.clocks.forget();
  return clockView(ctx, twinId);
}

/** Back to real time. */
export async function resetClock(ctx: ClockContext, twinId: number) {
  await inTransaction(ctx.db, (trx) => repo.deleteClock(trx, twinId));
  ctx.clocks.forget();
  return clockView(ctx, twinId);
}
