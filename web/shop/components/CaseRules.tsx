// Products' case rules as the cart answers them (`violations`: NOT_A_MULTIPLE,
// BELOW_MINIMUM_UNITS, ABOVE_MAXIMUM_UNITS, each with the product's rule): said in words
// under the lines with a one-tap fix, and remembered for the rest of the visit so the
// stepper's − and + snap to quantities the rule allows. The store catalog does not answer
// the rules, so a product's rule is known from its first violation (web/README.md).
import type { PricedCart } from '../../lib/api.ts';
import type { CartItem } from '../../lib/cart-state.ts';
import { useFormat, useT } from '../i18n.tsx';

export type Violation = NonNullable<PricedCart['violations']>[number];
interface Rule {
  multiple?: number;
  minUnits?: number;
  maxUnits?: number;
}

const known = new Map<string, Rule>();
const keyOf = (storeId: number, code: string) => `${storeId}/${code}`;

/** Remembers the rules the cart's violations name (a store's products, for this visit). */
export function learnRules(storeId: number, violations: readonly Violation[] | undefined) {
  for (const v of violations ?? []) {
    const rule = known.get(keyOf(storeId, v.productInternalCode)) ?? {};
    if (v.code === 'NOT_A_MULTIPLE') rule.multiple = v.multiple;
    if (v.code === 'BELOW_MINIMUM_UNITS') rule.minUnits = v.minUnits;
    if (v.code === 'ABOVE_MAXIMUM_UNITS') rule.maxUnits = v.maxUnits;
    known.set(keyOf(storeId, v.productInternalCode), rule);
  }
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Packages of `units` that make a whole number of cases of `multiple` units. */
export const packagesPerCase = (multiple: number, units: number) => multiple / gcd(multiple, units);

/**
 * The quantity a tap on − or + lands on: the next (or previous) whole number of cases, at
 * least the minimum going up and at most the maximum. A quantity typed in the box, or a
 * product without a known rule, is kept as asked (the cart then says what is wrong).
 */
export function snapQuantity(storeId: number, item: CartItem, asked: number): number {
  const rule = known.get(keyOf(storeId, item.productInternalCode));
  const step = Math.sign(asked - item.quantity);
  if (!rule || Math.abs(asked - item.quantity) !== 1) return asked;
  const perCase = rule.multiple ? packagesPerCase(rule.multiple, item.units) : 1;
  let q = step > 0 ? Math.ceil((item.quantity + 1) / perCase) * perCase : Math.floor((item.quantity - 1) / perCase) * perCase;
  if (step > 0 && rule.minUnits && q * item.units < rule.minUnits) q = Math.ceil(rule.minUnits / item.units / perCase) * perCase;
  if (step > 0 && rule.maxUnits && q * item.units > rule.maxUnits) q = Math.max(item.quantity, Math.floor(rule.maxUnits / item.units / perCase) * perCase);
  return q;
}

/** What quantity of the line meets the rule a violation names (undefined: no single line can). */
function fixOf(v: Violation, item: CartItem, otherUnits: number): number | undefined {
  const need = (units: number) => (units - otherUnits) / item.units;
  if (v.code === 'NOT_A_MULTIPLE') {
    const up = Math.ceil(v.orderedUnits / v.multiple) * v.multiple;
    const q = need(up);
    return Number.isInteger(q) && q > 0 ? q : undefined;
  }
  const q = v.code === 'BELOW_MINIMUM_UNITS' ? Math.ceil(need(v.minUnits)) : Math.floor(need(v.maxUnits));
  return q > 0 ? q : undefined;
}

export function CaseRuleNotes({ violations, items, names, onFix }: { violations: readonly Violation[] | undefined; items: readonly CartItem[]; names: (code: string) => string; onFix: (item: CartItem, quantity: number) => void }) {
  const t = useT();
  const f = useFormat();
  if (!violations || violations.length === 0) return null;
  return (
    <ul className="case-rules" aria-label={t('caseRule.title')}>
      {violations.map((v) => {
        const lines = items.filter((i) => i.productInternalCode === v.productInternalCode);
        const item = lines.length === 1 ? lines[0] : undefined;
        const fix = item ? fixOf(v, item, v.orderedUnits - item.quantity * item.units) : undefined;
        const name = names(v.productInternalCode);
        const text =
          v.code === 'NOT_A_MULTIPLE'
            ? t('caseRule.multiple', { name, multiple: f.number(v.multiple), ordered: f.number(v.orderedUnits) })
            : v.code === 'BELOW_MINIMUM_UNITS'
              ? t('caseRule.min', { name, min: f.number(v.minUnits), ordered: f.number(v.orderedUnits) })
              : t('caseRule.max', { name, max: f.number(v.maxUnits), ordered: f.number(v.orderedUnits) });
        return (
          <li key={`${v.code}/${v.productInternalCode}`} className="warn" data-violation={v.code} data-product={v.productInternalCode}>
            <span>{text}</span>
            {item && fix !== undefined && (
              <button type="button" onClick={() => onFix(item, fix)}>
                {t('caseRule.fix', { quantity: f.number(fix), units: f.number(fix * item.units) })}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
