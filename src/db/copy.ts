// COPY ... FROM STDIN through Kysely, in the caller's transaction, on both databases.
//
// Kysely hands a driver a statement's text and its parameters and nothing else, so a COPY
// travels as an ordinary query whose one parameter is a `CopyData`: the driver's client
// (database.ts) recognises it and streams the rows with pg-copy-streams on PostgreSQL, or
// as PGlite's `/dev/blob` on PGlite. Everything else passes through untouched. The rows
// are COPY's text format: one line per row, columns separated by tabs, `\N` for null,
// and backslash, tab, newline and carriage return escaped (CopyWriter).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from './types.ts';

/**
 * The rows of one COPY, as the text lines PostgreSQL reads (each ending with "\n"), in
 * chunks of whole lines, as strings or as their UTF-8 bytes (CopyWriter). The chunks may be
 * made lazily (a generator): on PostgreSQL each is made as the one before is sent, so
 * building the rows overlaps PostgreSQL reading them.
 */
export class CopyData {
  constructor(readonly chunks: Iterable<CopyChunk>) {}
}

export type CopyChunk = string | Uint8Array<ArrayBuffer>;

/** What a driver answers for a COPY: one row holding the number of rows written. */
export interface CopyResult {
  rows: number;
}

/** The statement text a driver receives for copyInto: `copy <table> (<columns>) from stdin $1`. */
export const COPY_FROM_STDIN = /^copy\s[\s\S]*\sfrom\s+stdin\s+\$1\s*$/i;

/** The statement without its placeholder, as PostgreSQL must read it. */
export const copyStatement = (text: string) => text.replace(/\s+\$1\s*$/, '');

type CopyElement = string | number | boolean | null | undefined;

/**
 * COPY's text format written straight into UTF-8 bytes, value by value: no intermediate
 * string is built, so rows made by the million cost their bytes and little else (a
 * 50,000-item request's staging rows are 0.7 MB; made by concatenating strings they
 * allocated 23 MB of short-lived text, each copied again by the next escape check).
 *
 * The format: one line per row, columns separated by tabs, `\N` for null, numbers as
 * JavaScript prints them, text with backslash, tab, newline and carriage return escaped.
 * An array is the literal PostgreSQL reads (`{"a","b\"c",NULL,1.5}`) escaped as any COPY
 * value: strings always quoted, with `"` and backslash escaped inside the quotes, so no
 * element is ever read as NULL, trimmed or split, whatever it holds; numbers and
 * booleans as they print; null and undefined as NULL. Codes almost never hold a character
 * to escape, so each is looked at once and written as it is.
 */
export class CopyWriter {
  private bytes: Buffer<ArrayBuffer>;
  private length = 0;

  /** `capacity`: the bytes expected (it grows as needed). */
  constructor(capacity = 256) {
    this.bytes = Buffer.allocUnsafe(Math.max(64, capacity));
  }

  /** The separator before a row's next column. */
  tab(): this {
    return this.byte(TAB);
  }

  /** The end of a row. */
  newline(): this {
    return this.byte(NEWLINE);
  }

  /** One column's value. */
  value(value: string | number | null | undefined): this {
    if (value === null || value === undefined) return this.ascii('\\N');
    return typeof value === 'number' ? this.number(value) : this.text(value, false);
  }

  /** One column's value that is a one-dimensional array. */
  array(values: readonly CopyElement[]): this {
    this.byte(OPEN);
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (i > 0) this.byte(COMMA);
      if (value === null || value === undefined) this.ascii('NULL');
      else if (typeof value === 'number') this.number(value);
      else if (typeof value === 'boolean') this.ascii(value ? 'true' : 'false');
      else this.byte(QUOTE).text(value, true).byte(QUOTE);
    }
    return this.byte(CLOSE);
  }

  /** The bytes written so far (a view of the writer's own buffer: write nothing after). */
  toBytes(): Buffer<ArrayBuffer> {
    return this.bytes.subarray(0, this.length);
  }

  toString(): string {
    return this.bytes.toString('utf8', 0, this.length);
  }

  /**
   * Text, escaped as a value or as an array element. A short text of ASCII characters that
   * need no escape (nearly every code, name and URL) is copied byte by byte in one pass that
   * also looks for them; anything else is escaped as a string and encoded by Buffer.
   */
  private text(text: string, element: boolean): this {
    const n = text.length;
    if (n <= SHORT_TEXT) {
      this.room(n);
      const bytes = this.bytes;
      let at = this.length;
      let plain = true;
      for (let i = 0; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c >= 0x80 || c === 0x5c || c === 0x09 || c === 0x0a || c === 0x0d || (element && c === 0x22)) {
          plain = false;
          break;
        }
        bytes[at++] = c;
      }
      // Bytes written past `length` are not yet part of the rows: the escaped text writes over them.
      if (plain) {
        this.length = at;
        return this;
      }
    }
    return this.utf8(element ? (ELEMENT_NEEDS_ESCAPE.test(text) ? text.replace(ELEMENT_ESCAPED, (c) => ELEMENT_ESCAPES[c]!) : text) : copyValue(text));
  }

  private number(value: number): this {
    // Small non-negative integers (places, package sizes) digit by digit; the rest as JavaScript prints them.
    if (!Number.isInteger(value) || value < 0 || value > 0x7fffffff) return this.ascii(String(value));
    let digits = 1;
    for (let rest = value; rest >= 10; rest = (rest / 10) | 0) digits++;
    this.room(digits);
    const bytes = this.bytes;
    for (let at = this.length + digits - 1, rest = value; at >= this.length; at--) {
      const next = (rest / 10) | 0;
      bytes[at] = 48 + rest - next * 10;
      rest = next;
    }
    this.length += digits;
    return this;
  }

  private byte(byte: number): this {
    this.room(1);
    this.bytes[this.length++] = byte;
    return this;
  }

  private ascii(text: string): this {
    this.room(text.length);
    this.length += this.bytes.write(text, this.length, 'latin1');
    return this;
  }

  private utf8(text: string): this {
    this.room(text.length * 3); // a UTF-16 unit is at most three bytes of UTF-8
    this.length += this.bytes.write(text, this.length, 'utf8');
    return this;
  }

  private room(bytes: number): void {
    if (this.length + bytes <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + bytes));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }
}
const [TAB, NEWLINE, OPEN, CLOSE, COMMA, QUOTE] = [9, 10, 123, 125, 44, 34];
/** Up to this length, text is copied in JavaScript (cheaper than a call into Buffer's encoder). */
const SHORT_TEXT = 256;
const VALUE_NEEDS_ESCAPE = /[\\\t\n\r]/;
const VALUE_ESCAPED = /[\\\t\n\r]/g;
const VALUE_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
// Inside an array's quotes `"` and backslash take a backslash, which COPY then doubles;
// tab, newline and carriage return need only COPY's escape.
const ELEMENT_NEEDS_ESCAPE = /["\\\t\n\r]/;
const ELEMENT_ESCAPED = /["\\\t\n\r]/g;
const ELEMENT_ESCAPES: Record<string, string> = { '"': '\\\\"', '\\': '\\\\\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One COPY value as text: what CopyWriter's `value` writes, as a string. */
export function copyValue(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return String(value);
  return VALUE_NEEDS_ESCAPE.test(value) ? value.replace(VALUE_ESCAPED, (c) => VALUE_ESCAPES[c]!) : value;
}

/** One COPY array value as text (CopyWriter's `array`). */
export const copyArray = (values: readonly CopyElement[]): string => new CopyWriter().array(values).toString();

/**
 * Writes rows into `table` with COPY, in `db`'s transaction when it is one: the rows
 * commit or roll back with it. `chunks` are whole lines of COPY text, possibly made
 * lazily (CopyData). Returns the rows written, as PostgreSQL counts them.
 */
export async function copyInto(db: Kysely<DB> | Transaction<DB>, table: string, columns: readonly string[], chunks: Iterable<CopyChunk>): Promise<number> {
  const result = await sql<CopyResult>`copy ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) from stdin ${new CopyData(chunks)}`.execute(db);
  return result.rows[0]!.rows;
}
