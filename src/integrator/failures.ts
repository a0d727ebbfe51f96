// The failed-rows file: every row that was not applied, as it was in the input, plus why:
// `_line`, `_error_code`, `_error_field`, `_error_message` (CSV columns, or fields of each
// JSON line). Meta names start with `_`, which the importer ignores, so the file can be
// fixed and imported again as it is. Written fresh on each run (a stale one from an earlier
// run is removed), and only when something failed.
import fs from 'node:fs';
import { once } from 'node:events';
import type { Format } from './readers.ts';
import { isMeta, type RowError, type SourceRow } from './rows.ts';

const META = ['_line', '_error_code', '_error_field', '_error_message'];

export class FailedRows {
  count = 0;
  private out: fs.WriteStream | undefined;
  private readonly keep: number[];

  constructor(
    readonly path: string,
    private readonly format: Format,
    private readonly header: string[] | undefined,
    private readonly delimiter = ',',
  ) {
    fs.rmSync(path, { force: true });
    this.keep = (header ?? []).flatMap((name, i) => (isMeta(name) ? [] : [i]));
  }

  /** Records a row that failed; `row` is unknown when a failed item could not be traced to one. */
  async add(row: SourceRow | undefined, error: RowError, item?: unknown): Promise<void> {
    this.count++;
    const meta = [row ? String(row.line) : '', error.code, error.field ?? '', error.message];
    if (!this.out) {
      this.out = fs.createWriteStream(this.path, 'utf8');
      if (this.format === 'csv') await this.write(this.csvLine([...this.keep.map((i) => this.header![i]!), ...META]));
    }
    await this.write(this.format === 'csv' ? this.csvLine([...this.cells(row, item), ...meta]) : this.jsonLine(row, item, meta));
  }

  async close(): Promise<string | undefined> {
    if (!this.out) return undefined;
    this.out.end();
    await once(this.out, 'finish');
    return this.path;
  }

  private cells(row: SourceRow | undefined, item: unknown): string[] {
    if (row && Array.isArray(row.original)) {
      const cells = row.original as string[];
      return this.keep.map((i) => cells[i] ?? '');
    }
    // Not traceable to a row: the item as the service reported it, in the first column.
    return this.keep.map((_, n) => (n === 0 && item !== undefined ? JSON.stringify(item) : ''));
  }

  private jsonLine(row: SourceRow | undefined, item: unknown, meta: string[]): string {
    const value = row ? row.original : item;
    const fields = Object.fromEntries(META.map((name, i) => [name, name === '_line' ? (row ? row.line : null) : meta[i] || null]));
    const base =
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).filter(([name]) => !isMeta(name)))
        : { _raw: value ?? null };
    return JSON.stringify({ ...base, ...fields }) + '\n';
  }

  private csvLine(cells: string[]): string {
    return cells.map((c) => (/[",\r\n]|^\s|\s$/.test(c) || c.includes(this.delimiter) ? `"${c.replaceAll('"', '""')}"` : c)).join(this.delimiter) + '\n';
  }

  private async write(text: string): Promise<void> {
    if (!this.out!.write(text)) await once(this.out!, 'drain');
  }
}
