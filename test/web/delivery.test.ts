// How the shop words delivery dates and cut-offs (web/lib/delivery.ts): the zone's own
// dates and wall clock as the service answers them, never the phone's timezone; the
// countdown with plural forms; a date gone at its cut-off by the phone's clock.
import { describe, expect, it } from 'vitest';
import { cutoffLabel, dayLabel, keepDate, openOptions, pluralKey, timeLeft } from '../../web/lib/delivery.ts';
import { translator } from '../../web/lib/i18n.ts';

const thursday = { date: '2026-05-14', cutoffAt: '2026-05-13T23:00:00.000Z', cutoffLocal: '2026-05-13T18:00:00-05:00', afterCutoff: false };
const friday = { date: '2026-05-15', cutoffAt: '2026-05-14T23:00:00.000Z', cutoffLocal: '2026-05-14T18:00:00-05:00', afterCutoff: false };

describe('delivery words', () => {
  it('names the delivery day and the cut-off in the zone’s own time, whatever the phone’s timezone', () => {
    expect(dayLabel('2026-05-14', 'es-CO')).toBe('jueves 14');
    expect(dayLabel('2026-05-14', 'pt-BR')).toBe('quinta-feira 14');
    expect(dayLabel('2026-05-14', 'en')).toBe('Thursday 14');
    expect(cutoffLabel(thursday.cutoffLocal, 'es-CO', 'es')).toBe('miércoles 18:00');
    expect(cutoffLabel('2026-05-13T06:30:00+09:00', 'pt-BR', 'pt-BR')).toBe('quarta-feira 06:30');
    expect(cutoffLabel(thursday.cutoffLocal, 'en', 'en')).toBe('Wednesday 06:00 PM');
  });

  it('counts down in days, hours and minutes with the language’s plural forms', () => {
    const at = Date.parse(thursday.cutoffAt);
    const es = translator('es');
    expect(timeLeft(thursday.cutoffAt, at - (5 * 60 + 12) * 60_000 - 30_000, es, 'es')).toBe('5 h 12 min');
    expect(timeLeft(thursday.cutoffAt, at - 12 * 60_000, es, 'es')).toBe('12 min');
    expect(timeLeft(thursday.cutoffAt, at - 30_000, es, 'es')).toBe('menos de 1 min');
    expect(timeLeft(thursday.cutoffAt, at - (24 + 3) * 3_600_000, es, 'es')).toBe('1 día 3 h');
    expect(timeLeft(thursday.cutoffAt, at - (48 + 0) * 3_600_000, es, 'es')).toBe('2 días 0 h');
    expect(timeLeft(thursday.cutoffAt, at - 24 * 3_600_000, translator('en'), 'en')).toBe('1 day 0 h');
    expect(timeLeft(thursday.cutoffAt, at, es, 'es')).toBeNull();
    expect(pluralKey('pt-BR', 'delivery.days', 0)).toBe('delivery.days.one');
    expect(pluralKey('es', 'delivery.days', 0)).toBe('delivery.days.other');
    expect(pluralKey('es', 'delivery.days', 1_000_000)).toBe('delivery.days.other');
  });

  it('drops a date at its cut-off unless the service took it late, and moves the cart to the next', () => {
    const at = Date.parse(thursday.cutoffAt);
    expect(openOptions([thursday, friday], at - 1).map((o) => o.date)).toEqual(['2026-05-14', '2026-05-15']);
    expect(openOptions([thursday, friday], at).map((o) => o.date)).toEqual(['2026-05-15']);
    expect(openOptions([{ ...thursday, afterCutoff: true }, friday], at).map((o) => o.date)).toEqual(['2026-05-14', '2026-05-15']);
    expect(keepDate(undefined, [thursday, friday])).toEqual({ date: '2026-05-14' });
    expect(keepDate('2026-05-15', [thursday, friday])).toEqual({ date: '2026-05-15' });
    expect(keepDate('2026-05-14', [friday])).toEqual({ date: '2026-05-15', moved: '2026-05-14' });
    expect(keepDate('2026-05-14', [])).toEqual({ date: undefined, moved: '2026-05-14' });
    expect(keepDate(undefined, [])).toEqual({ date: undefined });
  });
});
