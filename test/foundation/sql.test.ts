// SQL helpers that build parameters by hand, checked against the database that reads them.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textArray } from '../../src/db/sql.ts';
import { freshDatabase } from '../helpers/database.ts';

let database: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

describe('textArray', () => {
  it('reads back as exactly the texts it was given, whatever they hold', async () => {
    const values = ['', 'plain', 'NULL', 'null', 'a,b', '{braces}', ' spaced ', 'quote"inside', 'back\\slash', '\\"both\\"', "it's", 'ñandú 🍋', 'tab\there', 'line\nbreak'];
    const { rows } = await sql<{ a: string[] }>`select ${textArray(values)}::text[] as a`.execute(database.db);
    expect(rows[0]!.a).toEqual(values);
  });

  it('an empty list is an empty array', async () => {
    const { rows } = await sql<{ n: number }>`select cardinality(${textArray([])}::text[]) as n`.execute(database.db);
    expect(rows[0]!.n).toBe(0);
  });
});
