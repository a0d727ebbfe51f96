// Reads an import file as a stream of rows, never whole: CSV through csv-parse, JSON Lines
// through node:readline. Memory follows the batches in flight, not the file's size. The CLI
// reads a file (openSource); the service reads an uploaded body (readSource), the same way.
import fs from 'node:fs';
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { CsvMapper } from './csv-mapping.ts';
import { unprotectCell } from './failures.ts';
import { UsageError } from './settings.ts';
import type { ImportKind, NodeRule } from './kinds.ts';
import { FileError, jsonLineRow, type Format, type SourceRow } from './rows.ts';

export function formatOf(file: string, given: string | undefined): Format {
  if (given === 'csv' || given === 'jsonl') return given;
  if (given !== undefined) throw new UsageError(`--format must be csv or jsonl, got ${given}`);
  if (/\.csv$/i.test(file)) return 'csv';
  if (/\.(jsonl|ndjson)$/i.test(file)) return 'jsonl';
  throw new UsageError(`cannot tell the format of ${file} from its name: pass --format csv or --format jsonl`);
}

export interface Source {
  /** The CSV header, as read (the failed-rows file repeats it). */
  header: string[] | undefined;
  rows: AsyncIterable<SourceRow>;
}

export async function openSource(file: string, format: Format, kind: ImportKind, rule: NodeRule, delimiter = ','): Promise<Source> {
  await fs.promises.access(file, fs.constants.R_OK).catch(() => {
    throw new UsageError(`cannot read ${file}`);
  });
  return readSource(fs.createReadStream(file, format === 'jsonl' ? 'utf8' : undefined), format, kind, rule, delimiter, file);
}

/**
 * The rows of a file's content (bytes or text; JSON Lines as text); `name` is what problems
 * call it. A CSV whose header does not fit the kind throws FileError at once.
 */
export async function readSource(input: Readable, format: Format, kind: ImportKind, rule: NodeRule, delimiter = ',', name = 'the file'): Promise<Source> {
  return format === 'csv' ? readCsv(input, kind, rule, delimiter, name) : { header: undefined, rows: jsonLines(input, kind, rule) };
}

async function readCsv(input: Readable, kind: ImportKind, rule: NodeRule, delimiter: string, name: string): Promise<Source> {
  const parser = input.pipe(
    parse({ bom: true, delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, skip_records_with_empty_values: true, info: true }),
  );
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<{ record: string[]; info: { lines: number } }>;
  const first = await records.next();
  if (first.done) throw new FileError(`${name} is empty: a CSV file starts with a header row`, undefined, 'REQUIRED');
  // Every cell, the header's too, read back from a failed-rows file's spreadsheet protection (failures.ts).
  const header = first.value.record.map((name) => unprotectCell(name).trim());
  let mapper: CsvMapper;
  try {
    mapper = new CsvMapper(kind, rule, header);
  } catch (error) {
    parser.destroy();
    input.destroy();
    throw error;
  }
  async function* rows(): AsyncGenerator<SourceRow> {
    try {
      for (let next = await records.next(); !next.done; next = await records.next()) yield mapper.row(next.value.info.lines, next.value.record.map(unprotectCell));
    } finally {
      parser.destroy();
      input.destroy();
    }
  }
  return { header, rows: rows() };
}

async function* jsonLines(input: Readable, kind: ImportKind, rule: NodeRule): AsyncGenerator<SourceRow> {
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const text of lines) {
      line++;
      if (text.trim() === '') continue;
      yield jsonLineRow(kind, rule, line, line === 1 ? text.replace(/^\uFEFF/, '') : text);
    }
  } finally {
    lines.close();
    input.destroy();
  }
}
