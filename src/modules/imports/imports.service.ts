// File imports (README.md): a supplier's CSV or JSON Lines file of any import kind, read by
// the service with the integrator CLI's own mapping (src/integrator: kinds, csv-mapping,
// readers, rows, failures), each item checked as its batch route checks it, the valid ones
// submitted as ordinary batches (submitBatch) in the same transaction as the import and
// its parts, so the 202 means durably stored. Every row's line and original content are
// kept in parts, so the failed rows can be listed and given back as a file to fix.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import { FailedRowFormat } from '../../integrator/failures.ts';
import { bodyFor, IMPORT_KINDS, ruleColumns, type ImportKind, type NodeColumns } from '../../integrator/kinds.ts';
import { readSource } from '../../integrator/readers.ts';
import { blameRows, combine, FileError, isMeta, type Format, type RowError, type SourceRow } from '../../integrator/rows.ts';
import { findUnstorable } from '../../lib/validation.ts';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import { page } from '../../lib/pagination.ts';
import type { BatchKind } from '../batch/batch.kinds.ts';
import { submitBatch, type BatchLimits } from '../batch/batch.service.ts';
import { validateBatchBody } from '../batch/batch.validate.ts';
import * as repo from './imports.repository.ts';
import { spreadsheetRows, type UploadedFile } from './imports.spreadsheet.ts';
import type { Words } from '../messages/messages.templates.ts';
import { reasonIn, type Language } from './imports.words.ts';

/** Rows per part: what one read of a failed row's original parses at most. */
export const PART_ROWS = 1000;

/**
 * Rows read between two turns of the event loop. Parsing and checking rows is all
 * synchronous work between the database's answers (a request's 50,000 rows), which would
 * keep every other request of the process, health checks too, waiting that long.
 */
const ROWS_PER_TURN = 1000;

/** Bytes of a refused row's text kept at most (README: a failures page stays small). */
export const REFUSED_ROW_BYTES = 1024;

/** File imports one supplier may have running at once in this process (README: "At once"). */
export const IMPORTS_AT_ONCE = 2;

export type { UploadedFile } from './imports.spreadsheet.ts';

export interface Upload {
  supplierId: number;
  kind: ImportKind;
  /** The declared batch kind of `kind.endpoint` (its body schema, its route's refinements). */
  batchKind: BatchKind;
  remove: boolean;
  format: Format;
  delimiter: string;
  fileName: string;
  file: UploadedFile;
  uploadedBy: { kind: 'person' | 'credential'; id: string };
}

interface Row {
  line: number;
  original: unknown;
}

interface ValidRow extends Row {
  item: unknown;
}

interface RefusedRow extends Row {
  problems: RowError[];
}

/** A file opened for reading: its header is read and checked; its rows are read as they are stored. */
export interface OpenedFile {
  header: string[] | undefined;
  rows: AsyncIterable<SourceRow>;
}

const fileProblem = (code: 'INVALID_VALUE' | 'REQUIRED' | 'INVALID_FORMAT', message: string) => fieldError(code, '', message);

/** A file's problem as the answer says it (400 naming the column or the line), or the error itself. */
function asFileProblem(error: unknown, fileName: string): unknown {
  if (error instanceof FileError) return fileProblem(error.code, error.message);
  // csv-parse's own refusals (a quote never closed...) name the line.
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && code.startsWith('CSV_')) return fileProblem('INVALID_FORMAT', `${fileName} is not valid CSV: ${(error as Error).message}`);
  return error;
}

/**
 * The file's bytes, a piece at a time as the parsers ask for them, each piece let go of
 * once handed over: rows are produced as they are read, and memory holds the part of the
 * file not read yet, not the file and its copies.
 */
function* drain(file: UploadedFile) {
  for (let chunk = file.chunks.shift(); chunk !== undefined; chunk = file.chunks.shift()) yield chunk;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Whether the file holds nothing but white space (and a byte-order mark); stops at the first byte that is not. */
function blank(file: UploadedFile): boolean {
  let first = true;
  for (const chunk of file.chunks) {
    let at = first && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
    first = false;
    for (; at < chunk.length; at++) if (!WHITESPACE.has(chunk[at]!)) return false;
  }
  return true;
}

/**
 * Opens the file with the integrator's readers: a CSV header that does not fit the kind
 * (an unknown column, no type column), an empty file or a remove the kind has not is a
 * 400 now, before anything is stored.
 */
export async function openImportFile(upload: Upload): Promise<OpenedFile> {
  const { kind } = upload;
  const rule = upload.remove ? kind.remove : kind.write;
  if (!rule) throw fieldError('INVALID_VALUE', '/query/remove', `${kind.name} has no remove; kinds with one: ${IMPORT_KINDS.filter((k) => k.remove).map((k) => k.name).join(', ')}`);
  if (blank(upload.file)) throw fileProblem('REQUIRED', `${upload.fileName} is empty`);
  // No cell or line could hold it (PostgreSQL stores no NUL in text): the whole file is refused, as any request body holding it is.
  if (upload.file.chunks.some((chunk) => chunk.includes(0))) throw fileProblem('INVALID_VALUE', `${upload.fileName} must not contain the NUL character`);
  try {
    const source = await readSource(Readable.from(drain(upload.file)), upload.format, kind, rule, upload.delimiter, upload.fileName);
    // A spreadsheet's words and decimal commas (imports.spreadsheet.ts), read from the same declared body.
    return source.header ? { header: source.header, rows: spreadsheetRows(kind, source.header, upload.delimiter, source.rows) } : source;
  } catch (error) {
    throw asFileProblem(error, upload.fileName);
  }
}

/**
 * The item's problems as its batch route would answer them (pointer, code, words), with
 * the field as a path in the item; none when the route would take it. The check
 * normalises the item as the route does (unknown fields dropped, defaults filled in).
 */
function checkItem(batchKind: BatchKind, node: string[], item: unknown): RowError[] {
  const problems = validateBatchBody(batchKind, bodyFor(node, [item]));
  if (problems.length === 0) return [];
  return blameRows(node, 1, problems).get(0) ?? problems.map((p) => ({ code: p.code, message: `${p.pointer || 'the item'} ${p.message}` }));
}

/**
 * A row's content as read cannot be stored (a JSON line with "\u0000" or a lone surrogate
 * in a string or a key, even in a `_` field the batch is not sent): the problem its batch
 * route answers for that value (INVALID_VALUE, the field, the same words); none otherwise.
 */
function unstorableProblems(original: unknown): RowError[] {
  const found = findUnstorable(original, '');
  if (found === null) return [];
  return [{ code: 'INVALID_VALUE', field: found.pointer.slice(1) || undefined, message: found.message }];
}

/** At most REFUSED_ROW_BYTES of the text, cut between characters, with … when cut. */
function cut(text: string): string {
  if (text.length * 3 <= REFUSED_ROW_BYTES || Buffer.byteLength(text) <= REFUSED_ROW_BYTES) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (bytes + size > REFUSED_ROW_BYTES) break;
    bytes += size;
    end += char.length;
  }
  return `${text.slice(0, end)}…`;
}

/** The row as one text: a CSV row's cells as their line, a JSON value as JSON (escapes and all), a line that was not JSON as it is. */
function rowText(original: unknown, delimiter: string): string {
  if (Array.isArray(original) && original.every((c) => typeof c === 'string')) return new FailedRowFormat('csv', undefined, delimiter).csvLine(original).replace(/\n$/, '');
  return typeof original === 'string' ? original : JSON.stringify(original) ?? '';
}

/** Text as it can be stored: a NUL or a lone surrogate (a key of the row named as the field) written as its JSON escape. */
const storable = (text: string) => text.replace(/\u0000|\p{Cs}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * What a refused row keeps: its content as read, unless that is longer than
 * REFUSED_ROW_BYTES as text or cannot be stored; then the first REFUSED_ROW_BYTES of its
 * text (JSON's escapes keep "\u0000" storable). Its problems' words are cut alike.
 */
function refusedRow(row: SourceRow, problems: RowError[], delimiter: string): RefusedRow {
  const text = rowText(row.original, delimiter);
  const keepsText = Buffer.byteLength(text) > REFUSED_ROW_BYTES || findUnstorable(row.original, '') !== null;
  return {
    line: row.line,
    original: keepsText ? cut(text) : row.original,
    problems: problems.map((p) => ({ ...p, ...(p.field === undefined ? {} : { field: storable(p.field) }), message: cut(storable(p.message)) })),
  };
}

/**
 * Reads the file's rows and stores the import, all in the caller's transaction (the
 * audited write's), so the answer means everything is stored: the import row; each row
 * that is not an item of the kind (a CSV row with the wrong number of cells, a line that
 * is not JSON, bad JSON in a cell) or that its batch route would refuse, refused at once
 * with its line and reasons, in parts; the valid items of each node, every
 * MAX_BATCH_REQUEST_ITEMS of them submitted through submitBatch (batches of BATCH_SIZE)
 * with their parts in one statement. The rows are read as they are stored: memory holds
 * one request's rows, whatever the file's size. A file that turns out unreadable (a CSV
 * quote never closed) or holds no rows is a 400, and the transaction stores nothing.
 */
export async function storeImport(db: Kysely<DB>, limits: BatchLimits, upload: Upload, file: OpenedFile, onAccepted: (endpoint: string, items: number) => void) {
  return inTransaction(db, async (trx) => {
    const id = randomUUID();
    await repo.insertImport(trx, {
      id,
      supplier_id: upload.supplierId,
      kind: upload.kind.name,
      remove: upload.remove,
      format: upload.format,
      file_name: upload.fileName,
      delimiter: upload.delimiter,
      header: file.header ? JSON.stringify(file.header) : null,
      uploaded_by_kind: upload.uploadedBy.kind,
      uploaded_by: upload.uploadedBy.id,
      rows_read: 0,
      refused: 0,
      sent: 0,
    });
    let part = 0;
    const partsOf = (rows: (Row & { problems?: RowError[] })[], batchId: string | null): repo.NewPart[] => {
      const parts: repo.NewPart[] = [];
      for (let start = 0; start < rows.length; start += PART_ROWS) {
        const slice = rows.slice(start, start + PART_ROWS);
        parts.push({
          part: part++,
          batchId,
          firstIdx: batchId ? start : 0,
          lines: slice.map((r) => r.line),
          originals: slice.map((r) => r.original),
          problems: batchId ? null : slice.map((r) => r.problems ?? []),
        });
      }
      return parts;
    };

    const counts = { rowsRead: 0, refused: 0, sent: 0 };
    const batchIds: string[] = [];
    let refused: RefusedRow[] = [];
    const pending = new Map<string, { node: string[]; rows: ValidRow[] }>();
    const flushRefused = async () => {
      await repo.insertParts(trx, id, partsOf(refused, null));
      refused = [];
    };
    const send = async (key: string) => {
      const { node, rows } = pending.get(key)!;
      pending.delete(key);
      const { batchId } = await submitBatch(trx, limits, upload.supplierId, upload.batchKind, bodyFor(node, rows.map((r) => r.item)), onAccepted);
      // submitBatch cuts the request's items, in order, into batches of batchSize.
      await repo.insertParts(trx, id, batchId.flatMap((bid, i) => partsOf(rows.slice(i * limits.batchSize, (i + 1) * limits.batchSize), bid)));
      batchIds.push(...batchId);
      counts.sent += rows.length;
    };

    try {
      for await (const row of file.rows) {
        if (++counts.rowsRead % ROWS_PER_TURN === 0) await nextTurn();
        let problems = row.error || !row.node ? [row.error ?? { code: 'INVALID_ROW', message: 'not an item' }] : checkItem(upload.batchKind, row.node, row.item);
        // The item is fine, but the row as read (kept to give it back) holds what no column can
        // store. Only JSON's escapes can write it: a CSV's cells come from bytes with no NUL, as UTF-8.
        if (problems.length === 0 && upload.format === 'jsonl') problems = unstorableProblems(row.original);
        if (problems.length > 0) {
          counts.refused++;
          refused.push(refusedRow(row, problems, upload.delimiter));
          if (refused.length >= limits.maxRequestItems) await flushRefused();
          continue;
        }
        const key = row.node!.join('.');
        if (!pending.has(key)) pending.set(key, { node: row.node!, rows: [] });
        const rows = pending.get(key)!.rows;
        rows.push({ line: row.line, original: row.original, item: row.item });
        if (rows.length >= limits.maxRequestItems) await send(key);
      }
    } catch (error) {
      throw asFileProblem(error, upload.fileName);
    }
    if (counts.rowsRead === 0) throw fileProblem('REQUIRED', `${upload.fileName} holds no rows`);
    await flushRefused();
    for (const key of [...pending.keys()]) await send(key);
    await repo.setCounts(trx, id, counts);
    return { id, batchIds, ...counts };
  });
}

type Batches = Awaited<ReturnType<typeof repo.batchesOf>>;

function view(row: repo.ImportRow, batches: Batches) {
  const sum = (pick: (b: Batches[number]) => number) => batches.reduce((n, b) => n + pick(b), 0);
  const applied = sum((b) => b.completed);
  const failedWhenApplied = sum((b) => b.failed);
  const failed = row.refused + failedWhenApplied;
  const processing = batches.some((b) => b.status === 'processing');
  return {
    id: row.id,
    kind: row.kind,
    remove: row.remove,
    format: row.format,
    fileName: row.file_name,
    createdAt: row.created_at.toISOString(),
    uploadedBy: { kind: row.uploaded_by_kind, id: row.uploaded_by },
    status: processing ? ('processing' as const) : failed > 0 ? ('completed_with_failures' as const) : ('completed' as const),
    counts: { rowsRead: row.rows_read, refused: row.refused, sent: row.sent, applied, failedWhenApplied, failed, pending: row.sent - applied - failedWhenApplied },
    batchIds: batches.map((b) => b.id),
  };
}

async function views(db: Kysely<DB>, supplierId: number, rows: repo.ImportRow[]) {
  const batches = await repo.batchesOf(db, supplierId, rows.map((r) => r.id));
  return rows.map((row) => view(row, batches.filter((b) => b.import_id === row.id)));
}

async function found(db: Kysely<DB>, supplierId: number, id: string) {
  const row = await repo.findImport(db, supplierId, id);
  if (!row) throw notFound('import', id, '/params/id');
  return row;
}

export async function getImport(db: Kysely<DB>, supplierId: number, id: string) {
  return (await views(db, supplierId, [await found(db, supplierId, id)]))[0]!;
}

export async function listImports(db: Kysely<DB>, supplierId: number, query: { kind?: string; take: number; page: number }) {
  const { rows, total } = await repo.listImports(db, supplierId, query);
  return page(await views(db, supplierId, rows), total, query.page, query.take);
}

interface Failure {
  line: number;
  original: unknown;
  problems: RowError[];
}

/** Failed rows at these positions, with their originals and problems read from their parts. */
async function failuresAt(db: Kysely<DB>, importId: string, positions: repo.FailedPosition[]): Promise<Failure[]> {
  const parts = new Map((await repo.partContents(db, importId, [...new Set(positions.map((p) => p.part))])).map((p) => [p.part, p]));
  return positions.map((p) => {
    const part = parts.get(p.part)!;
    const problems =
      part.batch_id === null ? ((part.problems?.[p.at] as RowError[] | undefined) ?? []) : [{ code: p.error_code ?? 'FAILED', message: p.message ?? 'failed' }];
    return { line: p.line, original: part.originals[p.at], problems };
  });
}

/** The row as read, by column (CSV: the header's names, `_` columns left out) or as its JSON object. */
function valuesOf(row: repo.ImportRow, original: unknown): Record<string, unknown> | null {
  if (Array.isArray(original) && row.header) {
    const values: Record<string, unknown> = {};
    row.header.forEach((name, i) => {
      if (!isMeta(name) && name !== '' && i < original.length) values[name] = original[i];
    });
    return values;
  }
  if (typeof original === 'object' && original !== null && !Array.isArray(original)) {
    return Object.fromEntries(Object.entries(original).filter(([name]) => !isMeta(name)));
  }
  return null;
}

function textOf(row: repo.ImportRow, original: unknown): string {
  if (Array.isArray(original)) return new FailedRowFormat('csv', undefined, row.delimiter).csvLine(original.map(String)).replace(/\n$/, '');
  return typeof original === 'string' ? original : JSON.stringify(original);
}

/** The failed rows in line order, a page at a time: line, the row as read, and every reason. */
export async function importFailures(db: Kysely<DB>, supplierId: number, id: string, query: { take: number; page: number }) {
  const row = await found(db, supplierId, id);
  const [summary] = await views(db, supplierId, [row]);
  const positions = await repo.failedPositions(db, supplierId, id, { limit: query.take, offset: (query.page - 1) * query.take });
  const failures = await failuresAt(db, id, positions);
  const data = failures.map((f) => ({
    line: f.line,
    values: valuesOf(row, f.original),
    text: textOf(row, f.original),
    problems: f.problems.map((p) => ({ code: p.code, field: p.field ?? null, message: p.message })),
  }));
  return page(data, summary!.counts.failed, query.page, query.take);
}

/** `products.csv` -> `products.failed.csv`. */
export function failedFileName(fileName: string, format: Format): string {
  return `${fileName.replace(/\.(csv|jsonl|ndjson|txt)$/i, '') || 'import'}.failed.${format === 'csv' ? 'csv' : 'jsonl'}`;
}

const LONG_ROW: Words = {
  es: `(la fila tiene más de ${REFUSED_ROW_BYTES} bytes y no se repite aquí: corrígela en tu archivo)`,
  'pt-BR': `(a linha tem mais de ${REFUSED_ROW_BYTES} bytes e não é repetida aqui: corrija-a no seu arquivo)`,
  en: `(the row is longer than ${REFUSED_ROW_BYTES} bytes and is not repeated here: fix it in your file)`,
};

/** A failed row's reason as the file writes it: the CLI's (combine), or, for a person, each problem in their language. */
function fileReason(problems: RowError[], language: Language | undefined): RowError {
  const given = problems.length > 0 ? problems : [{ code: 'FAILED', message: 'failed' }];
  const reason = combine(given);
  return language ? { ...reason, message: given.map((p) => reasonIn(language, p)).join(' · ') } : reason;
}

/**
 * Exactly the failed rows, in line order, as the CLI writes its failed-rows file (the same
 * FailedRowFormat): the original header and cells, or the original JSON object, plus
 * `_line`, `_error_code`, `_error_field`, `_error_message`; fixed, it uploads again as it is.
 * With the separator the upload had. For a person (`language`: the request named one), a
 * CSV starts with a byte-order mark, so a spreadsheet opens it as UTF-8, and the reasons are
 * in their language.
 */
export async function failedRowsFile(db: Kysely<DB>, supplierId: number, id: string, language?: Language) {
  const row = await found(db, supplierId, id);
  const failures = await failuresAt(db, id, await repo.failedPositions(db, supplierId, id));
  const format = new FailedRowFormat(row.format, row.header ?? undefined, row.delimiter);
  const lines = failures.map((f) => {
    const reason = fileReason(f.problems, language);
    // A CSV row kept as text (longer than REFUSED_ROW_BYTES) has no cells to give back: its
    // cells stay empty, so uploading the file as it is refuses it again rather than sending part of it.
    if (row.format === 'csv' && typeof f.original === 'string') reason.message += ` ${LONG_ROW[language ?? 'en']}`;
    return format.line({ line: f.line, original: f.original }, reason);
  });
  const headerLine = format.headerLine();
  return {
    fileName: failedFileName(row.file_name, row.format),
    format: row.format,
    text: (language && row.format === 'csv' ? '\uFEFF' : '') + (headerLine ?? '') + lines.join(''),
  };
}

const nodeColumns = (columns: NodeColumns[]) => columns.map((c) => ({ node: c.node.join('.'), type: c.type ?? null, columns: c.columns }));

/** Every import kind with its endpoint, scope and columns (the same list as `surtido kinds`). */
export function importKinds() {
  return IMPORT_KINDS.map((kind) => ({
    name: kind.name,
    endpoint: kind.endpoint,
    scope: kind.scope,
    summary: kind.summary,
    typeColumn: 'typeField' in kind.write ? kind.write.typeField : null,
    write: nodeColumns(ruleColumns(kind, kind.write)),
    remove: kind.remove ? nodeColumns(ruleColumns(kind, kind.remove)) : null,
  }));
}

/**
 * How many file imports each supplier has running in this process. Reading a file and
 * storing its batches is the heaviest thing one request does (memory for a request's rows,
 * a transaction for seconds), so a supplier gets IMPORTS_AT_ONCE at once and is told to come
 * back after that; other suppliers are not affected. Counted per process: the memory it
 * protects is the process's (docs/decisions.md).
 */
export class RunningImports {
  private readonly running = new Map<number, number>();

  constructor(private readonly atOnce = IMPORTS_AT_ONCE) {}

  /** A slot for one more of the supplier's imports, or undefined when it has atOnce running; the function answered gives it back (once, however often called). */
  take(supplierId: number): (() => void) | undefined {
    const n = this.running.get(supplierId) ?? 0;
    if (n >= this.atOnce) return undefined;
    this.running.set(supplierId, n + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.running.get(supplierId) ?? 1) - 1;
      if (left > 0) this.running.set(supplierId, left);
      else this.running.delete(supplierId);
    };
  }

  /** How many the supplier has running (tests, metrics). */
  count(supplierId: number): number {
    return this.running.get(supplierId) ?? 0;
  }
}

/** Seconds a supplier with IMPORTS_AT_ONCE imports running is told to wait: about what a file of a few MB takes. */
export const IMPORT_RETRY_AFTER_SECONDS = 5;

/** A supplier with IMPORTS_AT_ONCE imports running already: 429 with Retry-After. */
export const tooManyImports = () =>
  new AppError('RATE_LIMITED', `this supplier already has ${IMPORTS_AT_ONCE} file imports running; retry after ${IMPORT_RETRY_AFTER_SECONDS} s`, {
    headers: { 'retry-after': String(IMPORT_RETRY_AFTER_SECONDS) },
  });

/** A file too large for MAX_IMPORT_BYTES. */
export const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `the file is larger than this service takes (MAX_IMPORT_BYTES: ${limit} bytes); split it and upload the parts`);
