import { CompiledQuery, sql, type Compilable, type Kysely, type Transaction } from 'kysely';
import type { DB } from './types.ts';

/**
 * `column = any($1::text[])`: one parameter for any number of codes. A long IN list
 * makes a parameter per code, which costs more to send and to plan.
 */
export const textIn = (column: string, values: readonly string[]) => sql<boolean>`${sql.ref(column)} = any(${values}::text[])`;

/**
 * Orders by a code's bytes (collate "C"), case-sensitive as codes are, so the order is the
 * same on every database whatever its locale (PGlite is C; a PostgreSQL created with
 * en_US would otherwise put "a" before "B").
 */
export const byCode = (column: string) => sql`${sql.ref(column)} collate "C"`;

/** `column = any($1::bigint[])`: one parameter for any number of ids. */
export const idIn = (column: string, ids: readonly number[]) => sql<boolean>`${sql.ref(column)} = any(${ids}::bigint[])`;

/**
 * A query whose SQL text is built and compiled once, on first use; each call only binds
 * its arguments. Kysely builds and compiles a query's tree on every call (tens of µs for
 * one with subqueries), which on the hottest reads costs as much as the rest of the
 * request in Node. `build` is called once with `sentinels`, values distinct from each
 * other that stand for the arguments; each parameter of the compiled query must be one
 * of them (it throws at first use otherwise), so the arguments land in the same places.
 */
export function compiledOnce<A extends readonly unknown[], O>(build: (db: Kysely<DB>, ...args: A) => Compilable<O>, sentinels: A) {
  let compiled: { sql: string; positions: number[] } | undefined;
  return async (db: Kysely<DB> | Transaction<DB>, ...args: A): Promise<O[]> => {
    if (!compiled) {
      const query = build(db as Kysely<DB>, ...sentinels).compile();
      const positions = query.parameters.map((value) => {
        const at = sentinels.indexOf(value);
        if (at < 0) throw new Error(`compiledOnce: parameter ${String(value)} is not one of the sentinels`);
        return at;
      });
      compiled = { sql: query.sql, positions };
    }
    const bound = compiled.positions.map((at) => args[at]);
    return (await db.executeQuery<O>(CompiledQuery.raw(compiled.sql, bound))).rows;
  };
}

/**
 * `(a ilike $1 or b ilike $1)`: whether any of the columns contains the search text,
 * case-insensitively, the text taken literally (`%`, `_` and `\` escaped). The `search`
 * of every console list (codes or names); a scan of the supplier's rows, which stays fast
 * for tens of thousands of them (docs/decisions.md).
 */
export function containsText(columns: readonly string[], search: string) {
  const like = `%${search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
  return sql<boolean>`(${sql.join(
    columns.map((c) => sql`${sql.ref(c)} ilike ${like}`),
    sql` or `,
  )})`;
}
