// Delivery zones: written whole (PUT or the batch), read, and asked what a store may order
// for (README.md). The calendar itself is pure (delivery.rules.ts); this file checks a
// zone's rules, normalises them, and answers the store side's questions with the app's clock.
import type { Kysely } from 'kysely';
import type { DB, DeliveryException, MinimumOrderRule } from '../../db/types.ts';
import { AppError, fieldError, notFound, validationError, type ErrorCode, type FieldError } from '../../lib/errors.ts';
import { page } from '../../lib/pagination.ts';
import * as repo from './delivery.repository.ts';
import { checkDeliveryDate, isTimezone, nextDeliveryOptions, type DeliveryOption, type ZoneCalendar } from './delivery.rules.ts';
import type { DeliveryZoneFields } from './delivery.schemas.ts';

type Problem = FieldError & { code: ErrorCode };

/**
 * What the schema cannot say about a zone: a timezone Intl knows, each weekday once, each
 * exception exactly one of `closed: true` and `movedTo` (another date), each date once, a
 * fee when the minimum's mode is `fee` (and only then). Pointers start at `prefix`.
 */
export function zoneProblems(zone: DeliveryZoneFields, prefix = ''): Problem[] {
  const problems: Problem[] = [];
  const at = (path: string, code: ErrorCode, message: string) => problems.push({ pointer: `${prefix}${path}`, code, message });
  if (!isTimezone(zone.timezone)) at('/timezone', 'INVALID_VALUE', `${zone.timezone} is not an IANA timezone (e.g. America/Bogota)`);
  const weekdays = new Set<number>();
  zone.days.forEach((d, i) => {
    if (weekdays.has(d.weekday)) at(`/days/${i}/weekday`, 'INVALID_VALUE', `weekday ${d.weekday} is listed twice: one entry per weekday`);
    weekdays.add(d.weekday);
  });
  const dates = new Set<string>();
  (zone.exceptions ?? []).forEach((e, i) => {
    const closed = e.closed === true;
    const moved = e.movedTo !== undefined && e.movedTo !== null;
    if (closed && moved) at(`/exceptions/${i}/movedTo`, 'MUTUALLY_EXCLUSIVE', 'an exception is closed: true or movedTo, not both');
    else if (!closed && !moved) at(`/exceptions/${i}`, 'REQUIRED', 'an exception needs closed: true or movedTo');
    else if (moved && e.movedTo === e.date) at(`/exceptions/${i}/movedTo`, 'INVALID_VALUE', 'movedTo must be another date');
    if (dates.has(e.date)) at(`/exceptions/${i}/date`, 'INVALID_VALUE', `${e.date} has two exceptions: one per date`);
    dates.add(e.date);
  });
  const minimum = zone.minimumOrder;
  if (minimum) {
    if (minimum.mode === 'fee' && minimum.fee === undefined) at('/minimumOrder/fee', 'REQUIRED', 'a fee is required when mode is fee');
    if (minimum.mode !== 'fee' && minimum.fee !== undefined) at('/minimumOrder/fee', 'INVALID_VALUE', 'a fee is given only when mode is fee');
  }
  return problems;
}

/** The zone as stored: defaults filled, each exception in its one shape. */
export function zoneWrite(code: string, zone: DeliveryZoneFields): repo.ZoneWrite {
  const exceptions: DeliveryException[] = (zone.exceptions ?? []).map((e) => (e.closed === true ? { date: e.date, closed: true } : { date: e.date, movedTo: e.movedTo! }));
  const minimum = zone.minimumOrder ?? null;
  const minimum_order: MinimumOrderRule | null = minimum && { amount: minimum.amount, mode: minimum.mode, ...(minimum.mode === 'fee' ? { fee: minimum.fee! } : {}) };
  return {
    internal_code: code,
    name: zone.name,
    timezone: zone.timezone,
    cutoff_mode: zone.cutoffMode ?? 'strict',
    days: [...zone.days].sort((a, b) => a.weekday - b.weekday).map((d) => ({ weekday: d.weekday, cutoff: { daysBefore: d.cutoff.daysBefore, time: d.cutoff.time } })),
    exceptions: exceptions.sort((a, b) => (a.date < b.date ? -1 : 1)),
    minimum_order,
  };
}

export function zoneView(row: repo.ZoneRow) {
  return {
    internalCode: row.internal_code,
    name: row.name,
    timezone: row.timezone,
    cutoffMode: row.cutoff_mode,
    days: row.days,
    exceptions: row.exceptions,
    minimumOrder: row.minimum_order,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const calendarOf = (row: Pick<repo.ZoneRow, 'timezone' | 'cutoff_mode' | 'days' | 'exceptions'>): ZoneCalendar => ({
  timezone: row.timezone,
  cutoffMode: row.cutoff_mode,
  days: row.days,
  exceptions: row.exceptions,
});

/** PUT /deliveryzone/{code}: creates the zone or replaces it whole. */
export async function putZone(db: Kysely<DB>, supplierId: number, code: string, body: DeliveryZoneFields) {
  const problems = zoneProblems(body);
  if (problems.length > 0) throw validationError(problems);
  const [row] = await repo.upsertZones(db, supplierId, [zoneWrite(code, body)]);
  return zoneView(row!);
}

export async function getZone(db: Kysely<DB>, supplierId: number, code: string) {
  const row = await repo.findZone(db, supplierId, code);
  if (!row) throw notFound('delivery zone', code);
  return zoneView(row);
}

export async function listZones(db: Kysely<DB>, supplierId: number, query: { search?: string; take: number; page: number }) {
  const { rows, total } = await repo.listZones(db, supplierId, query);
  return page(rows.map(zoneView), total, query.page, query.take);
}

/** The next dates a store of the zone may order for (none without a zone). */
export function optionsOf(zone: repo.ZoneRow | null, now: Date): { data: DeliveryOption[] } {
  return { data: zone ? nextDeliveryOptions(calendarOf(zone), now) : [] };
}

/** GET /store/{code}/delivery-options: as the store app answers its store. */
export async function storeOptions(db: Kysely<DB>, supplierId: number, storeCode: string, now: Date) {
  const store = await repo.storeWithZone(db, supplierId, storeCode);
  if (!store) throw notFound('store', storeCode);
  return optionsOf(store.zone, now);
}

/**
 * A store's zone, through the store side's cache (delivery_zones and stores announce their
 * changes, migration 0034): placing an order reads it without a query when nothing changed.
 */
export function cachedZoneOfStore(ctx: { db: Kysely<DB>; cache: { get<T>(key: string, compute: () => Promise<T>): Promise<T> } }, storeId: number) {
  return ctx.cache.get(`delivery-zone:${storeId}`, () => repo.zoneOfStore(ctx.db, storeId));
}

/** What an order records of its delivery: its date, its zone, and whether it came after the cut-off. */
export interface OrderDelivery {
  deliveryDate: string | null;
  zoneId: number | null;
  /** Null for an order placed without a zone (the answer then has no afterCutoff). */
  afterCutoff: boolean | null;
}

/**
 * The delivery of an order a store places at `now`, asking for `requested` (or not):
 * - with a zone, the date must be one of its deliveries still orderable (delivery.rules.ts);
 *   none asked: the first option. A refusal's message lists the next valid dates, so the
 *   store can choose without asking again;
 * - without a zone, as before: no date unless the store asks for one, which is kept if it
 *   is not before today (platform timezone); the supplier's confirmation may still set another.
 */
export function orderDelivery(zone: repo.ZoneRow | null, now: Date, requested: string | undefined, platformToday: string): OrderDelivery {
  if (!zone) {
    if (requested !== undefined && requested < platformToday) {
      throw fieldError('INVALID_VALUE', '/deliveryDate', `${requested} is in the past: ask for today or a later date`);
    }
    return { deliveryDate: requested ?? null, zoneId: null, afterCutoff: null };
  }
  const calendar = calendarOf(zone);
  const next = () => nextDeliveryOptions(calendar, now, 5).map((o) => o.date);
  if (requested === undefined) {
    const [first] = nextDeliveryOptions(calendar, now, 1);
    if (!first) throw new AppError('NOT_A_DELIVERY_DAY', `delivery zone ${zone.internal_code} has no delivery date to order for`, { errors: [{ pointer: '/deliveryDate', code: 'NOT_A_DELIVERY_DAY', message: 'no delivery date to order for' }] });
    return { deliveryDate: first.date, zoneId: zone.id, afterCutoff: first.afterCutoff };
  }
  const check = checkDeliveryDate(calendar, now, requested);
  if (check.ok) return { deliveryDate: requested, zoneId: zone.id, afterCutoff: check.afterCutoff };
  const why = check.code === 'CUTOFF_PASSED' ? `orders for ${requested} are closed (its cut-off has passed)` : `${requested} is not a delivery date of zone ${zone.internal_code}`;
  const dates = next();
  const message = `${why}; next delivery dates: ${dates.length > 0 ? dates.join(', ') : 'none'}`;
  throw new AppError(check.code, message, { errors: [{ pointer: '/deliveryDate', code: check.code, message }] });
}
