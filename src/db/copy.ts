// COPY ... FROM STDIN through Kysely, in the caller's transaction, on both databases.
//
// Kysely hands a driver a statement's text and its parameters and nothing else, so a COPY
// travels as an ordinary query whose one parameter is a `CopyData`: the driver's client
// (database.ts) recognises it and streams the rows with pg-copy-streams on PostgreSQL, or
// as PGlite's `/dev/blob` on PGlite. Everything else passes through untouched. The rows
// are COPY's text format: one line per row, columns separated by tabs, `\N` for null,
// and backslash, tab, newline and carriage return escaped (copyValue).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from './types.ts';

/**
 * The rows of one COPY, as the text lines PostgreSQL reads (each ending with "\n"), in
 * chunks of whole lines. The chunks may be made lazily (a generator): on PostgreSQL each
 * is made as the one before is sent, so building the text overlaps PostgreSQL reading it.
 */
export class CopyData {
  constructor(readonly chunks: Iterable<string>) {}
}

/** What a driver answers for a COPY: one row holding the number of rows written. */
export interface CopyResult {
  rows: number;
}

/** The statement text a driver receives for copyInto: `copy <table> (<columns>) from stdin $1`. */
export const COPY_FROM_STDIN = /^copy\s[\s\S]*\sfrom\s+stdin\s+\$1\s*$/i;

/** The statement without its placeholder, as PostgreSQL must read it. */
export const copyStatement = (text: string) => text.replace(/\s+\$1\s*$/, '');

/**
 * COPY's text-format value: null as `\N`, numbers as they print, text with backslash, tab,
 * newline and carriage return escaped. Codes almost never hold one, so it looks once.
 */
export function copyValue(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return String(value);
  return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED, (c) => ESCAPES[c]!) : value;
}
const NEEDS_ESCAPE = /[\\\t\n\r]/;
const ESCAPED = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * COPY's text-format value of a one-dimensional array: the array literal PostgreSQL reads
 * (`{"a","b\\"c",NULL,1.5}`), escaped as any COPY value. Strings are always quoted, with `"`
 * and backslash escaped inside the quotes, so no element is ever read as NULL, trimmed or
 * split, whatever it holds; numbers and booleans print as they are (`true`, `false`); null
 * and undefined are NULL.
 */
export function copyArray(values: readonly (string | number | boolean | null | undefined)[]): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) literal += ',';
    if (value === null || value === undefined) literal += 'NULL';
    else if (typeof value === 'number' || typeof value === 'boolean') literal += String(value);
    else literal += `"${QUOTED.test(value) ? value.replace(QUOTED_ALL, '\\$&') : value}"`;
  }
  return copyValue(`${literal}}`);
}
const QUOTED = /["\\]/;
const QUOTED_ALL = /["\\]/g;

/**
 * Writes rows into `table` with COPY, in `db`'s transaction when it is one: the rows
 * commit or roll back with it. `chunks` are whole lines of COPY text, possibly made
 * lazily (CopyData). Returns the rows written, as PostgreSQL counts them.
 */
export async function copyInto(db: Kysely<DB> | Transaction<DB>, table: string, columns: readonly string[], chunks: Iterable<string>): Promise<number> {
  const result = await sql<CopyResult>`copy ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) from stdin ${new CopyData(chunks)}`.execute(db);
  return result.rows[0]!.rows;
}
