// The failed-rows file: every row that was not applied, as it was in the input, plus why:
// `_line`, `_error_code`, `_error_field`, `_error_message` (CSV columns, or fields of each
// JSON line). Meta names start with `_`, which the importer ignores, so the file can be
// fixed and imported again as it is. The CLI writes it fresh on each run (a stale one from
// an earlier run is removed), and only when something failed; the service answers the
// same file for an import (`GET /import/{id}/failures/file`): both through FailedRowFormat.
import fs from 'node:fs';
import { once } from 'node:events';
import { isMeta, type Format, type RowError } from './rows.ts';

const META = ['_line', '_error_code', '_error_field', '_error_message'];

/**
 * Spreadsheets run a cell that starts with = + - @ tab or carriage return as a formula
 * (CSV injection); OWASP's advice is a leading `'`, which they read as "this is text".
 * The failed-rows CSV is opened in spreadsheets, so every cell it writes goes through
 * protectCell, and every CSV cell read (CLI and service alike, since a fixed failed-rows
 * file is just a CSV) through unprotectCell. The rule is one-to-one, so reading back
 * gives exactly what was written out:
 * - write: a cell that starts with any number of `'` and then one of those characters
 *   gets one more `'` in front (`=1+1` -> `'=1+1`, `'=x` -> `''=x`); a plain decimal
 *   number (`-5`, `+3.5`, `-1e3`) is left as it is: no spreadsheet runs it, and it stays
 *   a number there;
 * - read: a cell that starts with one or more `'` and then one of those characters loses
 *   its first `'`; any other cell (`'abc`, `'`, `-5`) is read as it is.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const QUOTED_FORMULA_START = /^'+[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A cell as the failed-rows CSV writes it: safe to open in a spreadsheet (see above). */
export const protectCell = (value: string): string => (FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value);

/** A CSV cell as read: the one `'` protectCell adds taken off again (see above). */
export const unprotectCell = (cell: string): string => (cell.charCodeAt(0) === 0x27 && QUOTED_FORMULA_START.test(cell) ? cell.slice(1) : cell);

/** What the file needs of a row: its line and its content as read (SourceRow's). */
export interface FailedRow {
  line: number;
  original: unknown;
}

/** The failed-rows file's text, a line at a time: the header line (CSV), then one line per failed row. */
export class FailedRowFormat {
  private readonly keep: number[];

  constructor(
    private readonly format: Format,
    private readonly header: string[] | undefined,
    private readonly delimiter = ',',
  ) {
    this.keep = (header ?? []).flatMap((name, i) => (isMeta(name) ? [] : [i]));
  }

  /** The CSV header line (the original columns, `_` ones left out, then the meta columns); none for JSON Lines. */
  headerLine(): string | undefined {
    return this.format === 'csv' ? this.fileLine([...this.keep.map((i) => this.header![i]!), ...META]) : undefined;
  }

  /** A failed row's line; `row` is unknown when a failed item could not be traced to one (`item` is then written instead). */
  line(row: FailedRow | undefined, error: RowError, item?: unknown): string {
    const meta = [row ? String(row.line) : '', error.code, error.field ?? '', error.message];
    return this.format === 'csv' ? this.fileLine([...this.cells(row, item), ...meta]) : this.jsonLine(row, item, meta);
  }

  /** The row's original columns as the file writes them (CSV; `_` columns left out). */
  cells(row: FailedRow | undefined, item?: unknown): string[] {
    if (row && Array.isArray(row.original)) {
      const cells = row.original as string[];
      return this.keep.map((i) => cells[i] ?? '');
    }
    // Not traceable to a row: the item as the service reported it, in the first column.
    return this.keep.map((_, n) => (n === 0 && item !== undefined ? JSON.stringify(item) : ''));
  }

  private jsonLine(row: FailedRow | undefined, item: unknown, meta: string[]): string {
    const value = row ? row.original : item;
    const fields = Object.fromEntries(META.map((name, i) => [name, name === '_line' ? (row ? row.line : null) : meta[i] || null]));
    const base =
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).filter(([name]) => !isMeta(name)))
        : { _raw: value ?? null };
    return JSON.stringify({ ...base, ...fields }) + '\n';
  }

  /** Cells as a line of the file: each protected from spreadsheets (protectCell), then as csvLine writes them. */
  private fileLine(cells: string[]): string {
    return this.csvLine(cells.map(protectCell));
  }

  /** Cells as one CSV line, as they are: quoted where a cell holds a quote, the delimiter, a line break or edge spaces. */
  csvLine(cells: string[]): string {
    return cells.map((c) => (/[",\r\n]|^\s|\s$/.test(c) || c.includes(this.delimiter) ? `"${c.replaceAll('"', '""')}"` : c)).join(this.delimiter) + '\n';
  }
}

export class FailedRows {
  count = 0;
  private out: fs.WriteStream | undefined;
  private readonly text: FailedRowFormat;

  constructor(
    readonly path: string,
    format: Format,
    header: string[] | undefined,
    delimiter = ',',
  ) {
    fs.rmSync(path, { force: true });
    this.text = new FailedRowFormat(format, header, delimiter);
  }

  /** Records a row that failed; `row` is unknown when a failed item could not be traced to one. */
  async add(row: FailedRow | undefined, error: RowError, item?: unknown): Promise<void> {
    this.count++;
    if (!this.out) {
      this.out = fs.createWriteStream(this.path, 'utf8');
      const header = this.text.headerLine();
      if (header !== undefined) await this.write(header);
    }
    await this.write(this.text.line(row, error, item));
  }

  async close(): Promise<string | undefined> {
    if (!this.out) return undefined;
    this.out.end();
    await once(this.out, 'finish');
    return this.path;
  }

  private async write(text: string): Promise<void> {
    if (!this.out!.write(text)) await once(this.out!, 'drain');
  }
}
