import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';

/** Time comes from here so tests can move it; nothing else calls Date.now() for rules. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/**
 * The last answer per timezone, kept for its quarter of an hour (UTC): every timezone's
 * offset is a whole number of quarter hours, so a local midnight always falls on a
 * quarter-hour boundary and the local date cannot change inside one. Formatting a date
 * in a timezone costs more than the rest of a promotion's GET.
 */
const lastDay = new Map<string, { quarter: number; day: string }>();
const QUARTER_HOUR_MS = 15 * 60_000;

/** Today in the platform's timezone (the TIMEZONE setting), as YYYY-MM-DD, by the app's clock. */
export function todayIn(clock: Clock, timezone: string): string {
  const now = clock.now();
  const quarter = Math.floor(now.getTime() / QUARTER_HOUR_MS);
  const last = lastDay.get(timezone);
  if (last?.quarter === quarter) return last.day;
  let format = dayFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timezone, format);
  }
  const part = Object.fromEntries(format.formatToParts(now).map((p) => [p.type, p.value]));
  const day = `${part.year}-${part.month}-${part.day}`;
  lastDay.set(timezone, { quarter, day });
  return day;
}

/**
 * The time as one supplier's rules see it (promotion validity, prices, order and ticket
 * times, delivery dates and cut-offs): real time for a live supplier, and for a test twin
 * the time its integrator set (src/modules/sandbox/README.md). Services ask this for any
 * rule about a supplier's business; `Clock` stays the process's own time (tokens, leases,
 * webhook retries and signatures), which a sandbox never moves.
 */
export interface SupplierClocks {
  /**
   * `db`: the caller's transaction, when it holds one (an audited write's). Whatever the
   * answer needs to read is then read through it: on embedded PGlite the transaction holds
   * the one connection, and a query beside it would wait for the transaction, for ever.
   */
  nowFor(supplierId: number, db?: Kysely<DB>): Promise<Date>;
}

/** Today in `timezone` by the supplier's clock, as YYYY-MM-DD. */
export async function todayFor(clocks: SupplierClocks, supplierId: number, timezone: string): Promise<string> {
  const now = await clocks.nowFor(supplierId);
  return todayIn({ now: () => now }, timezone);
}
