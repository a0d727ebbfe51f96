import { sql } from 'kysely';

/**
 * `column = any($1::text[])`: one parameter for any number of codes. A long IN list
 * makes a parameter per code, which costs more to send and to plan.
 */
export const textIn = (column: string, values: readonly string[]) => sql<boolean>`${sql.ref(column)} = any(${values}::text[])`;

/** `column = any($1::bigint[])`: one parameter for any number of ids. */
export const idIn = (column: string, ids: readonly number[]) => sql<boolean>`${sql.ref(column)} = any(${ids}::bigint[])`;
