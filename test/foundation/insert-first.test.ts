// insertElseUpsert and NewRowsGuess (src/db/insert-first.ts) against the database itself:
// the plain insert runs first only when asked, its partial work is undone when a row
// exists, the upsert then runs in the same transaction, and other errors are the caller's.
import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertElseUpsert, NewRowsGuess } from '../../src/db/insert-first.ts';
import type { DB } from '../../src/db/types.ts';
import { freshDatabase } from '../helpers/database.ts';

let database: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  database = await freshDatabase();
  await sql`create table insert_first_probe (k text primary key, v int not null check (v >= 0))`.execute(database.db);
});
afterAll(() => database.close());

const rows = async () => (await sql<{ k: string; v: number }>`select k, v from insert_first_probe order by k`.execute(database.db)).rows.map((r) => [r.k, r.v]);

/** Writes (k, v) pairs with either statement, recording which ran. */
function writer(trx: Transaction<DB>, pairs: [string, number][], ran: string[]) {
  const values = sql.join(pairs.map(([k, v]) => sql`(${k}, ${v}::int)`));
  return {
    insert: async () => {
      ran.push('insert');
      await sql`insert into insert_first_probe (k, v) values ${values}`.execute(trx);
      return { allNew: true };
    },
    upsert: async () => {
      ran.push('upsert');
      const { rows } = await sql<{ existing: number }>`
        with w as (insert into insert_first_probe (k, v) values ${values} on conflict (k) do update set v = excluded.v returning xmax = 0 as inserted)
        select count(*) filter (where not inserted)::int as existing from w`.execute(trx);
      return { allNew: rows[0]!.existing === 0 };
    },
  };
}

const write = (pairs: [string, number][], expectNew: boolean, ran: string[] = []) =>
  database.db.transaction().execute(async (trx) => {
    const w = writer(trx, pairs, ran);
    const written = await insertElseUpsert(trx, 'probe_insert', expectNew, (upsert) => (upsert ? w.upsert() : w.insert()));
    // The transaction is usable after either path: the savepoint was released or rolled back to.
    await sql`select 1`.execute(trx);
    return written;
  });

describe('insertElseUpsert', () => {
  it('all new and expected new: the plain insert alone', async () => {
    const ran: string[] = [];
    expect(await write([['a', 1], ['b', 2]], true, ran)).toEqual({ allNew: true });
    expect(ran).toEqual(['insert']);
    expect(await rows()).toEqual([['a', 1], ['b', 2]]);
  });

  it('a row that exists, after new ones: the insert is undone and the upsert writes each row once', async () => {
    const ran: string[] = [];
    expect(await write([['c', 3], ['d', 4], ['a', 10]], true, ran)).toEqual({ allNew: false });
    expect(ran).toEqual(['insert', 'upsert']);
    expect(await rows()).toEqual([['a', 10], ['b', 2], ['c', 3], ['d', 4]]);
  });

  it('not expected new: the upsert alone, which tells whether every row was new', async () => {
    const ran: string[] = [];
    expect(await write([['e', 5]], false, ran)).toEqual({ allNew: true });
    expect(await write([['e', 50], ['f', 6]], false, ran)).toEqual({ allNew: false });
    expect(ran).toEqual(['upsert', 'upsert']);
    expect(await rows()).toEqual([['a', 10], ['b', 2], ['c', 3], ['d', 4], ['e', 50], ['f', 6]]);
  });

  it('any other error is the caller\'s: no upsert, and nothing of the transaction stays', async () => {
    const ran: string[] = [];
    await expect(write([['g', 7], ['h', -1]], true, ran)).rejects.toMatchObject({ code: '23514' });
    expect(ran).toEqual(['insert']);
    expect(await rows()).toEqual([['a', 10], ['b', 2], ['c', 3], ['d', 4], ['e', 50], ['f', 6]]);
  });
});

describe('NewRowsGuess', () => {
  it('guesses new for a supplier it has not seen, then what that supplier\'s last write was', () => {
    const guess = new NewRowsGuess();
    expect(guess.expectNew(1)).toBe(true);
    guess.saw(1, { allNew: false });
    expect([guess.expectNew(1), guess.expectNew(2)]).toEqual([false, true]);
    guess.saw(1, { allNew: true });
    expect(guess.expectNew(1)).toBe(true);
  });
});
