// Delivery dates and cut-offs as the shop words them. Dates and times are the zone's own,
// as GET /app/stores/{id}/delivery-options answers them (`date` a calendar day,
// `cutoffLocal` the zone's wall clock with its offset): read as written, never shifted by
// the phone's timezone. Only the countdown uses the phone's clock (`cutoffAt`, UTC).
import { pluralKey as formKey, type PluralBase } from '../kit/i18n.ts';
import { LANGUAGES, type Language, type MessageKey, type Translate } from './i18n.ts';

export interface DeliveryOption {
  date: string;
  cutoffAt: string;
  cutoffLocal: string;
  afterCutoff: boolean;
}

/** A counted message's key for `count` by the language's rules (`t(base, { count })` chooses it itself). */
export function pluralKey(language: Language, base: PluralBase<MessageKey>, count: number): MessageKey {
  return formKey<MessageKey>(LANGUAGES[language], language, base, count);
}

const formats = new Map<string, Intl.DateTimeFormat>();
function format(key: string, make: () => Intl.DateTimeFormat) {
  let found = formats.get(key);
  if (!found) formats.set(key, (found = make()));
  return found;
}

/** A calendar day as "jueves 14" (weekday and day of the month, in that order in every language). */
export function dayLabel(date: string, locale: string): string {
  const parts = format(`day|${locale}`, () => new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', timeZone: 'UTC' })).formatToParts(new Date(`${date.slice(0, 10)}T00:00:00Z`));
  const weekday = parts.find((p) => p.type === 'weekday')?.value ?? '';
  const day = parts.find((p) => p.type === 'day')?.value ?? '';
  return `${weekday} ${day}`;
}

/** The zone's wall clock of a local timestamp with offset ("2026-05-13T18:00:00-05:00"), as a UTC instant to format in UTC. */
function wallClock(local: string): Date {
  return new Date(`${local.slice(0, 19)}Z`);
}

/** A cut-off as "miércoles 18:00" in the zone's local time (a 24-hour clock but in English). */
export function cutoffLabel(cutoffLocal: string, locale: string, language: Language): string {
  const time = format(`time|${locale}|${language}`, () =>
    new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC', ...(language === 'en' ? {} : { hourCycle: 'h23' }) }),
  ).format(wallClock(cutoffLocal));
  // The weekday alone: a cut-off is at most days away, and "miércoles 18:00" is how a route is told.
  const weekday = format(`weekday|${locale}`, () => new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' })).format(wallClock(cutoffLocal));
  return `${weekday} ${time}`;
}

/** Time left until a cut-off, as "5 h 12 min", "2 días 3 h" or "menos de 1 min"; null once it passed. */
export function timeLeft(cutoffAt: string, now: number, t: Translate, language: Language): string | null {
  const ms = Date.parse(cutoffAt) - now;
  if (ms <= 0) return null;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return t('delivery.lessThanMinute');
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const parts: string[] = [];
  if (days > 0) parts.push(t('delivery.days', { count: days }));
  if (hours > 0 || days > 0) parts.push(t('delivery.hours', { count: hours }));
  if (days === 0) parts.push(t('delivery.minutes', { count: mins }));
  return parts.join(' ');
}

/**
 * The options still open by the phone's clock: a date whose cut-off passed and that the
 * service did not flag as taken late (a flexible zone's) is gone, even before the next
 * answer says so, so the cart never offers a date the service would refuse.
 */
export function openOptions(options: readonly DeliveryOption[], now: number): DeliveryOption[] {
  return options.filter((o) => o.afterCutoff || Date.parse(o.cutoffAt) > now);
}

/**
 * The date the cart keeps: the chosen one while it is open, else the first open one.
 * `moved` names the chosen date when its cut-off took it away.
 */
export function keepDate(chosen: string | undefined, open: readonly DeliveryOption[]): { date: string | undefined; moved?: string } {
  if (open.length === 0) return { date: undefined, ...(chosen ? { moved: chosen } : {}) };
  if (chosen === undefined) return { date: open[0]!.date };
  if (open.some((o) => o.date === chosen)) return { date: chosen };
  return { date: open[0]!.date, moved: chosen };
}
