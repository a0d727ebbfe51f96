// Plural forms come from the language (Intl.PluralRules, web/kit/i18n.ts): a counted message
// is asked for by its base with `count`, and the form is the language's category of that
// count, else `other`. The cart's "1 units" was this missing.
import { describe, expect, it } from 'vitest';
import { defineWords, pluralCategory } from '../../web/kit/i18n.ts';
import { translator } from '../../web/lib/i18n.ts';

describe('plural forms', () => {
  const words = defineWords({
    es: { 'box.one': '{count} caja', 'box.other': '{count} cajas', 'box.many': '{count} de cajas' },
    'pt-BR': { 'box.one': '{count} caixa', 'box.other': '{count} caixas', 'box.many': '{count} de caixas' },
    en: { 'box.one': '{count} box', 'box.other': '{count} boxes', 'box.many': '{count} boxes' },
  });

  it("chooses the language's form of the count", () => {
    const es = words.translator('es');
    expect(es('box', { count: 1 })).toBe('1 caja');
    expect(es('box', { count: 2 })).toBe('2 cajas');
    expect(es('box', { count: 0 })).toBe('0 cajas');
    // Portuguese counts zero as one; English does not.
    expect(words.translator('pt-BR')('box', { count: 0 })).toBe('0 caixa');
    expect(words.translator('en')('box', { count: 0 })).toBe('0 boxes');
    expect(words.translator('en')('box', { count: 1 })).toBe('1 box');
  });

  it('falls back to `other` where the catalog has no key for the category', () => {
    expect(pluralCategory('es', 1_000_000)).toBe('many');
    const shop = translator('es');
    expect(shop('delivery.days', { count: 1_000_000 })).toBe('1000000 días');
    // Asked without a count, the base reads as `other`.
    expect(words.translator('en')('box')).toBe('{count} boxes');
  });

  it('says the cart\'s units in the singular for one, in every language', () => {
    expect(translator('en')('catalog.units', { count: 1 })).toBe('1 unit');
    expect(translator('en')('catalog.units', { count: 24 })).toBe('24 units');
    expect(translator('es')('catalog.units', { count: 1 })).toBe('1 und.');
    expect(translator('es')('catalog.units', { count: 12 })).toBe('12 und.');
    expect(translator('pt-BR')('catalog.units', { count: 1 })).toBe('1 un.');
    expect(translator('en')('cart.giftLine', { quantity: 2, name: 'Water', size: translator('en')('catalog.units', { count: 1 }) })).toBe('2 × Water (1 unit)');
  });
});
