// Every statement of the file imports. An import's rows are stored in parts (runs of at
// most PART_ROWS rows: the line and original content of each, as parallel arrays), one
// statement per chunk of parts; failures are read by joining the parts to the batch
// engine's own failed items, never from a row per item.
import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { DB, ImportsTable } from '../../db/types.ts';
import { offsetPage } from '../../db/paging.ts';

export interface NewPart {
  part: number;
  batchId: string | null;
  /** The index, in its batch, of the part's first row's item (0 for refused rows). */
  firstIdx: number;
  lines: number[];
  originals: unknown[];
  /** Refused rows only: each one's problems. */
  problems: unknown[] | null;
}

export async function insertImport(trx: Transaction<DB>, row: Insertable<ImportsTable>) {
  await trx.insertInto('imports').values(row).execute();
}

/** What reading the file found, once it is all stored. */
export async function setCounts(trx: Transaction<DB>, id: string, counts: { rowsRead: number; refused: number; sent: number }) {
  await trx.updateTable('imports').set({ rows_read: counts.rowsRead, refused: counts.refused, sent: counts.sent }).where('id', '=', id).execute();
}

/** A chunk of parts in one statement (json_to_recordset turns the JSON arrays of lines into int[]). */
export async function insertParts(trx: Transaction<DB>, importId: string, parts: NewPart[]) {
  if (parts.length === 0) return;
  const rows = parts.map((p) => ({ part: p.part, batch_id: p.batchId, first_idx: p.firstIdx, lines: p.lines, originals: p.originals, problems: p.problems }));
  await sql`
    insert into import_parts (import_id, part, batch_id, first_idx, lines, originals, problems)
    select ${importId}::uuid, r.part, r.batch_id, r.first_idx, r.lines, r.originals, r.problems
    from json_to_recordset(${JSON.stringify(rows)}::json) as r(part int, batch_id uuid, first_idx int, lines int[], originals json, problems json)`.execute(trx);
}

const columns = ['id', 'kind', 'remove', 'format', 'file_name', 'delimiter', 'header', 'uploaded_by_kind', 'uploaded_by', 'rows_read', 'refused', 'sent', 'created_at'] as const;

export async function findImport(db: Kysely<DB>, supplierId: number, id: string) {
  return db.selectFrom('imports').select(columns).where('supplier_id', '=', supplierId).where('id', '=', id).executeTakeFirst();
}

export type ImportRow = NonNullable<Awaited<ReturnType<typeof findImport>>>;

/** A page of the supplier's imports, newest first (on imports_supplier_seq), and how many there are. */
export async function listImports(db: Kysely<DB>, supplierId: number, f: { kind?: string; take: number; page: number }) {
  let base = db.selectFrom('imports').where('supplier_id', '=', supplierId);
  if (f.kind) base = base.where('kind', '=', f.kind);
  return offsetPage(base, (q) => q.select(columns).orderBy('seq', 'desc'), f);
}

/** The batches of these imports with their counts, each once, in submission order. */
export async function batchesOf(db: Kysely<DB>, supplierId: number, importIds: readonly string[]) {
  if (importIds.length === 0) return [];
  return db
    .selectFrom('import_parts as p')
    .innerJoin('batches as b', 'b.id', 'p.batch_id')
    .select(['p.import_id', 'b.id', 'b.status', 'b.total', 'b.completed', 'b.failed', sql<number>`min(p.part)`.as('first_part')])
    .where('b.supplier_id', '=', supplierId)
    .where('p.import_id', 'in', importIds)
    .groupBy(['p.import_id', 'b.id', 'b.status', 'b.total', 'b.completed', 'b.failed'])
    .orderBy('p.import_id')
    .orderBy('first_part')
    .execute();
}

export interface FailedPosition {
  part: number;
  /** The row's position in its part. */
  at: number;
  line: number;
  /** A batch's failure (null for a row refused before sending, whose problems are in its part). */
  error_code: string | null;
  message: string | null;
}

/**
 * The import's failed rows in line order (`limit` of them from `offset`, or all): its
 * refused rows, and the items its batches failed, each traced to its part by the item's
 * index. Only positions: the originals and problems are read from the parts concerned.
 */
export async function failedPositions(db: Kysely<DB>, supplierId: number, importId: string, window?: { limit: number; offset: number }): Promise<FailedPosition[]> {
  const result = await sql<FailedPosition>`
    select f.part, f.at, f.line, f.error_code, f.message from (
      select p.part, (l.n - 1)::int as at, l.line, null::text as error_code, null::text as message
        from import_parts p cross join lateral unnest(p.lines) with ordinality as l(line, n)
       where p.import_id = ${importId} and p.batch_id is null
      union all
      select p.part, r.idx - p.first_idx as at, p.lines[r.idx - p.first_idx + 1] as line, r.error_code, r.message
        from import_parts p
        join batch_item_results r on r.supplier_id = ${supplierId} and r.batch_id = p.batch_id and r.status = 'failed'
             and r.idx >= p.first_idx and r.idx < p.first_idx + cardinality(p.lines)
       where p.import_id = ${importId} and p.batch_id is not null
    ) f
    order by f.line, f.part, f.at
    ${window ? sql`limit ${window.limit} offset ${window.offset}` : sql``}`.execute(db);
  return result.rows;
}

/** The originals (and refused rows' problems) of some parts of an import. */
export async function partContents(db: Kysely<DB>, importId: string, parts: readonly number[]) {
  if (parts.length === 0) return [];
  return db
    .selectFrom('import_parts')
    .select(['part', 'batch_id', 'originals', 'problems'])
    .where('import_id', '=', importId)
    .where(sql<boolean>`part = any(${[...parts]}::int[])`)
    .execute();
}
