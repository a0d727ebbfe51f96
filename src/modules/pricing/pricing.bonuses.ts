// Bonuses (src/modules/pricing/README.md): what each bonus promotion earns, whether its gift can be given,
// and how far the next step is. Bonuses never conflict and never change a total.
import type { MoneyContext } from './pricing.discounts.ts';
import { cmpRatio, floorDiv, packagesToReach, promotionProducts, ratioOf, ratioToNumber, subRatio, type Participant, type Ratio } from './pricing.measure.ts';
import type { GiftNotGivenHint, GiftRefusal, NextTierHint, Reward } from './pricing.types.ts';

/** Why a gift cannot be given to this store, or null when it can. */
export type GiftCheck = (productInternalCode: string | undefined, units: number) => GiftRefusal | null;

export interface BonusOutcome {
  rewards: Reward[];
  giftsNotGiven: GiftNotGivenHint[];
  nextTiers: NextTierHint[];
}

interface Earned {
  /** Packages earned now (0 when not yet). */
  quantity: number;
  /** The next step: the measure it starts at and the packages it gives in all. */
  next: { measure: 'count' | 'amount'; value: Ratio; target: Ratio; quantity: number } | undefined;
}

function earnedBy(participant: Participant): { gift: string | undefined; units: number; earned: Earned } | undefined {
  const { promo } = participant;
  // The individual bonus gives its own product; the crossed one the tier's product.
  const own = promo.type === 'BONUS_INDIVIDUAL' ? promotionProducts(promo)[0]?.internalCode : undefined;
  const byCount = promo.bonusTierData;
  if (byCount) {
    const required = ratioOf(byCount.quantityRequired);
    if (required.n <= 0n) return undefined;
    const times = floorDiv(participant.count, required);
    const target = { n: required.n * (times + 1n), d: required.d };
    return {
      gift: own ?? byCount.productInternalCode ?? undefined,
      units: byCount.units ?? 1,
      earned: {
        quantity: Number(times) * byCount.quantityGiven,
        next: {
          measure: 'count',
          value: participant.count,
          target,
          quantity: Number(times + 1n) * byCount.quantityGiven,
        },
      },
    };
  }
  const byAmount = promo.bonusTierDataCash;
  if (byAmount) {
    const required = ratioOf(byAmount.amountRequired);
    const reached = cmpRatio(participant.amount, required) >= 0;
    return {
      gift: own ?? byAmount.productInternalCode ?? undefined,
      units: byAmount.units ?? 1,
      earned: {
        // Once per order: nothing more to reach after it.
        quantity: reached ? byAmount.quantityGiven : 0,
        next: reached
          ? undefined
          : { measure: 'amount', value: participant.amount, target: required, quantity: byAmount.quantityGiven },
      },
    };
  }
  return undefined;
}

/** A gift's name, when the input's products carry one. */
export type GiftName = (productInternalCode: string) => string | undefined;

export function resolveBonuses(participants: readonly Participant[], checkGift: GiftCheck, money: MoneyContext, nameOf: GiftName): BonusOutcome {
  const rewards: Reward[] = [];
  const giftsNotGiven: GiftNotGivenHint[] = [];
  const nextTiers: NextTierHint[] = [];
  for (const participant of participants) {
    const found = earnedBy(participant);
    if (found === undefined) continue;
    const { gift, units, earned } = found;
    const code = participant.promo.internalCode;
    const refusal = checkGift(gift, units);
    // The gift named where the input names it: the order and the hint say what is given.
    const name = refusal === null ? nameOf(gift!) : undefined;
    const given = { internalCode: gift!, units, ...(name === undefined ? {} : { name }) };
    if (earned.quantity > 0) {
      if (refusal === null) {
        rewards.push({ promoInternalCode: code, quantity: earned.quantity, products: [given] });
      } else {
        giftsNotGiven.push({ promoInternalCode: code, quantity: earned.quantity, product: { internalCode: gift ?? '', units }, reason: refusal });
      }
    }
    // A gift the store cannot get is not worth buying more for: no hint then.
    if (earned.next !== undefined && refusal === null) {
      const { next } = earned;
      nextTiers.push({
        promoInternalCode: code,
        measure: next.measure,
        current: ratioToNumber(next.value, money.hintPlaces, 'down'),
        target: ratioToNumber(next.target, money.hintPlaces, 'up'),
        missing: ratioToNumber(subRatio(next.target, next.value), money.hintPlaces, 'up'),
        // A count is in the promotion's boxes; the buyer adds packages of a line's size.
        ...(next.measure === 'count' ? { packagesToAdd: packagesToReach(participant, next.target) } : {}),
        gives: { quantity: next.quantity, product: given },
      });
    }
  }
  return { rewards, giftsNotGiven, nextTiers };
}
