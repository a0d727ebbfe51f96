// The console's catalogs (web/console/words.ts): every key in every language with the same
// placeholders, problem codes translated, others left to the problem's detail.
import { describe, expect, it } from 'vitest';
import { CONSOLE_CATALOGS, consoleTranslator, problemMessage, type ConsoleKey } from '../../web/console/words.ts';

describe('the console words', () => {
  it('has every key in every language, with the same placeholders', () => {
    const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(CONSOLE_CATALOGS.es) as ConsoleKey[]) {
      for (const lang of ['pt-BR', 'en'] as const) {
        expect(CONSOLE_CATALOGS[lang][key], `${lang} ${key}`).toBeTruthy();
        expect(names(CONSOLE_CATALOGS[lang][key]), `${lang} ${key}`).toEqual(names(CONSOLE_CATALOGS.es[key]));
      }
    }
  });

  it('translates known problem codes and leaves others to the detail', () => {
    const t = consoleTranslator('es');
    expect(problemMessage(t, 'INSUFFICIENT_SCOPE')).toBe('Tu rol no permite hacer esto.');
    expect(problemMessage(t, 'SOMETHING_NEW')).toBeUndefined();
    expect(problemMessage(t, 'INVALID_TICKET_TRANSITION')).toBe('El ticket ya no admite esto: su estado cambió.');
    expect(consoleTranslator('en')('order.title', { id: 12 })).toBe('Order 12');
    expect(consoleTranslator('pt-BR')('pager.page', { page: 2, pages: 5, total: 90 })).toBe('Página 2 de 5 · 90 no total');
  });
});
