// The delivery calendar's pure rules (src/modules/delivery/delivery.rules.ts): weekdays,
// cut-offs in a zone's timezone across DST, exceptions, and what may be ordered when.
import { describe, expect, it } from 'vitest';
import {
  checkDeliveryDate,
  cutoffOf,
  cutoffsReached,
  deliveriesBetween,
  isoWeekday,
  isTimezone,
  localWithOffset,
  nextDeliveryOptions,
  type ZoneCalendar,
} from '../../src/modules/delivery/delivery.rules.ts';

const bogota: ZoneCalendar = {
  timezone: 'America/Bogota',
  cutoffMode: 'strict',
  // Thursdays, ordered by Wednesday 18:00.
  days: [{ weekday: 4, cutoff: { daysBefore: 1, time: '18:00' } }],
  exceptions: [],
};
const at = (iso: string) => new Date(iso);

describe('calendar days', () => {
  it('numbers weekdays as ISO does (1 Monday ... 7 Sunday)', () => {
    expect(['2026-05-04', '2026-05-07', '2026-05-10'].map(isoWeekday)).toEqual([1, 4, 7]);
    expect(isoWeekday('2026-12-25')).toBe(5);
  });

  it('knows IANA timezones and refuses made-up ones', () => {
    expect(isTimezone('America/Bogota')).toBe(true);
    expect(isTimezone('UTC')).toBe(true);
    expect(isTimezone('Mars/Olympus')).toBe(false);
  });
});

describe('cut-offs', () => {
  it("closes at the local time, daysBefore days earlier, in the zone's timezone", () => {
    const cutoff = cutoffOf('2026-05-07', { daysBefore: 1, time: '18:00' }, 'America/Bogota');
    expect(cutoff.toISOString()).toBe('2026-05-06T23:00:00.000Z');
    expect(localWithOffset(cutoff, 'America/Bogota')).toBe('2026-05-06T18:00:00-05:00');
  });

  it('follows DST: the same local time is another UTC instant on each side of the change', () => {
    const six = { daysBefore: 1, time: '18:00' };
    // Madrid moves to summer time on Sunday 2026-03-29 at 02:00: Saturday's cut-off is in
    // winter time (+01:00), Sunday's in summer time (+02:00).
    expect(cutoffOf('2026-03-29', six, 'Europe/Madrid').toISOString()).toBe('2026-03-28T17:00:00.000Z');
    expect(cutoffOf('2026-03-30', six, 'Europe/Madrid').toISOString()).toBe('2026-03-29T16:00:00.000Z');
    expect(localWithOffset(cutoffOf('2026-03-30', six, 'Europe/Madrid'), 'Europe/Madrid')).toBe('2026-03-29T18:00:00+02:00');
    // New York, back in autumn: 2026-11-01 at 02:00 EDT becomes 01:00 EST.
    expect(cutoffOf('2026-11-01', six, 'America/New_York').toISOString()).toBe('2026-10-31T22:00:00.000Z');
    expect(cutoffOf('2026-11-02', six, 'America/New_York').toISOString()).toBe('2026-11-01T23:00:00.000Z');
  });

  it('reads a time the clocks skip as the time past the gap, and a repeated time as its first occurrence', () => {
    // 2026-03-08 02:30 does not exist in New York (02:00 EST -> 03:00 EDT): 03:30 EDT.
    const skipped = cutoffOf('2026-03-08', { daysBefore: 0, time: '02:30' }, 'America/New_York');
    expect(skipped.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(localWithOffset(skipped, 'America/New_York')).toBe('2026-03-08T03:30:00-04:00');
    // 2026-11-01 01:30 happens twice: the first (EDT, -04:00), the earlier cut-off.
    const repeated = cutoffOf('2026-11-01', { daysBefore: 0, time: '01:30' }, 'America/New_York');
    expect(repeated.toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });
});

describe('the calendar', () => {
  it('delivers on the weekdays of `days`, each with its own cut-off', () => {
    const zone: ZoneCalendar = {
      ...bogota,
      days: [
        { weekday: 1, cutoff: { daysBefore: 2, time: '12:00' } },
        { weekday: 4, cutoff: { daysBefore: 1, time: '18:00' } },
      ],
    };
    expect(deliveriesBetween(zone, '2026-05-04', '2026-05-11').map((d) => [d.date, d.cutoffAt.toISOString()])).toEqual([
      ['2026-05-04', '2026-05-02T17:00:00.000Z'],
      ['2026-05-07', '2026-05-06T23:00:00.000Z'],
      ['2026-05-11', '2026-05-09T17:00:00.000Z'],
    ]);
  });

  it('drops a closed date, and moves a moved one with its cut-off counted from the new date', () => {
    const zone: ZoneCalendar = {
      ...bogota,
      days: [{ weekday: 5, cutoff: { daysBefore: 1, time: '18:00' } }],
      exceptions: [
        { date: '2026-12-25', closed: true },
        { date: '2027-01-01', movedTo: '2027-01-02' },
      ],
    };
    expect(deliveriesBetween(zone, '2026-12-18', '2027-01-09').map((d) => [d.date, d.cutoffAt.toISOString()])).toEqual([
      ['2026-12-18', '2026-12-17T23:00:00.000Z'],
      ['2027-01-02', '2027-01-01T23:00:00.000Z'],
      ['2027-01-08', '2027-01-07T23:00:00.000Z'],
    ]);
  });

  it('makes a delivery moved onto a delivery day one delivery, closing at the earlier cut-off', () => {
    const zone: ZoneCalendar = {
      ...bogota,
      days: [
        { weekday: 4, cutoff: { daysBefore: 1, time: '18:00' } },
        { weekday: 5, cutoff: { daysBefore: 2, time: '10:00' } },
      ],
      exceptions: [{ date: '2026-05-08', movedTo: '2026-05-07' }],
    };
    expect(deliveriesBetween(zone, '2026-05-04', '2026-05-10').map((d) => [d.date, d.cutoffAt.toISOString()])).toEqual([
      ['2026-05-07', '2026-05-05T15:00:00.000Z'],
    ]);
  });

  it('ignores an exception on a date that has no delivery', () => {
    const zone: ZoneCalendar = { ...bogota, exceptions: [{ date: '2026-05-06', closed: true }, { date: '2026-05-05', movedTo: '2026-05-09' }] };
    expect(deliveriesBetween(zone, '2026-05-04', '2026-05-10').map((d) => d.date)).toEqual(['2026-05-07']);
  });
});

describe('what may be ordered, and when', () => {
  it('strict: a date is gone at its cut-off, to the millisecond', () => {
    expect(checkDeliveryDate(bogota, at('2026-05-06T22:59:59.999Z'), '2026-05-07')).toMatchObject({ ok: true, afterCutoff: false });
    expect(checkDeliveryDate(bogota, at('2026-05-06T23:00:00.000Z'), '2026-05-07')).toEqual({ ok: false, code: 'CUTOFF_PASSED' });
    expect(checkDeliveryDate(bogota, at('2026-05-06T23:00:01.000Z'), '2026-05-07')).toEqual({ ok: false, code: 'CUTOFF_PASSED' });
    expect(checkDeliveryDate(bogota, at('2026-05-01T12:00:00.000Z'), '2026-05-08')).toEqual({ ok: false, code: 'NOT_A_DELIVERY_DAY' });
    expect(checkDeliveryDate(bogota, at('2026-05-01T12:00:00.000Z'), '2026-04-30')).toEqual({ ok: false, code: 'CUTOFF_PASSED' });
  });

  it('flexible: after the cut-off the date is still taken, flagged, until the delivery day itself', () => {
    const flexible: ZoneCalendar = { ...bogota, cutoffMode: 'flexible' };
    expect(checkDeliveryDate(flexible, at('2026-05-06T23:00:01.000Z'), '2026-05-07')).toMatchObject({ ok: true, afterCutoff: true });
    // 2026-05-07 00:30 in Bogotá is 05:30Z: the delivery day has begun.
    expect(checkDeliveryDate(flexible, at('2026-05-07T04:59:59.000Z'), '2026-05-07')).toMatchObject({ ok: true, afterCutoff: true });
    expect(checkDeliveryDate(flexible, at('2026-05-07T05:00:00.000Z'), '2026-05-07')).toEqual({ ok: false, code: 'CUTOFF_PASSED' });
  });

  it('answers the next 14 dates, without those that closed (strict) or flagging them (flexible)', () => {
    const now = at('2026-05-06T23:00:00.000Z');
    const strict = nextDeliveryOptions(bogota, now);
    expect(strict).toHaveLength(14);
    expect(strict[0]).toEqual({ date: '2026-05-14', cutoffAt: '2026-05-13T23:00:00.000Z', cutoffLocal: '2026-05-13T18:00:00-05:00', afterCutoff: false });
    expect(strict.at(-1)!.date).toBe('2026-08-13');
    const flexible = nextDeliveryOptions({ ...bogota, cutoffMode: 'flexible' }, now);
    expect(flexible[0]).toMatchObject({ date: '2026-05-07', afterCutoff: true });
    expect(flexible[1]).toMatchObject({ date: '2026-05-14', afterCutoff: false });
  });

  it('looks far enough ahead for a zone that delivers rarely, and answers none for a zone with no days', () => {
    const rare: ZoneCalendar = { ...bogota, days: [], exceptions: [] };
    expect(nextDeliveryOptions(rare, at('2026-05-01T00:00:00Z'))).toEqual([]);
    const monthly: ZoneCalendar = { ...bogota, exceptions: [] };
    expect(nextDeliveryOptions(monthly, at('2026-05-01T00:00:00Z'), 30)).toHaveLength(30);
  });
});

describe('cut-offs reached', () => {
  it('finds the deliveries whose cut-off falls in the window, and only those', () => {
    const zone: ZoneCalendar = { ...bogota, days: [{ weekday: 4, cutoff: { daysBefore: 3, time: '09:00' } }] };
    // Thursday 2026-05-07 closes Monday 2026-05-04 09:00 Bogotá (14:00Z).
    expect(cutoffsReached(zone, at('2026-05-04T13:00:00Z'), at('2026-05-04T14:00:00Z')).map((d) => d.date)).toEqual(['2026-05-07']);
    expect(cutoffsReached(zone, at('2026-05-04T14:00:00Z'), at('2026-05-04T15:00:00Z'))).toEqual([]);
    expect(cutoffsReached(zone, at('2026-05-01T00:00:00Z'), at('2026-05-20T00:00:00Z')).map((d) => d.date)).toEqual(['2026-05-07', '2026-05-14', '2026-05-21']);
  });
});
