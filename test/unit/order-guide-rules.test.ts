// The order guide's pure rules on fixed histories (src/modules/order-guide/README.md).
import { describe, expect, it } from 'vitest';
import { cadenceOf, compareGuide, fillToPar, median, productHistories, toMultiple, type HistoryLine } from '../../src/modules/order-guide/order-guide.rules.ts';

const line = (orderId: number, day: string, code: string, units: number, quantity: number): HistoryLine => ({ code, orderId, at: `${day}T10:00:00.000Z`, day, units, quantity });

describe('the cadence rule', () => {
  it('needs 3 order days; N is the median interval; due only past N × 1.25', () => {
    expect(cadenceOf(['2030-01-01', '2030-01-08'], '2030-03-01')).toBeUndefined();
    const days = ['2030-01-01', '2030-01-08', '2030-01-15'];
    expect(cadenceOf(days, '2030-01-23')).toEqual({ everyDays: 7, daysSinceLast: 8, due: false });
    // 8.75 is the line: 9 days is due, 8 is not.
    expect(cadenceOf(days, '2030-01-24')).toEqual({ everyDays: 7, daysSinceLast: 9, due: true });
  });

  it('takes the median, so one long gap does not move N (an even count averages the middle two)', () => {
    const days = ['2030-01-01', '2030-01-08', '2030-01-15', '2030-03-15', '2030-03-22'];
    expect(cadenceOf(days, '2030-03-30')).toMatchObject({ everyDays: 7, due: false });
    expect(cadenceOf(['2030-01-01', '2030-01-05', '2030-01-15', '2030-01-20'], '2030-01-20')).toMatchObject({ everyDays: 5 });
    expect(median([4, 10, 5])).toBe(5);
    expect(median([4, 10])).toBe(7);
  });

  it('counts calendar days across a month and a leap day', () => {
    expect(cadenceOf(['2028-02-20', '2028-02-27', '2028-03-05'], '2028-03-14')).toEqual({ everyDays: 7, daysSinceLast: 9, due: true });
  });
});

describe('product histories', () => {
  it('counts orders, keeps the latest size and quantity, and the median of what each order bought in base units', () => {
    const [a, b] = productHistories([
      line(1, '2030-01-01', 'A', 12, 2),
      line(1, '2030-01-01', 'B', 1, 3),
      line(2, '2030-01-05', 'A', 1, 12), // one box's worth in singles
      line(3, '2030-01-09', 'A', 12, 3),
      line(3, '2030-01-09', 'A', 1, 6), // the latest order, two sizes: the box weighs most
      line(4, '2030-01-09', 'B', 1, 1), // two orders of B on one day: one order day
    ]).sort((x, y) => x.code.localeCompare(y.code));
    // A's orders: 24, 12 and 42 units; median 24, in boxes of 12: 2.
    expect(a).toEqual({ code: 'A', timesOrdered: 3, lastOrderedAt: '2030-01-09T10:00:00.000Z', units: 12, lastQuantity: 3, usualQuantity: 2, days: ['2030-01-01', '2030-01-05', '2030-01-09'] });
    expect(b).toMatchObject({ timesOrdered: 2, units: 1, usualQuantity: 2, days: ['2030-01-01', '2030-01-09'] });
  });
});

describe('par and case multiples', () => {
  it('orders max(par − onHand, 0), rounded up to the multiple (1 when the product has none)', () => {
    expect(fillToPar(30, 12, 1, 1)).toBe(18);
    expect(fillToPar(30, 12, null, 1)).toBe(18);
    expect(fillToPar(30, 13, 6, 1)).toBe(18);
    expect(fillToPar(30, 12, 6, 1)).toBe(18);
    expect(fillToPar(30, 31, 6, 1)).toBe(0);
    expect(toMultiple(1, 24, 1)).toBe(24);
    expect(toMultiple(5, undefined, 1)).toBe(5);
  });

  it('counts the multiple in units: the step in packages of `units` is multiple / gcd(multiple, units)', () => {
    // A case of 12: two packages of 6, one of 12 or 24, twelve singles, four of 3.
    expect(fillToPar(1, 0, 12, 6)).toBe(2);
    expect(fillToPar(3, 0, 12, 6)).toBe(4);
    expect(toMultiple(1, 12, 12)).toBe(1);
    expect(toMultiple(3, 12, 24)).toBe(3);
    expect(toMultiple(1, 12, 1)).toBe(12);
    expect(toMultiple(5, 12, 3)).toBe(8);
    // A case of 4 bought in packages of 6: 2 packages (12 units) is the first whole number of cases.
    expect(toMultiple(1, 4, 6)).toBe(2);
    expect(fillToPar(0, 3, 12, 6)).toBe(0);
  });
});

describe("the guide's order", () => {
  const item = (productInternalCode: string, timesOrdered: number, lastOrderedAt: string | null, pinned = false) => ({ productInternalCode, timesOrdered, lastOrderedAt, pinned });
  const items = [item('C', 1, '2030-01-09'), item('A', 3, '2030-01-01'), item('B', 3, '2030-01-05'), item('P', 0, null, true)];
  it('puts pinned products first, then by frequency or recency, the code last', () => {
    expect([...items].sort(compareGuide('frequency')).map((i) => i.productInternalCode)).toEqual(['P', 'B', 'A', 'C']);
    expect([...items].sort(compareGuide('recency')).map((i) => i.productInternalCode)).toEqual(['P', 'C', 'B', 'A']);
  });
});
