import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from '../../src/db/data-dir-lock.ts';
import { decimalPlaces } from '../../src/lib/numbers.ts';
import { RateLimiter } from '../../src/lib/rate-limiter.ts';
import { todayIn } from '../../src/lib/clock.ts';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { compiledOnce } from '../../src/db/sql.ts';
import type { DB } from '../../src/db/types.ts';
import { byCodePoint, keyRange } from '../../src/modules/batch/batch.service.ts';
import { lastPerKey } from '../../src/modules/batch/batch.kinds.ts';
import fc from 'fast-check';
import { priceListBatchKind } from '../../src/modules/pricelists/pricelists.batch.ts';

describe('decimalPlaces', () => {
  it('counts the decimals a JSON number carries, exponent forms included', () => {
    expect([0, 12, 10.5, 1234.5678, 1.23456, 1e-7, 1.5e-5, -3.25, 1e21, 0.1 + 0.2].map(decimalPlaces)).toEqual([0, 0, 1, 4, 5, 7, 6, 2, 0, 17]);
    expect(decimalPlaces(Number.NaN)).toBe(Infinity);
  });
});

describe('RateLimiter', () => {
  it('allows the burst, then one request per 1/rate seconds, per key', () => {
    let now = 0;
    const limiter = new RateLimiter(2, 3, { now: () => now });
    expect([1, 2, 3, 4].map(() => limiter.take('a').allowed)).toEqual([true, true, true, false]);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take('b').allowed).toBe(true);
    now += 500; // half a second at 2/s refills one token
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
    now += 10_000; // refills up to the burst, not beyond
    expect([1, 2, 3, 4].map(() => limiter.take('a').allowed)).toEqual([true, true, true, false]);
  });

  it('at its cap drops resting buckets first, never an active one, and lets a new key through without state', () => {
    let now = 0;
    const limiter = new RateLimiter(1, 2, { maxKeys: 3, now: () => now });
    // The real client uses up its burst.
    expect([1, 2, 3].map(() => limiter.take('real').allowed)).toEqual([true, true, false]);
    for (let i = 0; i < 1000; i++) expect(limiter.take(`junk-${i}`).allowed).toBe(true);
    expect(limiter.size).toBe(3);
    expect(limiter.overflowed).toBeGreaterThan(0);
    // Not reset: still limited.
    expect(limiter.take('real').allowed).toBe(false);
    // A new real client at the cap is not locked out.
    expect(limiter.take('new').allowed).toBe(true);
    now += 5_000; // every bucket at rest: the junk is dropped to make room, and the new key gets state
    expect(limiter.take('new').allowed).toBe(true);
    expect(limiter.take('new').allowed).toBe(true);
    expect(limiter.take('new').allowed).toBe(false);
    expect(limiter.size).toBeLessThanOrEqual(3);
    expect(limiter.check('new').allowed).toBe(false);
    expect(limiter.check('absent').allowed).toBe(true);
    expect(limiter.size).toBeLessThanOrEqual(3);
  });
});

describe('lockDataDir', () => {
  it('refuses a folder held by a live process and takes over one left by a dead process', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'surtido-lock-'));
    try {
      const file = path.join(dir, 'surtido.lock');
      fs.writeFileSync(file, String(process.ppid)); // a live process that is not us
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      fs.writeFileSync(file, '999999999'); // no such process
      const release = lockDataDir(dir);
      expect(fs.readFileSync(file, 'utf8')).toBe(String(process.pid));
      release();
      expect(fs.existsSync(file)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('batch key ranges', () => {
  it('order keys as the database does (code points), not as UTF-16 units', () => {
    // U+1F600 is a surrogate pair in UTF-16 (0xD83D ...), which JavaScript's < puts before U+FFFD.
    expect('\u{1F600}' < '\uFFFD').toBe(true);
    expect(byCodePoint('\u{1F600}', '\uFFFD')).toBeGreaterThan(0);
    expect(['b', 'a\u{1F600}', 'a\uFFFD', 'a', 'ab'].sort(byCodePoint)).toEqual(['a', 'ab', 'a\uFFFD', 'a\u{1F600}', 'b']);
  });

  it('span every item of a batch, or nothing when an action has no key', () => {
    const entry = (product: string) => ({ action: 'upsert.products', item: { priceListInternalCode: 'L', productInternalCode: product, units: 1, price: 1 } });
    const range = keyRange(priceListBatchKind, [entry('P5'), entry('P\u{1F600}'), entry('P\uFFFD'), entry('P1')]);
    expect(range).toEqual({ min: 'entry\u001fL\u001fP1', max: 'entry\u001fL\u001fP\u{1F600}' });
    const keyless = { endpoint: '/x', actions: [{ name: 'upsert', select: () => [], code: () => '', apply: async () => [] }] };
    expect(keyRange(keyless, [{ action: 'upsert', item: {} }])).toBeNull();
  });

  it('match sorting every key in code point order, for any codes', () => {
    const entry = (product: string) => ({ action: 'upsert.products', item: { priceListInternalCode: 'L', productInternalCode: product, units: 1, price: 1 } });
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', minLength: 1 }), { minLength: 1, maxLength: 30 }), (codes) => {
        const sorted = codes.map((c) => `entry\u001fL\u001f${c}`).sort(byCodePoint);
        expect(keyRange(priceListBatchKind, codes.map(entry))).toEqual({ min: sorted[0], max: sorted.at(-1) });
      }),
    );
  });
});

describe('lastPerKey', () => {
  it('keeps the last row per key, in the order of those last rows', () => {
    const rows = [{ k: 'a', v: 1 }, { k: 'b', v: 2 }, { k: 'a', v: 3 }, { k: 'c', v: 4 }, { k: 'b', v: 5 }];
    expect(lastPerKey(rows, (r) => r.k)).toEqual([{ k: 'a', v: 3 }, { k: 'c', v: 4 }, { k: 'b', v: 5 }]);
    expect(lastPerKey(rows.slice(0, 2), (r) => r.k)).toEqual(rows.slice(0, 2));
  });
});

describe('todayIn', () => {
  it('turns the day at local midnight exactly, whatever it answered a moment before', () => {
    // Bogotá is UTC-5; Kathmandu UTC+5:45 (midnight there is 18:15 UTC).
    const cases: [string, string, string, string][] = [
      ['America/Bogota', '2026-11-22T04:59:59.999Z', '2026-11-21', '2026-11-22'],
      ['Asia/Kathmandu', '2026-11-21T18:14:59.999Z', '2026-11-21', '2026-11-22'],
    ];
    for (const [zone, before, dayBefore, dayAfter] of cases) {
      let now = new Date(new Date(before).getTime() - 60_000);
      const clock = { now: () => now };
      expect(todayIn(clock, zone)).toBe(dayBefore);
      now = new Date(before);
      expect(todayIn(clock, zone)).toBe(dayBefore);
      now = new Date(new Date(before).getTime() + 1);
      expect(todayIn(clock, zone)).toBe(dayAfter);
      now = new Date(new Date(before).getTime() - 1000); // a clock moved back is answered too
      expect(todayIn(clock, zone)).toBe(dayBefore);
    }
  });
});

describe('compiledOnce', () => {
  it('refuses a query with a parameter that is not one of its sentinels, before running anything', async () => {
    // A pool that is never connected: the check comes first.
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' }) }) });
    const query = compiledOnce((d, code: string) => d.selectFrom('brands').select('id').where('internal_code', '=', code).where('supplier_id', '=', 7), ['\u0000code'] as const);
    await expect(query(db, 'B1')).rejects.toThrow('parameter 7 is not one of the sentinels');
    await db.destroy();
  });
});
