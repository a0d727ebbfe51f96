// File imports (README.md): a supplier's CSV or JSON Lines file of any import kind, read by
// the service with the integrator CLI's own mapping (src/integrator: kinds, csv-mapping,
// readers, rows, failures), each item checked as its batch route checks it, the valid ones
// submitted as ordinary batches (submitBatch) in the same transaction as the import and
// its parts, so the 202 means durably stored. Every row's line and original content are
// kept in parts, so the failed rows can be listed and given back as a file to fix.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import { FailedRowFormat } from '../../integrator/failures.ts';
import { bodyFor, IMPORT_KINDS, ruleColumns, type ImportKind, type NodeColumns } from '../../integrator/kinds.ts';
import { readSource, type Format } from '../../integrator/readers.ts';
import { blameRows, combine, FileError, isMeta, type RowError, type SourceRow } from '../../integrator/rows.ts';
import { AppError, fieldError, notFound } from '../../lib/errors.ts';
import { page } from '../../lib/pagination.ts';
import type { BatchKind } from '../batch/batch.kinds.ts';
import { submitBatch, type BatchLimits } from '../batch/batch.service.ts';
import { validateBatchBody } from '../batch/batch.validate.ts';
import * as repo from './imports.repository.ts';

/** Rows per part: what one read of a failed row's original parses at most. */
export const PART_ROWS = 1000;

export interface Upload {
  supplierId: number;
  kind: ImportKind;
  /** The declared batch kind of `kind.endpoint` (its body schema, its route's refinements). */
  batchKind: BatchKind;
  remove: boolean;
  format: Format;
  delimiter: string;
  fileName: string;
  text: string;
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

/** The text as a stream of bytes in small pieces, so the parsers produce rows as they are asked for them, never all at once. */
function* pieces(bytes: Buffer, size = 64 * 1024) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
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
  if (upload.text.trim() === '') throw fileProblem('REQUIRED', `${upload.fileName} is empty`);
  try {
    return await readSource(Readable.from(pieces(Buffer.from(upload.text, 'utf8'))), upload.format, kind, rule, upload.delimiter, upload.fileName);
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
        counts.rowsRead++;
        const problems = row.error || !row.node ? [row.error ?? { code: 'INVALID_ROW', message: 'not an item' }] : checkItem(upload.batchKind, row.node, row.item);
        if (problems.length > 0) {
          counts.refused++;
          refused.push({ line: row.line, original: row.original, problems });
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

/**
 * Exactly the failed rows, in line order, as the CLI writes its failed-rows file (the same
 * FailedRowFormat): the original header and cells, or the original JSON object, plus
 * `_line`, `_error_code`, `_error_field`, `_error_message`; fixed, it uploads again as it is.
 */
export async function failedRowsFile(db: Kysely<DB>, supplierId: number, id: string) {
  const row = await found(db, supplierId, id);
  const failures = await failuresAt(db, id, await repo.failedPositions(db, supplierId, id));
  const format = new FailedRowFormat(row.format, row.header ?? undefined, row.delimiter);
  const lines = failures.map((f) => format.line({ line: f.line, original: f.original }, combine(f.problems.length > 0 ? f.problems : [{ code: 'FAILED', message: 'failed' }])));
  const headerLine = format.headerLine();
  return {
    fileName: failedFileName(row.file_name, row.format),
    format: row.format,
    text: (headerLine ?? '') + lines.join(''),
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

/** A file too large for MAX_IMPORT_BYTES. */
export const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `the file is larger than this service takes (MAX_IMPORT_BYTES: ${limit} bytes); split it and upload the parts`);
