import { CompiledQuery, sql, type Compilable, type Expression, type Kysely, type RawBuilder, type Transaction } from 'kysely';
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

/**
 * `left join lateral (...) as alias on true`: the supplier's row of `table` whose
 * internal_code is `code` (an expression of the rows joined so far), or nulls. Bulk writes
 * resolve a chunk's codes with it: one probe of the table's unique (supplier_id,
 * internal_code) index per input row, so a chunk costs what it names. A plain join leaves
 * the choice to the planner, which on a table not analyzed since a supplier's first large
 * load believes the supplier has a handful of rows and reads all of them per chunk (a
 * hash join) or per row (migration 0025); a subquery with LIMIT is never flattened into
 * such a join.
 */
export const rowByCode = (table: string, alias: string, supplierId: number, code: Expression<string>) =>
  sql`left join lateral (select * from ${sql.table(table)} where supplier_id = ${supplierId} and internal_code = ${code} limit 1) as ${sql.raw(alias)} on true`;

/**
 * `left join (... where false) as alias on true`: `rowByCode`'s stand-in when every code is
 * known to be new. Every `alias.*` is null, as `rowByCode` gives a code that names no row,
 * so one SELECT written against `alias` serves both forms; the planner reads no table for
 * it (a one-time filter).
 */
export const noRow = (table: string, alias: string) => sql`left join (select * from ${sql.table(table)} where false) as ${sql.raw(alias)} on true`;

/** The tables whose rows a supplier names by code, on a unique index led by (supplier_id, ..., internal_code). */
type CodeTable = 'brands' | 'categories' | 'delivery_zones' | 'groupers' | 'price_lists' | 'products';

/**
 * The id of the supplier's row of `table` named by `code` (null when none), as a scalar
 * subquery: one probe of the table's unique index whatever the planner estimates, never a
 * join it could turn into a scan of the supplier's rows. `filter`, on alias `t`, narrows
 * it where the code alone is not the key (a grouper's kind).
 */
export const idOf = (table: CodeTable, supplierId: number, code: RawBuilder<unknown>, filter: RawBuilder<unknown> = sql`true`) =>
  sql<number | null>`(select t.id from ${sql.table(table)} t where t.supplier_id = ${supplierId} and t.internal_code = ${code} and ${filter})`;

/**
 * The ids of the supplier's rows of `table` named by the codes of an array, in its order
 * (null for a code that names none): a staged chunk resolves each code it names once
 * (`idOf`).
 */
export const idsOf = (table: CodeTable, supplierId: number, codes: RawBuilder<unknown>, filter?: RawBuilder<unknown>) =>
  sql<number[]>`array(select ${idOf(table, supplierId, sql`u.code`, filter)} from unnest(${codes}) with ordinality as u(code, n) order by u.n)`;

/**
 * An element of a staged `json` array (`json_array_elements`, batch README "Staging") as
 * JSON text, SQL null where the item sent nothing (a JSON null).
 */
export const sentJson = (element: string) => sql<string | null>`nullif(${sql.ref(element)}::text, 'null')`;

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
