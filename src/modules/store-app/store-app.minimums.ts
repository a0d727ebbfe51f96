// The minimum order per delivery date and the case rules, on the store side
// (../pricing/README.md, "Minimum order" and "Case rules"; ../orders/README.md, "A top-up
// order"). The engine prices a cart alone; here the store's zone is found (only for a
// store that has one), and the store's other orders for the same delivery date are read
// only when the cart alone is below its minimum, so a cart that meets it, or a store with
// no minimum, costs no query more than before.
import { Decimal } from 'decimal.js';
import { AppError, validationError } from '../../lib/errors.ts';
import { orderedForDate } from '../orders/orders.repository.ts';
import { minimumOrderOf, minimumRuleOf, type MinimumRule } from '../pricing/pricing.minimums.ts';
import type { CartLine, MinimumOrder, PricingInput, PricingResult } from '../pricing/pricing.types.ts';
import { cachedZoneOfStore } from '../delivery/delivery.service.ts';
import type { ZoneRow } from '../delivery/delivery.repository.ts';
import { nextDeliveryOptions } from '../delivery/delivery.rules.ts';
import type { StoreAppContext } from './store-app.context.ts';
import type { MemberStore } from './store-app.repository.ts';

/** The store's delivery zone (store cache); a store without one reads nothing. */
export async function zoneOf(ctx: Pick<StoreAppContext, 'db' | 'cache'>, store: Pick<MemberStore, 'id' | 'delivery_zone_id'>): Promise<ZoneRow | null> {
  return store.delivery_zone_id === null ? null : cachedZoneOfStore(ctx, store.id);
}

/**
 * The delivery date a preview counts the store's other orders for: the one asked for
 * (the caller checked it as placing does), else the zone's first option, else none (no
 * zone and none asked: the cart counts alone, as before zones).
 */
export function previewDate(zone: ZoneRow | null, now: Date, requested: string | undefined): string | null {
  if (requested !== undefined) return requested;
  if (!zone) return null;
  const [first] = nextDeliveryOptions({ timezone: zone.timezone, cutoffMode: zone.cutoff_mode, days: zone.days, exceptions: zone.exceptions }, now, 1);
  return first?.date ?? null;
}

/**
 * The preview's minimum with the store's other orders for `date` counted: read only when
 * the cart alone is below it and there is a date to count for.
 */
export async function countingOtherOrders(
  ctx: Pick<StoreAppContext, 'db'>,
  storeId: number,
  input: Pick<PricingInput, 'store' | 'zoneMinimumOrder' | 'supplierMinimumOrder'>,
  result: PricingResult,
  date: string | null,
): Promise<PricingResult> {
  if (result.minimumOrder === null || date === null) return result;
  const ordered = Number(await orderedForDate(ctx.db, storeId, date));
  if (ordered <= 0) return result;
  return { ...result, minimumOrder: minimumOrderOf(minimumRuleOf(input), result.total, ordered) };
}

/** Placing refuses a broken case rule: each is a problem with its code, pointing at the product's first line as sent. */
export function violationsRefusal(result: PricingResult, lines: readonly CartLine[]): AppError | undefined {
  const violations = result.violations ?? [];
  if (violations.length === 0) return undefined;
  const errors = violations.map((v) => {
    const line = lines.findIndex((l) => l.productInternalCode === v.productInternalCode);
    const rule =
      v.code === 'NOT_A_MULTIPLE'
        ? `is sold by the case of ${v.multiple} units`
        : v.code === 'BELOW_MINIMUM_UNITS'
          ? `is ordered ${v.minUnits} units at least`
          : `is ordered ${v.maxUnits} units at most`;
    return { pointer: `/lines/${line}`, code: v.code, message: `${v.productInternalCode} ${rule}; the cart holds ${v.orderedUnits}` };
  });
  return validationError(errors, errors.length === 1 ? undefined : `${errors.length} case rules are not met`);
}

/** BELOW_MINIMUM_ORDER for a hard minimum; its message says what other orders for the date already count. */
export function belowMinimum(minimum: MinimumOrder, date: string | null): AppError {
  const { amount, missing, alreadyOrdered } = minimum;
  const counted = alreadyOrdered === undefined ? '' : ` (${alreadyOrdered} already ordered for ${date} counts)`;
  return new AppError('BELOW_MINIMUM_ORDER', `the minimum order is ${amount}; ${missing} more is needed${counted}`, {
    errors: [{ pointer: '/lines', code: 'BELOW_MINIMUM_ORDER', message: `add ${missing} to reach the minimum order of ${amount}` }],
  });
}

/** What placing does about the minimum, once it knows what counts (the cart alone, or with the store's other orders for the date). */
export type MinimumOutcome = { place: true; fee: number | null } | { place: false; refusal: AppError };

export function minimumOutcome(rule: MinimumRule | null, total: number, alreadyOrdered: number, date: string | null): MinimumOutcome {
  const minimum = minimumOrderOf(rule, total, alreadyOrdered);
  if (minimum === null || rule === null || rule.mode === 'soft') return { place: true, fee: null };
  if (rule.mode === 'fee') return { place: true, fee: rule.fee };
  return { place: false, refusal: belowMinimum(minimum, date) };
}

/** The order's total with its fee: exact decimals, as the engine's totals are. */
export const totalWithFee = (total: number | string, fee: number | null) => (fee === null ? total : new Decimal(total).plus(fee).toString());
