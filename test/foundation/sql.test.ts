// SQL helpers that build what the database reads by hand (COPY text), checked against the database that reads it.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyArray, copyInto, copyValue, CopyWriter } from '../../src/db/copy.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import { freshDatabase } from '../helpers/database.ts';

let database: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

describe('copyInto', () => {
  it('writes every row exactly, escapes included, in the caller transaction', async () => {
    await sql`create table copy_probe (n int, t text, d numeric)`.execute(database.db);
    const texts = ['plain', 'tab\there', 'line\nbreak', 'back\\slash', 'cr\rhere', '\\N', 'ñandú 🍋', ''];
    const chunks = [texts.slice(0, 4), texts.slice(4)].map((part, c) => part.map((t, i) => `${c * 4 + i}\t${copyValue(t)}\t${copyValue(i % 2 ? null : 1.25 * i)}\n`).join(''));
    const written = await inTransaction(database.db, (trx) => copyInto(trx, 'copy_probe', ['n', 't', 'd'], chunks));
    expect(written).toBe(texts.length);
    const { rows } = await sql<{ n: number; t: string; d: string | null }>`select n, t, d from copy_probe order by n`.execute(database.db);
    expect(rows.map((r) => r.t)).toEqual(texts);
    expect(rows.map((r) => (r.d === null ? null : Number(r.d)))).toEqual([0, null, 2.5, null, 0, null, 2.5, null]);
  });

  it('writes the same rows from CopyWriter bytes: short, long, escaped and non-ASCII text alike', async () => {
    await sql`create table copy_writer_probe (n int, t text, d numeric)`.execute(database.db);
    // Short plain text is copied byte by byte; a character to escape or beyond ASCII, or a text over 256 characters, takes the encoder.
    const texts = ['plain', 'tab\there', 'line\nbreak', 'back\\slash', 'cr\rhere', '\\N', 'ñandú 🍋', '', 'Q"uote', 'x'.repeat(300), `${'y'.repeat(300)}\t${'z'.repeat(5)}`, null];
    const rows = new CopyWriter();
    texts.forEach((t, i) => rows.value(i).tab().value(t).tab().value(i % 3 ? 1.25 * i : null).newline());
    const written = await inTransaction(database.db, (trx) => copyInto(trx, 'copy_writer_probe', ['n', 't', 'd'], [rows.toBytes()]));
    expect(written).toBe(texts.length);
    const read = await sql<{ t: string | null; d: string | null }>`select t, d from copy_writer_probe order by n`.execute(database.db);
    expect(read.rows.map((r) => r.t)).toEqual(texts);
    expect(read.rows.map((r) => (r.d === null ? null : Number(r.d)))).toEqual(texts.map((_, i) => (i % 3 ? 1.25 * i : null)));
  });

  it('rolls back with its transaction: nothing of a failed transaction stays', async () => {
    await sql`create table copy_rollback (n int primary key)`.execute(database.db);
    await expect(
      inTransaction(database.db, async (trx) => {
        await copyInto(trx, 'copy_rollback', ['n'], ['1\n2\n']);
        await sql`select 1 / 0`.execute(trx);
      }),
    ).rejects.toThrow();
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from copy_rollback`.execute(database.db);
    expect(rows[0]!.n).toBe(0);
  });

  it('a row the table refuses fails the COPY with the database error', async () => {
    await expect(inTransaction(database.db, (trx) => copyInto(trx, 'copy_rollback', ['n'], ['1\n1\n']))).rejects.toThrow(/duplicate key/);
  });
});

describe('copyArray', () => {
  it('writes arrays whose every element reads back exactly: quoting, escapes, NULL and numbers', async () => {
    await sql`create table copy_arrays (n int, t text[], d numeric[])`.execute(database.db);
    const texts = ['plain', 'Q"uote', 'back\\slash', '{brace}', 'com,ma', ' spaced ', 'NULL', '', 'tab\there', 'line\nbreak', 'cr\rhere', '\\N', 'ñandú 🍋', null];
    // Integers up to 2^31 - 1 are written digit by digit, the rest as JavaScript prints them.
    const numbers = [0, 7, 10, 99, 100, 2147483647, 2147483648, -3, 1.25, 0.0001, 1234.5678, 999999999.9999, 1e21, null];
    const line = (n: number, t: (string | null)[], d: (number | null)[]) => `${n}\t${copyArray(t)}\t${copyArray(d)}\n`;
    await inTransaction(database.db, (trx) => copyInto(trx, 'copy_arrays', ['n', 't', 'd'], [line(1, texts, numbers), line(2, [], [])]));
    const { rows } = await sql<{ n: number; t: (string | null)[]; d: (string | null)[] }>`select n, t, d from copy_arrays order by n`.execute(database.db);
    expect(rows.map((r) => [r.n, r.t, r.d.map((x) => (x === null ? null : Number(x)))])).toEqual([
      [1, texts, numbers],
      [2, [], []],
    ]);
  });
});
