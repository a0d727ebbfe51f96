// The store cache's rules without a database: shared computations, nothing kept across a
// change heard while computing, background refresh past the lifetime, nothing trusted
// while not listening.
import { describe, expect, it } from 'vitest';
import type { Database, ListenHandlers } from '../../src/db/database.ts';
import { StoreCache } from '../../src/modules/store-app/store-app.cache.ts';

function setup(ttlMs = 1000) {
  let now = 0;
  let handlers: ListenHandlers | undefined;
  const database = { listen: async (_channel: string, h: ListenHandlers) => ((handlers = h), h.up(), async () => {}) } as unknown as Database;
  const cache = new StoreCache(() => now, ttlMs);
  let computed = 0;
  const deferred: ((v: number) => void)[] = [];
  const compute = () => new Promise<number>((resolve) => { computed++; deferred.push(resolve); });
  return { cache, database, advance: (ms: number) => (now += ms), handlers: () => handlers!, computed: () => computed, settle: (n: number) => deferred.shift()!(n), compute };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('StoreCache', () => {
  it('computes once for concurrent readers and keeps the value', async () => {
    const t = setup();
    await t.cache.start(t.database);
    const a = t.cache.get('k', t.compute);
    const b = t.cache.get('k', t.compute);
    t.settle(1);
    expect([await a, await b]).toEqual([1, 1]);
    expect(await t.cache.get('k', t.compute)).toBe(1);
    expect(t.computed()).toBe(1);
  });

  it('never keeps a value computed while a change was heard', async () => {
    const t = setup();
    await t.cache.start(t.database);
    const before = t.cache.get('k', t.compute);
    t.handlers().notified('');
    const after = t.cache.get('k', t.compute); // a reader after the change computes afresh
    t.settle(1);
    t.settle(2);
    expect([await before, await after]).toEqual([1, 2]);
    await tick();
    expect(await t.cache.get('k', t.compute)).toBe(2);
    expect(t.computed()).toBe(2);
  });

  it('answers past its lifetime while refreshing, and not past twice that', async () => {
    const t = setup(1000);
    await t.cache.start(t.database);
    const first = t.cache.get('k', t.compute);
    t.settle(1);
    await first;
    t.advance(1500);
    expect(await t.cache.get('k', t.compute)).toBe(1); // stale, refresh started
    expect(t.computed()).toBe(2);
    expect(await t.cache.get('k', t.compute)).toBe(1); // one refresh at a time
    t.settle(2);
    await tick();
    expect(await t.cache.get('k', t.compute)).toBe(2);
    t.advance(2500); // past twice the lifetime: waits for a fresh value
    const fresh = t.cache.get('k', t.compute);
    t.settle(3);
    expect(await fresh).toBe(3);
  });

  it('keeps nothing while it cannot hear changes', async () => {
    const t = setup();
    await t.cache.start(t.database);
    t.handlers().down();
    const a = t.cache.get('k', t.compute);
    t.settle(1);
    await a;
    const b = t.cache.get('k', t.compute);
    t.settle(2);
    expect(await b).toBe(2);
    expect(t.cache.isListening).toBe(false);
  });
});
