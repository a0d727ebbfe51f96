// The console's hooks for words, numbers and dates (the catalogs are in words.ts).
import { useMemo } from 'react';
import { consoleTranslator, type Translate } from './words.ts';
import { useSession } from './lib/session.ts';

export { consoleTranslator, problemMessage, type ConsoleKey, type Translate } from './words.ts';

export function useT(): Translate {
  const { language } = useSession();
  return useMemo(() => consoleTranslator(language), [language]);
}

/** Numbers and moments in the person's language (the console has no platform settings to read: amounts show as numbers). */
export function useFormat() {
  const { language } = useSession();
  return useMemo(() => {
    const number = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
    const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
    return {
      number: (n: number) => number.format(n),
      dateTime: (iso: string) => dateTime.format(new Date(iso)),
      /** A calendar date (YYYY-MM-DD): never shifted by a zone. */
      date: (d: string) => date.format(new Date(`${d.slice(0, 10)}T00:00:00Z`)),
    };
  }, [language]);
}
