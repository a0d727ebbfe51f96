// Discounts (src/modules/pricing/README.md): each promotion's tier and line discounts, the fixed-amount
// split by largest remainder, and the one-discount-per-line conflict resolution.
import {
  compareCodes,
  divHalfUp,
  minorToNumber,
  nextTier,
  ratioOf,
  ratioToNumber,
  subRatio,
  tierFor,
  packagesToReach,
  type Participant,
  type PricedLine,
  type Ratio,
} from './pricing.measure.ts';
import type { AppliedDiscount, DiscountTier, LostConflictHint, NextTierHint } from './pricing.types.ts';

export interface MoneyContext {
  /** Digits of the currency's smallest unit. */
  readonly decimals: number;
  /** 10^decimals: the currency in its smallest unit. */
  readonly scale: bigint;
  /** Decimals shown for a count or amount in a hint. */
  readonly hintPlaces: number;
}

/** What one discount promotion would give if it got all its lines. */
interface Candidate {
  readonly participant: Participant;
  readonly code: string;
  readonly percentage: number | null;
  /** In the smallest unit, aligned with `participant.lines`. */
  readonly discounts: readonly bigint[];
  readonly total: bigint;
}

export interface DiscountOutcome {
  applied: AppliedDiscount[];
  /** The accepted discount of each line that got one, in the smallest unit. */
  lineDiscounts: Map<PricedLine, bigint>;
  lostConflicts: LostConflictHint[];
  nextTiers: NextTierHint[];
}

/** A discount promotion's tiers and the measure they use; quantity tiers take precedence if both came. */
function tiersOf(participant: Participant): { tiers: readonly DiscountTier[]; measure: 'count' | 'amount'; value: Ratio } | undefined {
  const { promo } = participant;
  if (promo.discountTiersData && promo.discountTiersData.length > 0) {
    return { tiers: promo.discountTiersData, measure: 'count', value: participant.count };
  }
  if (promo.discountTiersDataCash && promo.discountTiersDataCash.length > 0) {
    return { tiers: promo.discountTiersDataCash, measure: 'amount', value: participant.amount };
  }
  return undefined;
}

const isSet = (value: number | null | undefined): value is number => value !== undefined && value !== null;

/**
 * Splits `totalMinor` smallest units over the lines in proportion to their subtotals:
 * each line gets the floor of its exact share, and the units left over go one each to the
 * largest remainders. Ties go to the line first in the canonical order (product code,
 * then units), which is what "first in the cart" means here: the cart's own order must
 * not change the result (README). With totalMinor ≤ Σ subtotals no line gets more than
 * its subtotal.
 */
export function allocateLargestRemainder(totalMinor: bigint, lines: readonly PricedLine[]): bigint[] {
  let weight = 0n;
  for (const line of lines) weight += line.subtotalMinor;
  if (weight === 0n || totalMinor === 0n) return lines.map(() => 0n);
  const shares = lines.map((line) => line.subtotalMinor * totalMinor);
  const parts = shares.map((share) => share / weight);
  let left = totalMinor;
  for (const part of parts) left -= part;
  if (left > 0n) {
    const order = lines.map((_, i) => i);
    order.sort((a, b) => {
      const ra = shares[a]! % weight;
      const rb = shares[b]! % weight;
      return ra > rb ? -1 : ra < rb ? 1 : lines[a]!.rank - lines[b]!.rank;
    });
    for (let k = 0; left > 0n; k++, left--) parts[order[k]!]! += 1n;
  }
  return parts;
}

function candidateOf(participant: Participant, tier: DiscountTier, money: MoneyContext): Candidate | undefined {
  const { lines } = participant;
  let discounts: bigint[];
  let percentage: number | null = null;
  if (isSet(tier.discountPercentage)) {
    // subtotal × p ÷ 100, rounded once per line to the currency (half away from zero).
    percentage = tier.discountPercentage;
    const p = ratioOf(percentage);
    const den = p.d * 100n;
    discounts = lines.map((line) => divHalfUp(line.subtotalMinor * p.n, den));
  } else if (isSet(tier.discountAmount)) {
    // The promotion's discount is min(a, amount). An `a` finer than the currency is
    // rounded to it first, so the line discounts can add up to it exactly.
    const a = ratioOf(tier.discountAmount);
    const aMinor = divHalfUp(a.n * money.scale, a.d);
    const totalMinor = aMinor < participant.amountMinor ? aMinor : participant.amountMinor;
    discounts = allocateLargestRemainder(totalMinor, lines);
  } else {
    return undefined;
  }
  let total = 0n;
  for (const d of discounts) total += d;
  // A promotion that gives nothing (everything rounds to 0) is not applied: it would
  // take lines and show an empty discount without changing any price.
  if (total === 0n) return undefined;
  return { participant, code: participant.promo.internalCode, percentage, discounts, total };
}

function nextTierHint(participant: Participant, tiers: readonly DiscountTier[], measure: 'count' | 'amount', value: Ratio, money: MoneyContext): NextTierHint | undefined {
  const next = nextTier(tiers, value);
  if (next === undefined) return undefined;
  const gives = isSet(next.discountPercentage)
    ? { discountPercentage: next.discountPercentage }
    : isSet(next.discountAmount)
      ? { discountAmount: next.discountAmount }
      : undefined;
  if (gives === undefined) return undefined;
  return {
    promoInternalCode: participant.promo.internalCode,
    measure,
    current: ratioToNumber(value, money.hintPlaces, 'down'),
    target: next.min,
    missing: ratioToNumber(subRatio(ratioOf(next.min), value), money.hintPlaces, 'up'),
    // A count is in the promotion's boxes; the buyer adds packages of a line's size.
    ...(measure === 'count' ? { packagesToAdd: packagesToReach(participant, ratioOf(next.min)) } : {}),
    gives,
  };
}

/**
 * Every discount promotion's candidate, then the conflicts: candidates by total discount,
 * largest first (ties: internalCode ascending), each applied whole if none of its lines is
 * taken yet and otherwise not at all. Both keys are independent of the order of lines and
 * promotions, so the outcome is too.
 */
export function resolveDiscounts(participants: readonly Participant[], money: MoneyContext): DiscountOutcome {
  const candidates: Candidate[] = [];
  const nextTiers: NextTierHint[] = [];
  for (const participant of participants) {
    const found = tiersOf(participant);
    if (found === undefined) continue;
    const tier = tierFor(found.tiers, found.value);
    const candidate = tier === undefined ? undefined : candidateOf(participant, tier, money);
    if (candidate !== undefined) candidates.push(candidate);
    const hint = nextTierHint(participant, found.tiers, found.measure, found.value, money);
    if (hint !== undefined) nextTiers.push(hint);
  }
  candidates.sort((a, b) => (a.total === b.total ? compareCodes(a.code, b.code) : a.total > b.total ? -1 : 1));

  const owner = new Map<PricedLine, Candidate>();
  const lineDiscounts = new Map<PricedLine, bigint>();
  const applied: AppliedDiscount[] = [];
  const lostConflicts: LostConflictHint[] = [];
  for (const candidate of candidates) {
    const { lines } = candidate.participant;
    const taken = lines.filter((line) => owner.has(line));
    if (taken.length > 0) {
      lostConflicts.push(lostHint(candidate, taken, owner, money));
      continue;
    }
    lines.forEach((line, i) => {
      owner.set(line, candidate);
      lineDiscounts.set(line, candidate.discounts[i]!);
    });
    applied.push({
      promoInternalCode: candidate.code,
      appliedDiscountPercentage: candidate.percentage,
      appliedDiscountAmount: minorToNumber(candidate.total, money.decimals),
      products: lines.map((line, i) => ({
        internalCode: line.productInternalCode,
        units: line.units,
        quantity: line.quantity,
        discountAmount: minorToNumber(candidate.discounts[i]!, money.decimals),
      })),
    });
  }
  applied.sort((a, b) => compareCodes(a.promoInternalCode, b.promoInternalCode));
  lostConflicts.sort((a, b) => compareCodes(a.promoInternalCode, b.promoInternalCode));
  return { applied, lineDiscounts, lostConflicts, nextTiers };
}

function lostHint(candidate: Candidate, taken: readonly PricedLine[], owner: ReadonlyMap<PricedLine, Candidate>, money: MoneyContext): LostConflictHint {
  const byWinner = new Map<string, { internalCode: string; units: number }[]>();
  for (const line of taken) {
    const winner = owner.get(line)!.code;
    let products = byWinner.get(winner);
    if (products === undefined) byWinner.set(winner, (products = []));
    products.push({ internalCode: line.productInternalCode, units: line.units });
  }
  return {
    promoInternalCode: candidate.code,
    discountAmount: minorToNumber(candidate.total, money.decimals),
    takenBy: [...byWinner.entries()]
      .sort(([a], [b]) => compareCodes(a, b))
      .map(([promoInternalCode, products]) => ({ promoInternalCode, products })),
  };
}
