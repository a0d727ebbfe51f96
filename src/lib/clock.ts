/** Time comes from here so tests can move it; nothing else calls Date.now() for rules. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** Today in the platform's timezone (the TIMEZONE setting), as YYYY-MM-DD, by the app's clock. */
export function todayIn(clock: Clock, timezone: string): string {
  let format = dayFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timezone, format);
  }
  const part = Object.fromEntries(format.formatToParts(clock.now()).map((p) => [p.type, p.value]));
  return `${part.year}-${part.month}-${part.day}`;
}
