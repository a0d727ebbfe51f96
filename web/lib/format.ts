// Money and dates through Intl, in the person's language with the platform's region and
// currency (GET /app/me answers CURRENCY, CURRENCY_DECIMALS, LOCALE and TIMEZONE).
import type { Language } from './i18n.ts';

export interface PlatformSettings {
  currency: string;
  currencyDecimals: number;
  locale: string;
  timezone: string;
}

/**
 * The locale numbers and dates are written in: the platform's own (es-CO) when the person
 * reads its language, so amounts look as they do on the shop's invoices; else the language.
 */
export function formatLocale(language: Language, platformLocale: string): string {
  const base = language.split('-')[0]!;
  return platformLocale.toLowerCase().startsWith(base) && language.length === 2 ? platformLocale : language;
}

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let found = cache.get(key) as T | undefined;
  if (!found) cache.set(key, (found = make()));
  return found;
}

/**
 * An amount in the platform currency. Whole amounts show no decimals ("$ 12.500"); others
 * show the currency's decimals, as the service rounded them.
 */
export function formatMoney(amount: number, locale: string, settings: Pick<PlatformSettings, 'currency' | 'currencyDecimals'>): string {
  const whole = Number.isInteger(amount);
  const digits = whole ? 0 : settings.currencyDecimals;
  return cached(`m|${locale}|${settings.currency}|${digits}`, () =>
    new Intl.NumberFormat(locale, { style: 'currency', currency: settings.currency, minimumFractionDigits: digits, maximumFractionDigits: settings.currencyDecimals }),
  ).format(amount);
}

export function formatNumber(value: number, locale: string): string {
  return cached(`n|${locale}`, () => new Intl.NumberFormat(locale, { maximumFractionDigits: 4 })).format(value);
}

/** A moment (ISO timestamp) as a date and time in the platform's timezone. */
export function formatDateTime(iso: string, locale: string, timezone: string): string {
  return cached(`dt|${locale}|${timezone}`, () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: timezone })).format(new Date(iso));
}

/** A calendar date (YYYY-MM-DD, already in the platform's timezone): never shifted by a zone. */
export function formatCalendarDate(date: string, locale: string): string {
  return cached(`d|${locale}`, () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' })).format(new Date(`${date.slice(0, 10)}T00:00:00Z`));
}
