// The order guide's rules, pure (README.md): what a store's history says it usually buys,
// how often, how much, and when a product is due again. No database, no clock: the
// service reads the history and today's date and hands them here, so the tests can give
// fixed histories.

/** One line of one of the store's orders in the window (cancelled and returned orders left out). */
export interface HistoryLine {
  code: string;
  orderId: number;
  /** When the order was placed (ISO 8601). */
  at: string;
  /** The order's calendar day in the platform's timezone, YYYY-MM-DD. */
  day: string;
  units: number;
  quantity: number;
}

/** What the window says of one product. */
export interface ProductHistory {
  code: string;
  /** Orders in the window naming the product. */
  timesOrdered: number;
  lastOrderedAt: string;
  /** The package size of the product's line in its latest order (the largest there, by units bought, when it had several sizes). */
  units: number;
  /** Packages of `units` in the latest order. */
  lastQuantity: number;
  /** The median, over its orders, of what each bought, in packages of `units` (rounded up; README). */
  usualQuantity: number;
  /** The distinct days it was ordered on, oldest first. */
  days: string[];
}

/** The cadence rule's constants (README, "Cadence suggestions"). */
export const CADENCE = {
  /** Orders on distinct days needed before a cadence is trusted: two intervals at least. */
  minPurchaseDays: 3,
  /** A product is due when the days since its last order exceed its cadence times this. */
  overdueFactor: 1.25,
} as const;

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('the median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * A quantity of packages of `units` rounded up to a whole number of cases (as is when the
 * product has no multiple): a case-sold product is never suggested in a quantity the cart
 * would refuse. The multiple counts units, not packages (pricing's "Case rules": a case of
 * 12 is one box of 12 or 12 singles), so the step in packages is `multiple / gcd(multiple,
 * units)`: 2 boxes of 6, 1 box of 12 or 24, 12 singles (the shop's CaseRules does the same).
 */
export function toMultiple(quantity: number, multiple: number | null | undefined, units: number): number {
  const m = multiple && multiple > 1 ? Math.floor(multiple) : 1;
  const u = Number.isInteger(units) && units > 0 ? units : 1;
  const step = m / gcd(m, u);
  return Math.ceil(quantity / step) * step;
}

/** What to order to bring the shelf back to its par (in packages of `units`): max(par − onHand, 0), rounded up to whole cases. */
export function fillToPar(par: number, onHand: number, multiple: number | null | undefined, units: number): number {
  return toMultiple(Math.max(par - onHand, 0), multiple, units);
}

const dayNumber = (day: string) => Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / 86_400_000;
export const daysBetween = (from: string, to: string) => dayNumber(to) - dayNumber(from);

/**
 * The history of each product in the window, from the store's order lines (any order).
 * A product's quantities are compared in base units (packages × units), so an order of
 * one box of 24 and one of 24 singles weigh the same, and answered in packages of the
 * size it was last bought in.
 */
export function productHistories(lines: readonly HistoryLine[]): ProductHistory[] {
  const byCode = new Map<string, HistoryLine[]>();
  for (const line of lines) {
    const list = byCode.get(line.code);
    if (list) list.push(line);
    else byCode.set(line.code, [line]);
  }
  const out: ProductHistory[] = [];
  for (const [code, own] of byCode) {
    // Per order: its base units, its time and its lines.
    const orders = new Map<number, { at: string; day: string; baseUnits: number; lines: HistoryLine[] }>();
    for (const line of own) {
      const order = orders.get(line.orderId) ?? { at: line.at, day: line.day, baseUnits: 0, lines: [] };
      order.baseUnits += line.units * line.quantity;
      order.lines.push(line);
      orders.set(line.orderId, order);
    }
    // Latest by time, then by id (two orders in the same millisecond).
    const [, latest] = [...orders].reduce((a, b) => (b[1].at > a[1].at || (b[1].at === a[1].at && b[0] > a[0]) ? b : a));
    const bySize = new Map<number, number>();
    for (const line of latest.lines) bySize.set(line.units, (bySize.get(line.units) ?? 0) + line.quantity);
    const [units, lastQuantity] = [...bySize].reduce((a, b) => (b[0] * b[1] > a[0] * a[1] || (b[0] * b[1] === a[0] * a[1] && b[0] > a[0]) ? b : a));
    out.push({
      code,
      timesOrdered: orders.size,
      lastOrderedAt: latest.at,
      units,
      lastQuantity,
      usualQuantity: Math.max(1, Math.ceil(median([...orders.values()].map((o) => o.baseUnits)) / units)),
      days: [...new Set([...orders.values()].map((o) => o.day))].sort(),
    });
  }
  return out;
}

export interface Cadence {
  /** N: the median number of days between its distinct order days. */
  everyDays: number;
  daysSinceLast: number;
  /** Bought at least `minPurchaseDays` times and not for longer than N × `overdueFactor`. */
  due: boolean;
}

/** The cadence rule (README): deterministic for a history and a day. Undefined below the minimum of order days. */
export function cadenceOf(days: readonly string[], today: string): Cadence | undefined {
  if (days.length < CADENCE.minPurchaseDays) return undefined;
  const intervals = days.slice(1).map((day, i) => daysBetween(days[i]!, day));
  const everyDays = median(intervals);
  const daysSinceLast = daysBetween(days.at(-1)!, today);
  return { everyDays, daysSinceLast, due: daysSinceLast > everyDays * CADENCE.overdueFactor };
}

export type GuideSort = 'frequency' | 'recency';

interface Sortable {
  productInternalCode: string;
  pinned: boolean;
  timesOrdered: number;
  lastOrderedAt: string | null;
}

/**
 * The guide's order: pinned products first; then by frequency (times ordered, most
 * first, then the latest first) or by recency (the latest first, then the most ordered);
 * the code last, so the order is total.
 */
export function compareGuide(sort: GuideSort): (a: Sortable, b: Sortable) => number {
  const byTimes = (a: Sortable, b: Sortable) => b.timesOrdered - a.timesOrdered;
  const byLatest = (a: Sortable, b: Sortable) => (b.lastOrderedAt ?? '').localeCompare(a.lastOrderedAt ?? '');
  const [first, second] = sort === 'frequency' ? [byTimes, byLatest] : [byLatest, byTimes];
  return (a, b) => Number(b.pinned) - Number(a.pinned) || first(a, b) || second(a, b) || (a.productInternalCode < b.productInternalCode ? -1 : a.productInternalCode > b.productInternalCode ? 1 : 0);
}
