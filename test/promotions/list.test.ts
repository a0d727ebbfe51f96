// GET /promotion (take, page, enabled, from, to; by start, then code) and `active`, which
// follows the platform's timezone and the app's clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { bodies, PATHS, seed } from './fixtures.ts';

let t: TestApp;
let s: TestSupplier;
// Bogotá is UTC−5 all year: its 1 March starts at 05:00 UTC.
let now = new Date('2026-01-01T12:00:00Z');
const clock = { now: () => now };
beforeAll(async () => {
  t = await createTestApp({ clock, env: { TIMEZONE: 'America/Bogota', TOKEN_TTL_SECONDS: String(10 * 365 * 24 * 3600) } });
  s = await t.supplier();
  await seed(t, s);
  // [code, start, end, enabled], written out of order.
  const promotions: [string, string, string, boolean][] = [
    ['D', '2026-03-01', '2026-03-10', true],
    ['B', '2026-02-01', '2026-02-28', true],
    ['a', '2026-03-01', '2026-03-05', false],
    ['C', '2026-03-01', '2026-04-30', true],
    ['E', '2026-03-11', '2026-03-20', false],
    ['A', '2026-01-01', '2026-12-31', true],
    ['F', '2026-05-01', '2026-05-02', true],
  ];
  for (const [code, start, end, enabled] of promotions) {
    const res = await as(t, s, 'PUT', PATHS.individual, bodies.individual(code, { start, end, enabled }));
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterAll(() => t.close());

const list = async (query = '') => {
  const res = await as(t, s, 'GET', `/promotion${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const codes = async (query = '') => (await list(query)).data.map((p: any) => p.internalCode);

describe('GET /promotion', () => {
  it('lists by start, then code (byte order), 50 a page by default', async () => {
    const page = await list();
    expect(page).toMatchObject({ page: 1, take: 50, total: 7, totalPages: 1 });
    expect(page.data.map((p: any) => p.internalCode)).toEqual(['A', 'B', 'C', 'D', 'a', 'E', 'F']);
    expect(page.data[0]).toMatchObject({ internalCode: 'A', type: 'BONUS_INDIVIDUAL', products: [{ internalCode: 'P-4', boxRatio: 1 }], bonusTierData: { quantityRequired: 10 } });
    expect((await as(t, s, 'GET', '/promotion/A')).json()).toEqual(page.data[0]);
  });

  it('pages with take and page (a number or a string), an empty page being 200', async () => {
    expect(await list('?take=3')).toMatchObject({ page: 1, take: 3, total: 7, totalPages: 3 });
    expect(await codes('?take=3&page=2')).toEqual(['D', 'a', 'E']);
    expect(await codes('?take=3&page=3')).toEqual(['F']);
    expect(await list('?take=3&page=4')).toEqual({ data: [], page: 4, take: 3, total: 7, totalPages: 3 });
  });

  it('refuses take outside 1..50 and page below 1', async () => {
    for (const [query, pointer] of [['?take=0', '/query/take'], ['?take=51', '/query/take'], ['?page=0', '/query/page'], ['?take=x', '/query/take']]) {
      const res = await as(t, s, 'GET', `/promotion${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errors[0].pointer).toBe(pointer);
    }
  });

  it('filters by enabled', async () => {
    expect(await codes('?enabled=false')).toEqual(['a', 'E']);
    expect(await codes('?enabled=true')).toEqual(['A', 'B', 'C', 'D', 'F']);
    expect((await list('?enabled=true&take=2')).total).toBe(5);
  });

  it('keeps the promotions whose start..end overlaps from..to, both days included', async () => {
    expect(await codes('?from=2026-03-06&to=2026-03-10')).toEqual(['A', 'C', 'D']);
    expect(await codes('?from=2026-03-10&to=2026-03-11')).toEqual(['A', 'C', 'D', 'E']);
    expect(await codes('?from=2026-02-28&to=2026-02-28')).toEqual(['A', 'B']);
    // Either alone: from keeps those ending on or after it; to, those starting on or before it.
    expect(await codes('?from=2026-04-30')).toEqual(['A', 'C', 'F']);
    expect(await codes('?to=2026-02-01')).toEqual(['A', 'B']);
    expect(await codes('?from=2027-01-01')).toEqual([]);
    expect(await codes('?from=2026-03-01&to=2026-03-31&enabled=false')).toEqual(['a', 'E']);
  });

  it('refuses dates that do not exist and to before from', async () => {
    const bad = await as(t, s, 'GET', '/promotion?from=2026-02-30');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'INVALID_FORMAT', errors: [{ pointer: '/query/from', code: 'INVALID_FORMAT' }] });
    const reversed = await as(t, s, 'GET', '/promotion?from=2026-03-02&to=2026-03-01');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json()).toMatchObject({ code: 'INVALID_DATE_RANGE', errors: [{ pointer: '/query/to', code: 'INVALID_DATE_RANGE' }] });
  });
});

describe('GET /promotion: search and type (the console\'s filters)', () => {
  let other: TestSupplier;
  const otherCodes = async (query: string) => {
    const res = await as(t, other, 'GET', `/promotion${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.map((p: any) => p.internalCode);
  };
  beforeAll(async () => {
    // Another supplier, so the counts above stay as they are: one promotion of each type.
    other = await t.supplier('OTHER');
    await seed(t, other);
    for (const [kind, code, name] of [
      ['simple', 'SUMMER-1', 'Verano cola'],
      ['multiple', 'MIX', 'Mezcla 100% natural'],
      ['individual', 'b_1', 'Lleve 11 pague 10'],
      ['crossed', 'GIFT', 'Regalo con cola'],
    ] as const) {
      const res = await as(t, other, 'PUT', PATHS[kind], bodies[kind](code, { name }));
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('filters by type', async () => {
    expect(await otherCodes('?type=DISCOUNT_SIMPLE')).toEqual(['SUMMER-1']);
    expect(await otherCodes('?type=DISCOUNT_MULTIPLE')).toEqual(['MIX']);
    expect(await otherCodes('?type=BONUS_INDIVIDUAL')).toEqual(['b_1']);
    expect(await otherCodes('?type=BONUS_CROSSED&enabled=true')).toEqual(['GIFT']);
    expect(await otherCodes('?type=BONUS_CROSSED&enabled=false')).toEqual([]);
    // The first supplier's are all individual bonuses, and only theirs are counted.
    expect((await list('?type=BONUS_INDIVIDUAL')).total).toBe(7);
    expect((await list('?type=DISCOUNT_SIMPLE')).total).toBe(0);
  });

  it('searches code and name case-insensitively, taking % and _ literally', async () => {
    expect(await otherCodes('?search=cola')).toEqual(['GIFT', 'SUMMER-1']);
    expect(await otherCodes('?search=summer')).toEqual(['SUMMER-1']);
    expect(await otherCodes(`?search=${encodeURIComponent('100%')}`)).toEqual(['MIX']);
    expect(await otherCodes('?search=_')).toEqual(['b_1']);
    expect(await otherCodes('?search=cola&type=BONUS_CROSSED')).toEqual(['GIFT']);
  });

  it('refuses an unknown type and an empty or long search with 400 naming the field', async () => {
    for (const [query, pointer] of [['?type=DISCOUNT', '/query/type'], ['?type=', '/query/type'], ['?search=', '/query/search'], [`?search=${'x'.repeat(101)}`, '/query/search']]) {
      const res = await as(t, other, 'GET', `/promotion${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().errors[0].pointer, query).toBe(pointer);
    }
  });
});

describe('active', () => {
  const active = async () => Object.fromEntries((await list()).data.map((p: any) => [p.internalCode, p.active]));

  it('is enabled and today, in the platform timezone, within start..end (both days included)', async () => {
    // 04:59:59 UTC on 1 March is still 28 February in Bogotá.
    now = new Date('2026-03-01T04:59:59Z');
    expect(await active()).toEqual({ A: true, B: true, C: false, D: false, a: false, E: false, F: false });
    expect((await as(t, s, 'GET', '/promotion/B')).json().active).toBe(true);

    now = new Date('2026-03-01T05:00:00Z');
    expect(await active()).toEqual({ A: true, B: false, C: true, D: true, a: false, E: false, F: false });

    // The last moment of the end day, then the first of the next.
    now = new Date('2026-03-11T04:59:59.999Z');
    expect((await as(t, s, 'GET', '/promotion/D')).json().active).toBe(true);
    now = new Date('2026-03-11T05:00:00Z');
    expect((await as(t, s, 'GET', '/promotion/D')).json().active).toBe(false);
    // E runs now but is disabled; enabling it makes it active.
    expect((await as(t, s, 'GET', '/promotion/E')).json().active).toBe(false);
    const enabled = await as(t, s, 'PUT', '/promotion/E/status', { enabled: true });
    expect(enabled.json()).toMatchObject({ enabled: true, active: true });
  });
});
