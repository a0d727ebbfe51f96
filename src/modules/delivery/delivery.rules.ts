// The delivery calendar of a zone, as pure functions of the zone and an instant: which
// dates are delivered, when each one's orders close, and whether a date may still be
// ordered for. No database, no clock: callers pass `now` (deps.clock), so tests move time.
// Timezone math is Intl's (the IANA database Node ships), correct across DST: see
// `localToInstant`. README.md gives the rules in words.
import type { DeliveryDay, DeliveryException } from '../../db/types.ts';

export interface ZoneCalendar {
  timezone: string;
  cutoffMode: 'strict' | 'flexible';
  days: readonly DeliveryDay[];
  exceptions: readonly DeliveryException[];
}

export interface Delivery {
  /** YYYY-MM-DD, a calendar day in the zone's timezone. */
  date: string;
  /** The instant its orders close. */
  cutoffAt: Date;
}

export interface DeliveryOption {
  date: string;
  /** ISO 8601 UTC with milliseconds. */
  cutoffAt: string;
  /** The same instant in the zone's local time, with its offset: 2026-05-06T18:00:00-05:00. */
  cutoffLocal: string;
  /** A flexible zone's date whose cut-off has passed: still taken, the order flagged. */
  afterCutoff: boolean;
}

export type DateCheck =
  | { ok: true; delivery: Delivery; afterCutoff: boolean }
  | { ok: false; code: 'NOT_A_DELIVERY_DAY' | 'CUTOFF_PASSED' };

/** How many options the delivery-options routes answer. */
export const OPTION_COUNT = 14;
/** How far ahead the options are looked for (a zone delivering once a year still answers). */
const HORIZON_DAYS = 2 * 366;
const DAY_MS = 86_400_000;

// ---------------------------------------------------------------------------------------
// Calendar days (YYYY-MM-DD) as whole days since 1970-01-01, so arithmetic is exact.
// ---------------------------------------------------------------------------------------

const dayNumber = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
export const addDays = (date: string, days: number) => dateOf(dayNumber(date) + days);
/** ISO weekday of a calendar date: 1 Monday ... 7 Sunday. */
export const isoWeekday = (date: string) => ((new Date(dayNumber(date) * DAY_MS).getUTCDay() + 6) % 7) + 1;

// ---------------------------------------------------------------------------------------
// Timezones
// ---------------------------------------------------------------------------------------

const formats = new Map<string, Intl.DateTimeFormat>();
function formatIn(timezone: string) {
  let format = formats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(timezone, format);
  }
  return format;
}

/** Whether Intl knows the IANA timezone name (a zone is refused otherwise). */
export function isTimezone(timezone: string): boolean {
  try {
    formatIn(timezone);
    return true;
  } catch {
    // RangeError: an unknown timezone; the caller answers it as a field error.
    return false;
  }
}

/** The wall-clock reading of an instant in a timezone, as milliseconds of a UTC clock showing it. */
function wallClock(instant: number, timezone: string): number {
  const parts = Object.fromEntries(formatIn(timezone).formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
}

/** The timezone's offset from UTC at an instant, in ms (Bogotá: -5 h). Whole seconds: every IANA offset is. */
const offsetAt = (instant: number, timezone: string) => wallClock(instant - (instant % 1000), timezone) - (instant - (instant % 1000));

/**
 * The instant a local wall-clock time (as UTC-clock ms) names in a timezone. The offsets a
 * day before and a day after are the only candidates (no timezone changes its offset twice
 * in two days). Both fit in a repeated hour (DST ends): the earlier, so a cut-off is never
 * later than the one the supplier wrote. Neither fits in a skipped hour (DST starts): the
 * time is read with the offset before the jump, which lands as far past the gap as the
 * time was into it (02:30 in a 02:00–03:00 gap closes at 03:30), the reading a clock
 * moved forward gives.
 */
export function localToInstant(wall: number, timezone: string): number {
  const before = wall - offsetAt(wall - DAY_MS, timezone);
  const after = wall - offsetAt(wall + DAY_MS, timezone);
  const fits = [before, after].filter((t) => wallClock(t, timezone) === wall);
  return fits.length > 0 ? Math.min(...fits) : before;
}

/** An instant as local time with its offset, to the second: 2026-05-06T18:00:00-05:00. */
export function localWithOffset(instant: Date, timezone: string): string {
  const wall = wallClock(instant.getTime(), timezone);
  const offsetMinutes = Math.round((wall - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${new Date(wall).toISOString().slice(0, 19)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Today's date in a timezone at an instant. */
export const localDate = (now: Date, timezone: string) => new Date(wallClock(now.getTime(), timezone)).toISOString().slice(0, 10);

/** A delivery's cut-off: the local `time` on (date − daysBefore), in the zone's timezone. */
export function cutoffOf(date: string, cutoff: DeliveryDay['cutoff'], timezone: string): Date {
  const [hours, minutes] = cutoff.time.split(':').map(Number) as [number, number];
  const wall = (dayNumber(date) - cutoff.daysBefore) * DAY_MS + (hours * 60 + minutes) * 60_000;
  return new Date(localToInstant(wall, timezone));
}

// ---------------------------------------------------------------------------------------
// The calendar
// ---------------------------------------------------------------------------------------

/**
 * The zone's deliveries on dates from `from` to `to` (inclusive), in date order:
 * - every date whose ISO weekday is one of `days`, with that day's cut-off, unless an
 *   exception names the date: `closed` removes it, `movedTo` moves it;
 * - a delivery moved to another date keeps its own cut-off rule (daysBefore, time) counted
 *   from the new date: `daysBefore` is the warehouse's lead time, which the move keeps.
 *   It happens whatever the new date's own schedule or exception says (the supplier
 *   moved it there on purpose);
 * - two deliveries landing on one date (a move onto a delivery day) are one delivery,
 *   closing at the earlier of their cut-offs, so neither load is picked late.
 * An exception on a date with no delivery changes nothing.
 */
export function deliveriesBetween(zone: ZoneCalendar, from: string, to: string): Delivery[] {
  const ruleOf = new Map(zone.days.map((d) => [d.weekday, d.cutoff]));
  const exceptionOf = new Map(zone.exceptions.map((e) => [e.date, e]));
  const byDate = new Map<string, Date>();
  const add = (date: string, cutoff: DeliveryDay['cutoff']) => {
    const at = cutoffOf(date, cutoff, zone.timezone);
    const known = byDate.get(date);
    if (!known || at < known) byDate.set(date, at);
  };
  const first = dayNumber(from);
  const last = dayNumber(to);
  for (let day = first; day <= last; day++) {
    const date = dateOf(day);
    const rule = ruleOf.get(isoWeekday(date));
    if (rule && !exceptionOf.has(date)) add(date, rule);
  }
  for (const e of zone.exceptions) {
    if (!('movedTo' in e)) continue;
    const rule = ruleOf.get(isoWeekday(e.date));
    const target = dayNumber(e.movedTo);
    if (rule && target >= first && target <= last) add(e.movedTo, rule);
  }
  return [...byDate.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([date, cutoffAt]) => ({ date, cutoffAt }));
}

/**
 * Whether a delivery on `date` may be ordered at `now`: before its cut-off; after it, in a
 * flexible zone only, while the date is still after today in the zone (the truck has not
 * left), flagged `afterCutoff`. A strict zone's date is gone at its cut-off, to the
 * millisecond.
 */
function orderable(zone: ZoneCalendar, delivery: Delivery, now: Date, today: string): { afterCutoff: boolean } | undefined {
  if (now < delivery.cutoffAt) return { afterCutoff: false };
  if (zone.cutoffMode === 'flexible' && delivery.date > today) return { afterCutoff: true };
  return undefined;
}

/** The next `count` dates that may be ordered for at `now`, in date order. */
export function nextDeliveryOptions(zone: ZoneCalendar, now: Date, count = OPTION_COUNT): DeliveryOption[] {
  const today = localDate(now, zone.timezone);
  const options: DeliveryOption[] = [];
  // Windows of 8 weeks: a daily zone is answered from the first, a rare one reads on.
  for (let start = today; options.length < count && dayNumber(start) - dayNumber(today) < HORIZON_DAYS; start = addDays(start, 56)) {
    for (const delivery of deliveriesBetween(zone, start, addDays(start, 55))) {
      const ok = orderable(zone, delivery, now, today);
      if (!ok) continue;
      options.push({
        date: delivery.date,
        cutoffAt: delivery.cutoffAt.toISOString(),
        cutoffLocal: localWithOffset(delivery.cutoffAt, zone.timezone),
        afterCutoff: ok.afterCutoff,
      });
      if (options.length === count) break;
    }
  }
  return options;
}

/** Checks a date a store asks delivery for: a delivery of the zone, still orderable at `now`. */
export function checkDeliveryDate(zone: ZoneCalendar, now: Date, date: string): DateCheck {
  const [delivery] = deliveriesBetween(zone, date, date);
  if (!delivery) return { ok: false, code: 'NOT_A_DELIVERY_DAY' };
  const ok = orderable(zone, delivery, now, localDate(now, zone.timezone));
  return ok ? { ok: true, delivery, afterCutoff: ok.afterCutoff } : { ok: false, code: 'CUTOFF_PASSED' };
}

/**
 * The deliveries whose cut-off falls in (since, until]: what the cut-off job announces.
 * A cut-off precedes its date by at most `maxDaysBefore` days (plus a day of timezone), so
 * only dates in that reach of the window can have one in it.
 */
export function cutoffsReached(zone: ZoneCalendar, since: Date, until: Date): Delivery[] {
  const maxBefore = Math.max(0, ...zone.days.map((d) => d.cutoff.daysBefore));
  const from = addDays(localDate(since, zone.timezone), -1);
  const to = addDays(localDate(until, zone.timezone), maxBefore + 1);
  return deliveriesBetween(zone, from, to).filter((d) => d.cutoffAt > since && d.cutoffAt <= until);
}
