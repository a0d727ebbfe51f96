// Accepting batches and reporting on them. A 202 is sent only after every item of the
// request is committed, so accepted work survives any crash that follows.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { BatchItem, DB } from '../../db/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { currentTraceparent } from '../../observability/trace-context.ts';
import { page } from '../../lib/pagination.ts';
import * as repo from './batch.repository.ts';
import { CopyWriter } from '../../db/copy.ts';
import type { BatchKind, BatchRegistry, StagedValue, Staging } from './batch.kinds.ts';

export interface BatchLimits {
  maxRequestItems: number;
  batchSize: number;
  chunkSize: number;
}

export const batchLimits = (config: Config): BatchLimits => ({
  maxRequestItems: config.maxBatchRequestItems,
  batchSize: config.batchSize,
  chunkSize: config.batchChunkSize,
});

/** The request's items in application order: every action's node, in the kind's action order. */
export function flatten(kind: Pick<BatchKind, 'actions'>, body: unknown): BatchItem[] {
  const items: BatchItem[] = [];
  for (const action of kind.actions) {
    for (const item of action.select(body) ?? []) items.push({ action: action.name, item });
  }
  return items;
}

/** The smallest and largest key the items write, or null when an action has no key (README, "Ordering"). */
export function keyRange(kind: Pick<BatchKind, 'actions'>, items: BatchItem[]): { min: string; max: string } | null {
  const keyFor = new Map(kind.actions.map((a) => [a.name, a.key?.bind(a)]));
  let min: string | undefined;
  let max: string | undefined;
  let beyondSurrogates = false;
  for (const { action, item } of items) {
    const key = keyFor.get(action)?.(item);
    if (key === undefined) return null;
    // JavaScript's own comparison is code point order unless a key holds U+D800..U+FFFF.
    if (min === undefined || key < min) min = key;
    if (max === undefined || key > max) max = key;
    if (!beyondSurrogates && SURROGATE_OR_ABOVE.test(key)) beyondSurrogates = true;
  }
  if (min === undefined || max === undefined) return null;
  if (beyondSurrogates) {
    // Rare: walk the keys again in the database's order.
    for (const { action, item } of items) {
      const key = keyFor.get(action)!(item);
      if (byCodePoint(key, min) < 0) min = key;
      if (byCodePoint(key, max) > 0) max = key;
    }
  }
  return { min, max };
}
const SURROGATE_OR_ABOVE = /[\uD800-\uFFFF]/;

/**
 * Orders strings as the database compares them under collate "C" (UTF-8 bytes, which is
 * code point order). JavaScript's `<` compares UTF-16 units, which puts characters beyond
 * U+FFFF (surrogate pairs) before U+E000..U+FFFF; a range computed that way could miss an
 * overlap the database would see.
 */
export function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    if (y >= 0xd800) y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    return x - y;
  }
  return a.length - b.length;
}

export async function submitBatch(
  db: Kysely<DB>,
  limits: BatchLimits,
  supplierId: number,
  kind: BatchKind,
  body: unknown,
  onAccepted: (endpoint: string, items: number) => void = () => {},
): Promise<{ batchId: string[] }> {
  const items = flatten(kind, body);
  if (items.length === 0) {
    throw new AppError('BATCH_VALIDATION_FAILED', 'the request holds no items', {
      errors: [{ pointer: '', code: 'EMPTY_BATCH', message: 'send at least one item' }],
    });
  }
  if (items.length > limits.maxRequestItems) {
    throw new AppError('TOO_MANY_ITEMS', `a batch request holds at most ${limits.maxRequestItems} items; this one has ${items.length}`, {
      errors: [{ pointer: '', code: 'TOO_MANY_ITEMS', message: `at most ${limits.maxRequestItems} items per request` }],
    });
  }
  const batches: repo.NewBatch[] = [];
  const traceparent = currentTraceparent();
  for (let start = 0; start < items.length; start += limits.batchSize) {
    const slice = items.slice(start, start + limits.batchSize);
    batches.push({
      id: randomUUID(),
      supplier_id: supplierId,
      endpoint: kind.endpoint,
      items: slice,
      chunk_size: limits.chunkSize,
      keys: keyRange(kind, slice),
      traceparent,
      staged: kind.staging !== undefined,
    });
  }
  await inTransaction(db, async (trx) => {
    const seqs = await repo.insertBatches(trx, batches);
    const { staging } = kind;
    // Each batch's rows are made as the one before is sent: PostgreSQL reads one while Node writes the next.
    if (staging) await repo.stageItems(trx, staging, (function* () {
      for (const [i, b] of batches.entries()) yield stagingRows(kind, staging, seqs[i]!, b.items, b.chunk_size);
    })());
    await repo.notifyAccepted(trx);
  });
  onAccepted(kind.endpoint, items.length);
  return { batchId: batches.map((b) => b.id) };
}

/** A staged value of a column that is not `json`. */
type Scalar = string | number | boolean | null | undefined;

/**
 * A staged batch's rows as COPY text (UTF-8 bytes): one line per chunk of `chunkSize` items
 * (the worker applies the same chunks, since the batch row keeps that size), with
 * batch_seq, the chunk's number, then one array per staging column of the values the
 * items' actions `stage`, or the chunk's distinct values and each item's place among them
 * (1-based), or for a `json` column one JSON array of the values (JSON.stringify writes
 * undefined as null).
 */
export function stagingRows(kind: BatchKind, staging: Staging, seq: number, items: BatchItem[], chunkSize: number): Buffer<ArrayBuffer> {
  const stage = new Map(kind.actions.map((a) => [a.name, a.stage!]));
  const width = staging.columns.length;
  const rows = new CopyWriter(items.length * 16);
  for (let chunk = 0, first = 0; first < items.length; chunk++, first += chunkSize) {
    const last = Math.min(first + chunkSize, items.length);
    const values: StagedValue[][] = Array.from({ length: width }, () => []);
    const places: number[][] = Array.from({ length: width }, () => []);
    const seen = staging.columns.map((c) => (c.index ? new Map<StagedValue, number>() : undefined));
    for (let idx = first; idx < last; idx++) {
      const { action, item } = items[idx]!;
      const staged = stage.get(action)!(item);
      for (let c = 0; c < width; c++) {
        const value = staged[c];
        const distinct = seen[c];
        if (!distinct) {
          values[c]!.push(value);
          continue;
        }
        let place = distinct.get(value);
        if (place === undefined) {
          place = values[c]!.push(value); // the new length: the value's 1-based place
          distinct.set(value, place);
        }
        places[c]!.push(place);
      }
    }
    rows.value(seq).tab().value(chunk);
    for (let c = 0; c < width; c++) {
      rows.tab();
      if (staging.columns[c]!.json) rows.value(JSON.stringify(values[c]!));
      else rows.array(values[c]! as Scalar[]);
      if (seen[c]) rows.tab().array(places[c]!);
    }
    rows.newline();
  }
  return rows.toBytes();
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

type BatchSummary = NonNullable<Awaited<ReturnType<typeof repo.findBatchSummary>>>;

type Sender = { kind: 'credential' | 'operator' | 'person'; id: string };

/** The batches' senders by batch id (repository, findSenders). */
async function sendersOf(db: Kysely<DB>, supplierId: number, ids: readonly string[]) {
  const rows = await repo.findSenders(db, supplierId, ids);
  return new Map<string, Sender>(rows.map((r) => [r.id, { kind: r.actor_kind, id: r.actor_id }]));
}

const statusView = (batch: BatchSummary, senders: Map<string, Sender>) => ({
  batchId: batch.id,
  sentBy: senders.get(batch.id) ?? null,
  endpoint: batch.endpoint,
  status: batch.status,
  total: batch.total,
  processed: batch.completed + batch.failed,
  completed: batch.completed,
  failed: batch.failed,
  createdAt: batch.created_at.toISOString(),
  startedAt: iso(batch.started_at),
  finishedAt: iso(batch.finished_at),
});

export async function batchStatus(db: Kysely<DB>, supplierId: number, id: string) {
  const batch = await repo.findBatchSummary(db, supplierId, id);
  if (!batch) throw notFound('batch', id, '/params/uuid');
  return statusView(batch, await sendersOf(db, supplierId, [batch.id]));
}

/**
 * The supplier's batches newest first, each as GET /batch/{uuid}/status answers it, with
 * the count per state under the same endpoint filter (the status filter picks the rows
 * shown, never the counts, so the counts can label the filter's choices).
 */
export async function listBatches(db: Kysely<DB>, supplierId: number, query: { status?: repo.BatchState; endpoint?: string; take: number; page: number }) {
  const { rows, counts } = await repo.listBatches(db, supplierId, query);
  const senders = await sendersOf(db, supplierId, rows.map((r) => r.id));
  const n = (state: repo.BatchState) => counts.find((c) => c.status === state)?.n ?? 0;
  const total = query.status ? n(query.status) : counts.reduce((sum, c) => sum + c.n, 0);
  return { ...page(rows.map((r) => statusView(r, senders)), total, query.page, query.take), counts: { processing: n('processing'), processed: n('processed'), failed: n('failed') } };
}

export type ItemStatus = 'processing' | 'completed' | 'failed';

type StoredBatch = NonNullable<Awaited<ReturnType<typeof repo.findBatchForDetail>>>;

/** A batch's items in order, from its JSON or, for a staged kind, from its staging rows (README, "Staging"). */
const itemsOf = async (db: Kysely<DB>, kinds: BatchRegistry, batch: Pick<StoredBatch, 'endpoint' | 'seq' | 'items' | 'actions'>) =>
  batch.items ?? kinds.get(batch.endpoint).staging!.items(db, batch.seq, batch.actions);

/** Every item of one of the supplier's batches, as accepted, however its kind stores them (the fault scripts check them). */
export async function batchItems(db: Kysely<DB>, kinds: BatchRegistry, supplierId: number, id: string): Promise<BatchItem[]> {
  const batch = await repo.findBatchForDetail(db, supplierId, id);
  if (!batch) throw notFound('batch', id, '/params/uuid');
  return itemsOf(db, kinds, batch);
}

/**
 * One record per item, in submission order. Only failures and completions with a
 * message are stored per item; an item before the cursor without a record completed,
 * and it finished when its chunk did.
 */
export async function batchDetail(
  db: Kysely<DB>,
  kinds: BatchRegistry,
  supplierId: number,
  id: string,
  query: { status?: ItemStatus; take: number; page: number },
) {
  const batch = await repo.findBatchForDetail(db, supplierId, id);
  if (!batch) throw notFound('batch', id, '/params/uuid');
  const items = await itemsOf(db, kinds, batch);
  const codeOf = (action: string, item: unknown) => kinds.action(batch.endpoint, action).code(item);
  const results = new Map((await repo.findResults(db, supplierId, id)).map((r) => [r.idx, r]));
  const chunkFinishedAt = batch.chunk_finished_at.map((d) => new Date(d));
  const all = items.map(({ action, item }, idx) => {
    const result = results.get(idx);
    const status: ItemStatus = result ? result.status : idx < batch.cursor ? 'completed' : 'processing';
    const finishedAt = status === 'processing' ? null : iso(chunkFinishedAt[Math.floor(idx / batch.chunk_size)] ?? null);
    return {
      code: codeOf(action, item),
      endpoint: batch.endpoint,
      action,
      batchItem: JSON.stringify(item),
      status,
      errorCode: result?.error_code ?? null,
      message: result?.message ?? null,
      finishedAt,
    };
  });
  const filtered = query.status ? all.filter((d) => d.status === query.status) : all;
  const start = (query.page - 1) * query.take;
  return {
    uuid: batch.id,
    detail: filtered.slice(start, start + query.take),
    page: query.page,
    take: query.take,
    total: filtered.length,
    totalPages: Math.ceil(filtered.length / query.take),
  };
}
