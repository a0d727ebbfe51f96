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

