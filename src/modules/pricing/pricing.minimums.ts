// The minimum order and the products' case rules (README.md, "Minimum order" and "Case
// rules"): pure, like the rest of the engine. The engine applies both to a cart alone; the
// store side applies `minimumOrderOf` again with the store's other orders for the same
// delivery date once it has read them (only when the cart alone is below the minimum).
import type { Decimal } from 'decimal.js';
import { Money, compareCodes } from './pricing.measure.ts';
import type { CaseRuleViolation, MinimumMode, MinimumOrder, PricingInput, PricingProduct } from './pricing.types.ts';

/** The minimum that applies to a store, with its mode; `moded` when it comes with a zone's rule (the answer then names the mode). */
export interface MinimumRule {
  amount: number;
  mode: MinimumMode;
  fee: number | null;
  moded: boolean;
}

/**
 * The store's `dropSize`, else its zone's amount, else the supplier's minimum. The mode is
 * the zone's whatever amount applies (a store's dropSize sets how much, the zone how a
 * shortfall is treated); without a zone's rule, `hard`, as before zones.
 */
export function minimumRuleOf(input: Pick<PricingInput, 'store' | 'zoneMinimumOrder' | 'supplierMinimumOrder'>): MinimumRule | null {
  const zone = input.zoneMinimumOrder ?? null;
  const amount = input.store.dropSize ?? zone?.amount ?? input.supplierMinimumOrder ?? null;
  if (amount === null) return null;
  if (!zone) return { amount, mode: 'hard', fee: null, moded: false };
  return { amount, mode: zone.mode, fee: zone.mode === 'fee' ? (zone.fee ?? null) : null, moded: true };
}

/**
 * What is missing for the minimum once this cart's `total` and the store's other orders
 * for the date (`alreadyOrdered`) are counted; null when nothing is, or there is no
 * minimum. Exact: decimal arithmetic on the numbers as JSON reads them.
 */
export function minimumOrderOf(rule: MinimumRule | null, total: Decimal.Value, alreadyOrdered = 0): MinimumOrder | null {
  if (!rule) return null;
  const missing = new Money(rule.amount).minus(total).minus(alreadyOrdered);
  if (!missing.greaterThan(0)) return null;
  return {
    amount: rule.amount,
    missing: missing.toNumber(),
    ...(rule.moded ? { mode: rule.mode } : {}),
    ...(rule.fee !== null ? { fee: rule.fee } : {}),
    ...(alreadyOrdered > 0 ? { alreadyOrdered } : {}),
  };
}

const hasRule = (p: PricingProduct) => (p.minUnits ?? null) !== null || (p.maxUnits ?? null) !== null || (p.multiple ?? null) !== null;

/**
 * The case rules a cart breaks, from the units of each product over its priced lines
 * (`quantity × units`; a failed line counts nothing, as for totals). Undefined when no
 * product of the cart has a rule, so a cart of products without rules answers as before;
 * otherwise the list (empty when every rule is met), by product code, each product's in
 * the order minimum, maximum, multiple.
 */
export function caseRuleViolations(products: readonly PricingProduct[], pricedUnits: ReadonlyMap<string, bigint>): CaseRuleViolation[] | undefined {
  const ruled = new Map<string, PricingProduct>();
  for (const p of products) if (pricedUnits.has(p.internalCode) && !ruled.has(p.internalCode) && hasRule(p)) ruled.set(p.internalCode, p);
  if (ruled.size === 0) return undefined;
  const violations: CaseRuleViolation[] = [];
  for (const code of [...ruled.keys()].sort(compareCodes)) {
    const p = ruled.get(code)!;
    const units = pricedUnits.get(code)!;
    const orderedUnits = Number(units);
    const at = { productInternalCode: code, orderedUnits };
    if (p.minUnits != null && units < BigInt(p.minUnits)) violations.push({ code: 'BELOW_MINIMUM_UNITS', ...at, minUnits: p.minUnits });
    if (p.maxUnits != null && units > BigInt(p.maxUnits)) violations.push({ code: 'ABOVE_MAXIMUM_UNITS', ...at, maxUnits: p.maxUnits });
    if (p.multiple != null && units % BigInt(p.multiple) !== 0n) violations.push({ code: 'NOT_A_MULTIPLE', ...at, multiple: p.multiple });
  }
  return violations;
}
