// What the cart says about the service's hints (src/modules/pricing/README.md, "Hints are
// about the cart"): what one more step of a promotion gives, a discount that lost its
// lines to a larger one, and a gift that was earned but cannot be given. Only words: every
// number is the service's.
import type { MessageKey, Translate } from './i18n.ts';

export interface NextTierHint {
  promoInternalCode: string;
  measure: 'count' | 'amount';
  /** In the promotion's own count (units, or its boxes): not what the buyer adds. */
  missing: number;
  /** A count's packages to add, of each qualifying line's size, the fewest first (the service's answer). */
  packagesToAdd?: { internalCode: string; units: number; quantity: number }[];
  gives: { discountPercentage?: number; discountAmount?: number; quantity?: number; product?: { internalCode: string; units: number; name?: string } };
}
export interface LostConflictHint {
  promoInternalCode: string;
  discountAmount: number;
  takenBy: { promoInternalCode: string; products: { internalCode: string; units: number }[] }[];
}
export interface GiftNotGivenHint {
  promoInternalCode: string;
  quantity: number;
  product: { internalCode: string; units: number };
  reason: 'UNKNOWN_PRODUCT' | 'PRODUCT_DISABLED' | 'UNAVAILABLE';
}
export interface CartHints {
  nextTiers: NextTierHint[];
  lostConflicts?: LostConflictHint[];
  giftsNotGiven?: GiftNotGivenHint[];
}

export interface HintWords {
  t: Translate;
  money: (n: number) => string;
  number: (n: number) => string;
  /** "A, B y C" in the reader's language. */
  list: (items: string[]) => string;
  productName: (code: string) => string;
  promotionName: (code: string) => string;
}

export type HintKind = 'next' | 'lost' | 'gift';

/** One sentence per hint: next tiers first (they invite), then what was not applied or given. */
export function hintTexts(hints: CartHints | undefined, w: HintWords): { key: string; kind: HintKind; text: string }[] {
  if (!hints) return [];
  const { t } = w;
  const next = hints.nextTiers.map((h) => {
    const gives =
      h.gives.discountPercentage != null
        ? t('promo.percent', { value: w.number(h.gives.discountPercentage) })
        : h.gives.discountAmount != null
          ? t('promo.amount', { value: w.money(h.gives.discountAmount) })
          : t('cart.hintGift', { quantity: w.number(h.gives.quantity ?? 0), name: h.gives.product?.name ?? w.productName(h.gives.product?.internalCode ?? '') });
    // A count is said in the packages the buyer adds (the fewest the service found: one
    // more box, not "12 more" of the promotion's units); only an answer without them (an
    // older one kept offline) falls back to the count.
    const add = h.packagesToAdd?.[0];
    const text =
      h.measure === 'amount'
        ? t('cart.hintAmount', { missing: w.money(h.missing), gives })
        : add
          ? t('cart.hintPackages', { packages: t('cart.hintPackage', { quantity: w.number(add.quantity), name: w.productName(add.internalCode), size: t('catalog.units', { count: add.units }) }), gives })
          : t('cart.hintCount', { count: h.missing, missing: w.number(h.missing), gives });
    return { key: `next/${h.promoInternalCode}`, kind: 'next' as const, text };
  });
  const lost = (hints.lostConflicts ?? []).map((h) => ({
    key: `lost/${h.promoInternalCode}`,
    kind: 'lost' as const,
    text: t('cart.hintLost', {
      promo: w.promotionName(h.promoInternalCode),
      by: w.list(h.takenBy.map((b) => w.promotionName(b.promoInternalCode))),
      amount: w.money(h.discountAmount),
    }),
  }));
  const gifts = (hints.giftsNotGiven ?? []).map((h) => ({
    key: `gift/${h.promoInternalCode}/${h.product.internalCode}`,
    kind: 'gift' as const,
    text: t('cart.hintGiftNotGiven', {
      quantity: w.number(h.quantity),
      name: w.productName(h.product.internalCode),
      promo: w.promotionName(h.promoInternalCode),
      reason: t(`lineError.${h.reason}` as MessageKey),
    }),
  }));
  return [...next, ...lost, ...gifts];
}
