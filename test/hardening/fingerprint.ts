// A cheap fingerprint of everything the database holds: for each table of the public
// schema, its row count and a hash of its rows' text. Two equal fingerprints mean no row
// was inserted, changed or deleted in between (sequences aside: a rolled-back insert may
// use up an id, which writes nothing anyone can read).
import { sql, type Kysely } from 'kysely';

export type Fingerprint = Record<string, string>;

export async function publicTables(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(db);
  return rows.map((r) => r.name);
}

/** One statement for every table (a UNION ALL), so it stays cheap enough to run around every request. */
export async function fingerprint(db: Kysely<any>, tables: string[]): Promise<Fingerprint> {
  const parts = tables.map(
    (name) => sql`select ${name}::text as name, count(*)::text || ':' || md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as hash from ${sql.table(name)} x`,
  );
  const { rows } = await sql<{ name: string; hash: string }>`${sql.join(parts, sql` union all `)}`.execute(db);
  return Object.fromEntries(rows.map((r) => [r.name, r.hash]));
}

/** The tables whose fingerprint differs, leaving out `ignored`. */
export function changedTables(before: Fingerprint, after: Fingerprint, ignored: readonly string[] = []): string[] {
  return Object.keys({ ...before, ...after }).filter((name) => !ignored.includes(name) && before[name] !== after[name]);
}


/**
 * From now on, counts the rows inserted, updated or deleted in each of `tables` (and their
 * truncations) by transactions that commit: triggers of the test's own, writing to a schema
 * of their own (`test_writes`). Answers a reader of the total, one tiny query: when it has
 * not moved, nothing was written in between, so a fingerprint is needed only when it has.
 * A rolled-back write rolls back its count with it.
 */
export async function countWrites(db: Kysely<any>, tables: string[]): Promise<() => Promise<number>> {
  await sql`create schema test_writes`.execute(db);
  await sql`create table test_writes.counts (name text primary key, n bigint not null)`.execute(db);
  await sql`
    create function test_writes.count() returns trigger language plpgsql as $$
    begin
      insert into test_writes.counts as c (name, n) values (tg_table_name, 1) on conflict (name) do update set n = c.n + 1;
      return null;
    end $$`.execute(db);
  for (const name of tables) {
    await sql`create trigger test_writes_rows after insert or update or delete on ${sql.table(name)} for each row execute function test_writes.count()`.execute(db);
    await sql`create trigger test_writes_truncate after truncate on ${sql.table(name)} for each statement execute function test_writes.count()`.execute(db);
  }
  return async () => (await sql<{ n: number }>`select coalesce(sum(n), 0)::int as n from test_writes.counts`.execute(db)).rows[0]!.n;
}
