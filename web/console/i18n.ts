// The console's hooks for words, numbers and dates (the catalogs are in words.ts).
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { formatLocale, formatMoney, formatNumber } from '../lib/format.ts';
import { consoleTranslator, type Translate } from './words.ts';
import { client } from './lib/api.ts';
import { session, useSession } from './lib/session.ts';

export { problemMessage, type ConsoleKey, type Translate } from './words.ts';

export function useT(): Translate {
  const { language } = useSession();
  return useMemo(() => consoleTranslator(language), [language]);
}

/**
 * Numbers, money and moments in the person's language, written as the shop writes them
 * (web/lib/format.ts): the platform's locale when the person reads its language, so es-CO
 * groups every amount alike ("$ 8.900" beside "$ 178.650", issue 34), and money with the
 * platform's currency (GET /console/me/settings). Until the settings arrive, an amount
 * shows as a number in that same format.
 */
export function useFormat() {
  const { language } = useSession();
  const settings = useQuery({
    queryKey: ['console-settings'],
    queryFn: () => client.get('/console/me/settings'),
    enabled: Boolean(session.get().token),
    staleTime: Infinity,
  }).data;
  return useMemo(() => {
    const locale = formatLocale(language, settings?.locale ?? language);
    const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
    return {
      number: (n: number) => formatNumber(n, locale),
      /** An amount in the platform's currency. */
      money: (n: number) => (settings ? formatMoney(n, locale, settings) : formatNumber(n, locale)),
      dateTime: (iso: string) => dateTime.format(new Date(iso)),
      /** A calendar date (YYYY-MM-DD): never shifted by a zone. */
      date: (d: string) => date.format(new Date(`${d.slice(0, 10)}T00:00:00Z`)),
    };
  }, [language, settings]);
}
