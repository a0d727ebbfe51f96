import { describe, expect, it } from 'vitest';
import { formatCalendarDate, formatDateTime, formatLocale, formatMoney } from '../../web/lib/format.ts';
import { LANGUAGES, pickLanguage, problemMessage, translator, type MessageKey } from '../../web/lib/i18n.ts';
import { promotionPhrases } from '../../web/lib/promotions.ts';

const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
const cop = { currency: 'COP', currencyDecimals: 2 };

describe('money and dates', () => {
  it('writes pesos the Colombian way, whole amounts without decimals', () => {
    expect(nbsp(formatMoney(39700, 'es-CO', cop))).toBe('$ 39.700');
    expect(nbsp(formatMoney(1234.5, 'es-CO', cop))).toBe('$ 1.234,50');
    expect(nbsp(formatMoney(0, 'es-CO', cop))).toBe('$ 0');
  });

  it('follows the currency and the reader', () => {
    expect(nbsp(formatMoney(1234.56, 'en', { currency: 'USD', currencyDecimals: 2 }))).toBe('$1,234.56');
    expect(nbsp(formatMoney(1234.5, 'pt-BR', { currency: 'BRL', currencyDecimals: 2 }))).toBe('R$ 1.234,50');
    expect(nbsp(formatMoney(39700, 'en', cop))).toBe('COP 39,700');
  });

  it('uses the platform locale for its own language, the language otherwise', () => {
    expect(formatLocale('es', 'es-CO')).toBe('es-CO');
    expect(formatLocale('en', 'es-CO')).toBe('en');
    expect(formatLocale('pt-BR', 'es-CO')).toBe('pt-BR');
    expect(formatLocale('en', 'en-GB')).toBe('en-GB');
  });

  it("shows moments in the platform's timezone, calendar dates never shifted", () => {
    // 02:30 UTC on the 5th is still the 4th in Bogotá.
    expect(nbsp(formatDateTime('2026-03-05T02:30:00Z', 'en', 'America/Bogota'))).toBe('Mar 4, 2026, 9:30 PM');
    expect(formatCalendarDate('2026-03-05', 'en')).toBe('Mar 5, 2026');
    expect(formatCalendarDate('2026-03-05', 'es-CO')).toMatch(/^5\D+(0?3|mar)\D*2026$/);
  });
});

describe('the words', () => {
  it('picks the first language it speaks from the browser, Spanish otherwise', () => {
    expect(pickLanguage(['fr-FR', 'pt-PT', 'en'])).toBe('pt-BR');
    expect(pickLanguage(['en-US'])).toBe('en');
    expect(pickLanguage(['de'])).toBe('es');
    expect(pickLanguage([])).toBe('es');
  });

  it('has every key in every language, with the same placeholders', () => {
    const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(LANGUAGES.es) as MessageKey[]) {
      for (const lang of ['pt-BR', 'en'] as const) expect(names(LANGUAGES[lang][key]), `${lang} ${key}`).toEqual(names(LANGUAGES.es[key]));
    }
  });

  it('translates known problem codes and leaves others to the detail', () => {
    const t = translator('es');
    expect(problemMessage(t, 'UNAUTHENTICATED')).toBe('El código es incorrecto, venció o ya se usó.');
    expect(problemMessage(t, 'SOMETHING_NEW')).toBeUndefined();
    expect(translator('en')('cart.placed', { id: 12 })).toBe('Order #12 sent.');
  });

  it('words promotion tiers as badges', () => {
    const t = translator('es');
    const money = (n: number) => nbsp(formatMoney(n, 'es-CO', cop));
    const number = (n: number) => String(n);
    expect(promotionPhrases({ discountTiersData: [{ min: 3, discountPercentage: 10 }] }, t, money, number)).toEqual(['desde 3 cajas: 10 % de descuento']);
    expect(promotionPhrases({ discountTiersDataCash: [{ min: 100000, discountAmount: 5000 }] }, t, money, number)).toEqual(['comprando $ 100.000: $ 5.000 de descuento']);
    expect(promotionPhrases({ bonusTierData: { quantityRequired: 12, quantityGiven: 1, units: 1 } }, t, money, number)).toEqual(['cada 12 cajas: 1 gratis']);
    expect(promotionPhrases({ bonusTierDataCash: { amountRequired: 50000, quantityGiven: 2, units: 1 } }, t, money, number)).toEqual(['comprando $ 50.000: 2 gratis']);
    expect(promotionPhrases({}, t, money, number)).toEqual([]);
  });
});
