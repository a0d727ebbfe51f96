import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { copyInto, type CopyChunk } from '../../db/copy.ts';
import type { BatchItem, DB } from '../../db/types.ts';
import type { Staging } from './batch.kinds.ts';

export interface NewBatch {
  id: string;
  supplier_id: number;
  endpoint: string;
  items: BatchItem[];
  chunk_size: number;
  /** The range of the keys the items write; null when unknown. */
  keys: { min: string; max: string } | null;
  /** The W3C traceparent of the request (null with tracing off). */
  traceparent: string | null;
  /** Its items are staged rows (written by stageItems), not JSON in the row. */
  staged: boolean;
}

// Storage: a batch keeps its items alone, in order, and the action of each once per run
// of consecutive items ([[action, count], ...]; a request's items come grouped by action,
// so a batch has a run or two). One {action, item} object per item would make the JSON
// written before each 202, and parsed again by the worker, a third larger.
export function runsOf(items: readonly BatchItem[]): [string, number][] {
  const runs: [string, number][] = [];
  for (const { action } of items) {
    const last = runs.at(-1);
    if (last?.[0] === action) last[1]++;
    else runs.push([action, 1]);
  }
  return runs;
}

function encode(items: BatchItem[], staged: boolean) {
  return { items: staged ? null : JSON.stringify(items.map((i) => i.item)), actions: JSON.stringify(runsOf(items)) };
}

function decode(items: unknown[], runs: readonly (readonly [string, number])[]): BatchItem[] {
  const out: BatchItem[] = new Array(items.length);
  let at = 0;
  for (const [action, count] of runs) {
    for (const end = at + count; at < end; at++) out[at] = { action, item: items[at] as BatchItem['item'] };
  }
  if (at !== items.length) throw new Error(`a batch's action runs cover ${at} of its ${items.length} items`);
  return out;
}

/**
 * All batches of one request in one statement; the caller's transaction makes them durable
 * together. Answers each batch's seq, in order (a staged batch's rows are keyed by it).
 */
export async function insertBatches(trx: Transaction<DB>, batches: NewBatch[]): Promise<number[]> {
  const rows = await trx
    .insertInto('batches')
    .values(
      batches.map((b) => ({
        id: b.id,
        supplier_id: b.supplier_id,
        endpoint: b.endpoint,
        ...encode(b.items, b.staged),
        total: b.items.length,
        chunk_size: b.chunk_size,
        key_min: b.keys?.min ?? null,
        key_max: b.keys?.max ?? null,
        traceparent: b.traceparent,
      })),
    )
    .returning(['id', 'seq'])
    .execute();
  const seqOf = new Map(rows.map((r) => [r.id, r.seq]));
  return batches.map((b) => seqOf.get(b.id)!);
}

/**
 * The channel that tells worker processes new batches were accepted: NOTIFY is sent in the
 * accepting transaction, so it reaches every listening process when, and only if, the
 * batches commit. Workers apart from the API (README, "PostgreSQL, and API and worker
 * apart") claim at once instead of at their next poll; a missed notification only costs
 * that poll (WORKER_POLL_MS).
 */
export const BATCHES_ACCEPTED = 'batches_accepted';

export async function notifyAccepted(trx: Transaction<DB>) {
  await sql`select pg_notify(${BATCHES_ACCEPTED}, '')`.execute(trx);
}

/**
 * A staged kind's items in the order accepted: `columns` of each chunk row (`c`) of
 * `table` and of each of its items (`o`), which `items` unnests from the chunk's arrays
 * (`with ordinality as o(..., n)`).
 */
export async function readStagedRows<Row>(db: Kysely<DB>, table: string, columns: RawBuilder<unknown>, items: RawBuilder<unknown>, batchSeq: number): Promise<Row[]> {
  const result = await sql<Row>`
    select ${columns}
    from ${sql.table(table)} c
    cross join lateral ${items}
    where c.batch_seq = ${batchSeq}
    order by c.chunk, o.n`.execute(db);
  return result.rows;
}

/** A staged kind's rows (COPY text lines: batch_seq, chunk, then the staging's columns, possibly made lazily), in the caller's transaction. */
export async function stageItems(trx: Transaction<DB>, staging: Staging, chunks: Iterable<CopyChunk>) {
  const columns = staging.columns.flatMap((c) => (c.index ? [c.values, c.index] : [c.values]));
  return copyInto(trx, staging.table, ['batch_seq', 'chunk', ...columns], chunks);
}

const summaryColumns = [
  'id',
  'endpoint',
  'status',
  'total',
  'completed',
  'failed',
  'created_at',
  'started_at',
  'finished_at',
] as const;

export async function findBatchSummary(db: Kysely<DB>, supplierId: number, id: string) {
  return db.selectFrom('batches').select(summaryColumns).where('id', '=', id).where('supplier_id', '=', supplierId).executeTakeFirst();
}

export type BatchState = 'processing' | 'processed' | 'failed';

/**
 * Who sent each of these batches, when known: a batch row names no sender, but the audit
 * entry of the request that sent it (src/modules/audit/audited.ts) was inserted in the same
 * transaction, so its `at` is the batch's `created_at` (both the transaction's now()), and
 * its detail lists the request's batch ids. The join probes audit_entries_at; a batch whose
 * entry is gone (AUDIT_RETENTION_DAYS) or was never written (accepted without a route) is
 * left out. Actor kinds as the audit log's: a credential's client id, a member's email.
 */
export async function findSenders(db: Kysely<DB>, supplierId: number, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('batches as b')
    .innerJoin('audit_entries as a', (join) => join.onRef('a.at', '=', 'b.created_at').onRef('a.supplier_id', '=', 'b.supplier_id'))
    .select(['b.id', 'a.actor_kind', 'a.actor_id'])
    .where('b.supplier_id', '=', supplierId)
    .where('b.id', 'in', ids)
    .where(sql<boolean>`a.detail -> 'batchIds' @> jsonb_build_array(b.id::text)`)
    .execute();
}

/**
 * A page of the supplier's batches, newest first (on batches_supplier_seq, migration
 * 0020), and how many of them are in each state under the same endpoint filter.
 */
export async function listBatches(db: Kysely<DB>, supplierId: number, f: { status?: BatchState; endpoint?: string; take: number; page: number }) {
  let base = db.selectFrom('batches').where('supplier_id', '=', supplierId);
  if (f.endpoint) base = base.where('endpoint', '=', f.endpoint);
  const shown = f.status ? base.where('status', '=', f.status) : base;
  const [rows, counts] = await Promise.all([
    shown
      .select(summaryColumns)
      .orderBy('seq', 'desc')
      .limit(f.take)
      .offset((f.page - 1) * f.take)
      .execute(),
    base.select(['status', sql<number>`count(*)::int`.as('n')]).groupBy('status').execute(),
  ]);
  return { rows, counts };
}

export async function findBatchForDetail(db: Kysely<DB>, supplierId: number, id: string) {
  const row = await db
    .selectFrom('batches')
    .select([...summaryColumns, 'seq', 'items', 'actions', 'cursor', 'chunk_size', 'chunk_finished_at'])
    .where('id', '=', id)
    .where('supplier_id', '=', supplierId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { actions, items, ...rest } = row;
  // A staged batch's items are read from its kind's staging table (batch.service.ts).
  return { ...rest, actions, items: items === null ? null : decode(items, actions) };
}

export async function findResults(db: Kysely<DB>, supplierId: number, batchId: string) {
  return db
    .selectFrom('batch_item_results')
    .select(['idx', 'status', 'error_code', 'message'])
    .where('supplier_id', '=', supplierId)
    .where('batch_id', '=', batchId)
    .execute();
}

export interface ClaimedBatch {
  id: string;
  seq: number;
  supplier_id: number;
  endpoint: string;
  total: number;
  cursor: number;
  chunk_size: number;
  attempts: number;
  traceparent: string | null;
  actions: [string, number][];
}

/**
 * Leases the next batch that may run: one whose lease is free or expired and that no
 * earlier unfinished batch of its supplier must precede. An earlier batch must precede
 * unless both are of the same endpoint and both know their key ranges and the ranges are
 * disjoint: such batches write different rows, so applying them side by side ends exactly
 * as applying them in acceptance order would. Everything else (another endpoint, a
 * batch without keys, overlapping keys) applies one at a time in acceptance order.
 * Suppliers are served oldest-first and in parallel across workers; SKIP LOCKED lets
 * concurrent claimers pass over each other's rows without waiting.
 *
 * Cost: the unfinished batches are walked oldest first (batches_pending_seq, migration
 * 0027) and the walk stops at the first that may run, so a claim reads the batches it
 * passes over (those leased or waiting), not the backlog behind them. Whether an earlier
 * batch must precede is asked per candidate with LIMIT 1: a subquery the planner cannot
 * turn into an anti-join over every unfinished batch, which would cost the square of a
 * large load's backlog per claim (200 batches: 7 ms instead of 0.05).
 *
 * A batch's start is the moment the claim takes it (`clock_timestamp()`), not its
 * transaction's start (`now()`): a statement's transaction begins when it arrives, its
 * snapshot is taken after, so on a busy server a claim that saw the previous batch
 * finished could record a start a few milliseconds before that finish (CI saw 2 ms).
 */
export function claimQuery(owner: string, leaseSeconds: number) {
  return sql<ClaimedBatch>`
    update batches set
      lease_owner = ${owner},
      lease_expires_at = now() + make_interval(secs => ${leaseSeconds}),
      started_at = coalesce(started_at, clock_timestamp())
    where id = (
      select b.id from batches b
      where b.finished_at is null
        and (b.lease_expires_at is null or b.lease_expires_at < now())
        and not exists (
          select from (
            select 1 from batches e
            where e.supplier_id = b.supplier_id and e.finished_at is null and e.seq < b.seq
              and (e.endpoint <> b.endpoint or e.key_min is null or b.key_min is null
                   or (e.key_min <= b.key_max and b.key_min <= e.key_max))
            limit 1) as must_precede)
      order by b.seq
      limit 1
      for update skip locked)
    returning id, seq, supplier_id, endpoint, total, cursor, chunk_size, attempts, traceparent, actions`;
}

export async function claimNextBatch(db: Kysely<DB>, owner: string, leaseSeconds: number): Promise<ClaimedBatch | undefined> {
  return (await claimQuery(owner, leaseSeconds).execute(db)).rows[0];
}

/** The items of a batch kept as JSON (a kind that is not staged). */
export async function loadItems(db: Kysely<DB>, id: string): Promise<BatchItem[]> {
  const row = await db.selectFrom('batches').select(['items', 'actions']).where('id', '=', id).executeTakeFirstOrThrow();
  if (row.items === null) throw new Error(`batch ${id} is staged: its items are rows of its kind's staging table`);
  return decode(row.items, row.actions);
}

/**
 * Locks the batch for a chunk, only if this worker still holds the lease and nobody moved
 * the cursor. The same statement relaxes the chunk's commit: it need not wait for its WAL
 * flush, because its inputs (the batch's items) were made durable before the 202 and its
 * writes commit atomically with the cursor that records them. A database crash can only
 * lose the latest chunks together with their cursor moves, and they are applied again, in
 * the same order, from the same items.
 */
export async function lockForChunk(trx: Transaction<DB>, id: string, owner: string, cursor: number): Promise<boolean> {
  const row = await trx
    .selectFrom('batches')
    .select(['id', sql<string>`set_config('synchronous_commit', 'off', true)`.as('commit_mode')])
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('cursor', '=', cursor)
    .where('finished_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

export interface ResultRow {
  idx: number;
  status: 'completed' | 'failed';
  error_code: string | null;
  message: string | null;
}

export async function insertResults(trx: Transaction<DB>, supplierId: number, batchId: string, rows: ResultRow[]) {
  if (rows.length === 0) return;
  await sql`
    insert into batch_item_results (supplier_id, batch_id, idx, status, error_code, message)
    select ${supplierId}, ${batchId}::uuid, r.idx, r.status, r.error_code, r.message
    from json_to_recordset(${JSON.stringify(rows)}::json) as r(idx int, status text, error_code text, message text)`.execute(trx);
}

/** Advances the cursor past a chunk, moves the counts, renews the lease; finishes the batch after its last chunk. */
export async function advance(
  trx: Transaction<DB>,
  id: string,
  input: { cursor: number; completed: number; failed: number; total: number; leaseSeconds: number },
) {
  const done = input.cursor >= input.total;
  await trx
    .updateTable('batches')
    .set({
      cursor: input.cursor,
      completed: sql`completed + ${input.completed}`,
      failed: sql`failed + ${input.failed}`,
      chunk_finished_at: sql`array_append(chunk_finished_at, now())`,
      attempts: 0,
      last_error: null,
      lease_expires_at: done ? null : sql`now() + make_interval(secs => ${input.leaseSeconds})`,
      ...(done
        ? {
            finished_at: sql`now()`,
            lease_owner: null,
            status: sql`case when failed + ${input.failed} = total then 'failed' else 'processed' end`,
          }
        : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** Gives the batch back: at once on shutdown, or after a delay when a chunk failed unexpectedly. */
export async function releaseLease(db: Kysely<DB>, id: string, owner: string, retryInSeconds = 0, error?: string) {
  await db
    .updateTable('batches')
    .set({
      lease_owner: null,
      lease_expires_at: retryInSeconds > 0 ? sql`now() + make_interval(secs => ${retryInSeconds})` : null,
      ...(error !== undefined ? { attempts: sql`attempts + 1`, last_error: error } : {}),
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/**
 * For the metrics scrape: unfinished batches, and how long the oldest has waited since it
 * was accepted (0 when none). Reads the partial index of unfinished batches only.
 */
export async function queueStats(db: Kysely<DB>): Promise<{ depth: number; oldestAgeSeconds: number }> {
  const result = await sql<{ depth: number; oldestAgeSeconds: number }>`
    select count(*)::int as "depth", coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as "oldestAgeSeconds"
    from batches where finished_at is null`.execute(db);
  return result.rows[0]!;
}
