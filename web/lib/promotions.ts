// What a promotion badge says ("desde 1 caja", "desde 3 cajas: 10 % de descuento"), from the tiers the
// service answered: nothing here decides who earns what, it only words the tiers.
import type { Language } from '../kit/i18n.ts';
import type { BonusTier, DiscountTier, PromotionRef } from './promotion-types.ts';

/**
 * The words the phrases use: the shop's catalog and the console's (which words a supplier's
 * tiers the same way) both start from PHRASE_WORDS. A count of boxes has its plural forms
 * (`.one`, `.other`: "desde 1 caja", "desde 2 cajas") and is asked for by its base with
 * `count` (web/kit/i18n.ts).
 */
type Counted = 'promo.fromCount' | 'promo.bonusCount';
type PhraseKey = `${Counted}.one` | `${Counted}.other` | 'promo.fromAmount' | 'promo.percent' | 'promo.amount' | 'promo.bonusAmount';
export type PhraseTranslate = (key: PhraseKey | Counted, params?: Record<string, string | number>) => string;

/** The phrases' words in each language, declared once for both apps' catalogs. */
export const PHRASE_WORDS: Record<Language, Record<PhraseKey, string>> = {
  'es': {
    'promo.fromCount.one': 'desde {min} caja: {benefit}',
    'promo.fromCount.other': 'desde {min} cajas: {benefit}',
    'promo.fromAmount': 'comprando {amount}: {benefit}',
    'promo.percent': '{value} % de descuento',
    'promo.amount': '{value} de descuento',
    'promo.bonusCount.one': 'cada {required} caja: {given} gratis',
    'promo.bonusCount.other': 'cada {required} cajas: {given} gratis',
    'promo.bonusAmount': 'comprando {amount}: {given} gratis',
  },
  'pt-BR': {
    'promo.fromCount.one': 'a partir de {min} caixa: {benefit}',
    'promo.fromCount.other': 'a partir de {min} caixas: {benefit}',
    'promo.fromAmount': 'comprando {amount}: {benefit}',
    'promo.percent': '{value} % de desconto',
    'promo.amount': '{value} de desconto',
    'promo.bonusCount.one': 'a cada {required} caixa: {given} grátis',
    'promo.bonusCount.other': 'a cada {required} caixas: {given} grátis',
    'promo.bonusAmount': 'comprando {amount}: {given} grátis',
  },
  'en': {
    'promo.fromCount.one': 'from {min} box: {benefit}',
    'promo.fromCount.other': 'from {min} boxes: {benefit}',
    'promo.fromAmount': 'buying {amount}: {benefit}',
    'promo.percent': '{value} % off',
    'promo.amount': '{value} off',
    'promo.bonusCount.one': 'every {required} box: {given} free',
    'promo.bonusCount.other': 'every {required} boxes: {given} free',
    'promo.bonusAmount': 'buying {amount}: {given} free',
  },
};

function benefit(t: PhraseTranslate, tier: DiscountTier, money: (n: number) => string, number: (n: number) => string) {
  if (tier.discountPercentage != null) return t('promo.percent', { value: number(tier.discountPercentage) });
  return t('promo.amount', { value: money(tier.discountAmount ?? 0) });
}

/** One phrase per tier or bonus the promotion has; empty when the answer carries no tiers. */
export function promotionPhrases(p: Pick<PromotionRef, 'discountTiersData' | 'discountTiersDataCash' | 'bonusTierData' | 'bonusTierDataCash'>, t: PhraseTranslate, money: (n: number) => string, number: (n: number) => string): string[] {
  const phrases: string[] = [];
  for (const tier of p.discountTiersData ?? []) phrases.push(t('promo.fromCount', { count: tier.min, min: number(tier.min), benefit: benefit(t, tier, money, number) }));
  for (const tier of p.discountTiersDataCash ?? []) phrases.push(t('promo.fromAmount', { amount: money(tier.min), benefit: benefit(t, tier, money, number) }));
  const bonus: BonusTier | null | undefined = p.bonusTierData;
  if (bonus?.quantityRequired != null) phrases.push(t('promo.bonusCount', { count: bonus.quantityRequired, required: number(bonus.quantityRequired), given: number(bonus.quantityGiven) }));
  const cash = p.bonusTierDataCash;
  if (cash?.amountRequired != null) phrases.push(t('promo.bonusAmount', { amount: money(cash.amountRequired), given: number(cash.quantityGiven) }));
  return phrases;
}

export const hasTiers = (p: Partial<PromotionRef>) => Boolean(p.discountTiersData?.length || p.discountTiersDataCash?.length || p.bonusTierData || p.bonusTierDataCash);
