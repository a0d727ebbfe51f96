// GroupCommit's contract (src/db/group-commit.ts), with a write function that records its
// calls: how items are grouped, and which failures are retried item by item. The database
// side (one statement, one commit per group) is test/orders/group-placement.test.ts.
import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/db/group-commit.ts';

/** A write that answers each item doubled, records its groups, and can be held open or made to fail. */
function recorder(fail: (items: number[]) => unknown = () => undefined) {
  const groups: number[][] = [];
  const held: (() => void)[] = [];
  let hold = false;
  const write = async (items: number[]) => {
    groups.push(items);
    if (hold) await new Promise<void>((resolve) => held.push(resolve));
    const error = fail(items);
    if (error) throw error;
    return items.map((n) => n * 2);
  };
  return { groups, write, holdWrites: (on: boolean) => (hold = on), release: () => held.splice(0).forEach((r) => r()) };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const dbError = (code: string) => Object.assign(new Error(`database error ${code}`), { code });

describe('GroupCommit', () => {
  it('writes the items of one turn with one call, and answers each its own result', async () => {
    const r = recorder();
    const group = new GroupCommit(r.write, { maxItems: 10, maxInFlight: 1, minItemsWhileBusy: 10 });
    expect(await Promise.all([1, 2, 3].map((n) => group.submit(n)))).toEqual([2, 4, 6]);
    expect(r.groups).toEqual([[1, 2, 3]]);
    // A later turn is a group of its own.
    expect(await group.submit(4)).toBe(8);
    expect(r.groups).toEqual([[1, 2, 3], [4]]);
  });

  it('splits at maxItems, and holds what arrives while maxInFlight groups are written for the next group', async () => {
    const r = recorder();
    const group = new GroupCommit(r.write, { maxItems: 2, maxInFlight: 1, minItemsWhileBusy: 2 });
    r.holdWrites(true);
    const first = [1, 2, 3].map((n) => group.submit(n));
    await turn();
    expect(r.groups).toEqual([[1, 2]]);
    // Arrives while the one allowed group is being written: waits, with 3, for the next.
    const later = group.submit(4);
    await turn();
    expect(r.groups).toEqual([[1, 2]]);
    r.holdWrites(false);
    r.release();
    expect(await Promise.all([...first, later])).toEqual([2, 4, 6, 8]);
    expect(r.groups).toEqual([[1, 2], [3, 4]]);
  });

  it('starts another group while one is written only once minItemsWhileBusy items wait', async () => {
    const r = recorder();
    const group = new GroupCommit(r.write, { maxItems: 10, maxInFlight: 2, minItemsWhileBusy: 3 });
    r.holdWrites(true);
    const first = group.submit(1);
    await turn();
    expect(r.groups).toEqual([[1]]);
    // Two wait while the first group is written: too few for a second group.
    const next = [2, 3].map((n) => group.submit(n));
    await turn();
    expect(r.groups).toEqual([[1]]);
    // A third: the second group starts beside the first.
    next.push(group.submit(4));
    await turn();
    expect(r.groups).toEqual([[1], [2, 3, 4]]);
    // The two slots are taken: however many wait, they wait for one to end.
    const last = [5, 6, 7].map((n) => group.submit(n));
    await turn();
    expect(r.groups).toHaveLength(2);
    r.holdWrites(false);
    r.release();
    expect(await Promise.all([first, ...next, ...last])).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(r.groups).toEqual([[1], [2, 3, 4], [5, 6, 7]]);
  });

  it('writes each item alone when the database refused the data of the group; only the item at fault fails', async () => {
    const r = recorder((items) => (items.includes(2) ? dbError('23503') : undefined));
    const group = new GroupCommit(r.write, { maxItems: 10, maxInFlight: 1, minItemsWhileBusy: 10 });
    const results = await Promise.allSettled([1, 2, 3].map((n) => group.submit(n)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 2 },
      { status: 'rejected', reason: expect.objectContaining({ code: '23503' }) },
      { status: 'fulfilled', value: 6 },
    ]);
    expect(r.groups).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('fails every item, without writing again, when the failure is not the data (the statement may have committed)', async () => {
    for (const error of [dbError('08006'), dbError('57P01'), new Error('Connection terminated unexpectedly')]) {
      const r = recorder(() => error);
      const group = new GroupCommit(r.write, { maxItems: 10, maxInFlight: 1, minItemsWhileBusy: 10 });
      const results = await Promise.allSettled([1, 2].map((n) => group.submit(n)));
      expect(results).toEqual([
        { status: 'rejected', reason: error },
        { status: 'rejected', reason: error },
      ]);
      expect(r.groups).toEqual([[1, 2]]);
    }
  });

  it('fails the group when the write answers a result count other than its items', async () => {
    const group = new GroupCommit(async (items: number[]) => items.slice(1), { maxItems: 10, maxInFlight: 1, minItemsWhileBusy: 10 });
    const results = await Promise.allSettled([1, 2].map((n) => group.submit(n)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
