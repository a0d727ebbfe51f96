// The shop's hooks for words, money and dates.
import { useMemo } from 'react';
import { useMe } from '../lib/api.ts';
import { formatCalendarDate, formatDateTime, formatLocale, formatMoney, formatNumber, type PlatformSettings } from '../lib/format.ts';
import { translator, type Translate } from '../lib/i18n.ts';
import { useSession } from '../lib/session.ts';

export function useT(): Translate {
  const { language } = useSession();
  return useMemo(() => translator(language), [language]);
}

const FALLBACK: PlatformSettings = { currency: 'COP', currencyDecimals: 2, locale: 'es-CO', timezone: 'America/Bogota' };

export function useFormat() {
  const { language } = useSession();
  const me = useMe();
  const settings = me.data?.settings ?? FALLBACK;
  return useMemo(() => {
    const locale = formatLocale(language, settings.locale);
    return {
      locale,
      money: (n: number) => formatMoney(n, locale, settings),
      number: (n: number) => formatNumber(n, locale),
      dateTime: (iso: string) => formatDateTime(iso, locale, settings.timezone),
      date: (d: string) => formatCalendarDate(d, locale),
      list: (items: string[]) => new Intl.ListFormat(locale, { type: 'conjunction' }).format(items),
    };
  }, [language, settings]);
}
