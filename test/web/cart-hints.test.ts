// The cart's words for the service's hints (web/lib/hints.ts): next tiers, a discount
// that lost its lines to another, a gift earned but not given; in every language, with
// names instead of codes and the reason translated.
import { describe, expect, it } from 'vitest';
import { hintTexts, type CartHints } from '../../web/lib/hints.ts';
import { translator, type Language } from '../../web/lib/i18n.ts';

const hints: CartHints = {
  nextTiers: [{ promoInternalCode: 'SODA', measure: 'count', missing: 3, gives: { discountPercentage: 10 } }],
  lostConflicts: [
    {
      promoInternalCode: 'SMALL',
      discountAmount: 1500,
      takenBy: [
        { promoInternalCode: 'BIG', products: [{ internalCode: 'COLA', units: 24 }] },
        { promoInternalCode: 'SODA', products: [{ internalCode: 'LIMA', units: 24 }] },
      ],
    },
  ],
  giftsNotGiven: [{ promoInternalCode: 'CHIPS', quantity: 2, product: { internalCode: 'WATER', units: 1 }, reason: 'UNAVAILABLE' }],
};
const promotions: Record<string, string> = { SODA: 'Gaseosas por caja', SMALL: 'Descuento pequeño', BIG: 'Gran descuento', CHIPS: 'Agua con papas' };
const words = (language: Language) => ({
  t: translator(language),
  money: (n: number) => `$${n}`,
  number: (n: number) => String(n),
  list: (items: string[]) => new Intl.ListFormat(language, { type: 'conjunction' }).format(items),
  productName: (code: string) => (code === 'WATER' ? 'Agua 600 ml' : code),
  promotionName: (code: string) => promotions[code] ?? code,
});

describe('the cart hints', () => {
  it('word every kind of hint, with names, in Spanish', () => {
    expect(hintTexts(hints, words('es'))).toEqual([
      { key: 'next/SODA', kind: 'next', text: 'Agrega 3 cajas más para 10 % de descuento' },
      {
        key: 'lost/SMALL',
        kind: 'lost',
        text: 'La promoción «Descuento pequeño» no se aplicó: sus productos ya tienen el descuento de Gran descuento y Gaseosas por caja, y cada producto lleva un solo descuento (habría descontado $1500).',
      },
      { key: 'gift/CHIPS/WATER', kind: 'gift', text: 'Ganaste 2 × Agua 600 ml con «Agua con papas», pero no se puede entregar: sin existencias.' },
    ]);
  });

  it('in English and Portuguese, every placeholder filled and the reason translated', () => {
    const en = hintTexts(hints, words('en')).map((h) => h.text);
    expect(en[1]).toBe('The deal “Descuento pequeño” was not applied: its products already get the discount of Gran descuento and Gaseosas por caja, and a product takes one discount only (it would have taken off $1500).');
    expect(en[2]).toBe('You earned 2 × Agua 600 ml with “Agua con papas”, but it cannot be given: out of stock.');
    const pt = hintTexts({ ...hints, giftsNotGiven: [{ ...hints.giftsNotGiven![0]!, reason: 'PRODUCT_DISABLED' }] }, words('pt-BR')).map((h) => h.text);
    expect(pt[1]).toContain('A promoção “Descuento pequeño” não foi aplicada');
    expect(pt[1]).toContain('Gran descuento e Gaseosas por caja');
    expect(pt[2]).toBe('Você ganhou 2 × Agua 600 ml com “Agua con papas”, mas não pode ser entregue: não está à venda.');
    for (const text of [...en, ...pt]) expect(text).not.toMatch(/\{\w+\}/);
  });

  it('say a count in the packages the buyer adds, naming the gift as the service named it (issue 34)', () => {
    const bonus: CartHints = {
      nextTiers: [
        {
          promoInternalCode: 'CHIPS',
          measure: 'count',
          // 12 of the promotion's units are missing, but one more box of 12 is enough.
          missing: 12,
          packagesToAdd: [
            { internalCode: 'PAPAS', units: 12, quantity: 1 },
            { internalCode: 'PAPAS', units: 1, quantity: 12 },
          ],
          gives: { quantity: 2, product: { internalCode: 'AGUA', units: 1, name: 'Agua 600 ml' } },
        },
      ],
    };
    const named = (language: Language) => ({ ...words(language), productName: (code: string) => (code === 'PAPAS' ? 'Papas fritas 45 g' : code) });
    expect(hintTexts(bonus, named('es'))[0]!.text).toBe('Agrega 1 × Papas fritas 45 g (12 und.) más para 2 × Agua 600 ml gratis');
    expect(hintTexts(bonus, named('en'))[0]!.text).toBe('Add 1 × Papas fritas 45 g (12 units) more for 2 × Agua 600 ml free');
    expect(hintTexts(bonus, named('pt-BR'))[0]!.text).toBe('Adicione mais 1 × Papas fritas 45 g (12 un.) para 2 × Agua 600 ml grátis');
  });

  it('say nothing without hints, and only next tiers when the answer has no other list', () => {
    expect(hintTexts(undefined, words('es'))).toEqual([]);
    expect(hintTexts({ nextTiers: [] }, words('es'))).toEqual([]);
    expect(hintTexts({ nextTiers: hints.nextTiers }, words('en')).map((h) => h.kind)).toEqual(['next']);
  });
});
