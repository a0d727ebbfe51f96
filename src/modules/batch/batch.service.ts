// Accepting batches and reporting on them. A 202 is sent only after every item of the
// request is committed, so accepted work survives any crash that follows.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { BatchItem, DB } from '../../db/types.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import * as repo from './batch.repository.ts';
import type { BatchKind } from './batch.kinds.ts';

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
export function flatten(kind: BatchKind, body: unknown): BatchItem[] {
  const items: BatchItem[] = [];
  for (const action of kind.actions) {
    for (const item of action.select(body) ?? []) items.push({ action: action.name, item });
  }
  return items;
}

export async function submitBatch(
  db: Kysely<DB>,
  limits: BatchLimits,
  supplierId: number,
  kind: BatchKind,
  body: unknown,
  onAccepted: () => void = () => {},
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
  for (let start = 0; start < items.length; start += limits.batchSize) {
    batches.push({
      id: randomUUID(),
      supplier_id: supplierId,
      endpoint: kind.endpoint,
      items: items.slice(start, start + limits.batchSize),
      chunk_size: limits.chunkSize,
    });
  }
  await db.transaction().execute((trx) => repo.insertBatches(trx, batches));
  onAccepted();
  return { batchId: batches.map((b) => b.id) };
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export async function batchStatus(db: Kysely<DB>, supplierId: number, id: string) {
  const batch = await repo.findBatchSummary(db, supplierId, id);
  if (!batch) throw notFound('batch', id, '/params/uuid');
  return {
    batchId: batch.id,
    endpoint: batch.endpoint,
    status: batch.status,
    total: batch.total,
    processed: batch.completed + batch.failed,
    completed: batch.completed,
    failed: batch.failed,
    createdAt: batch.created_at.toISOString(),
    startedAt: iso(batch.started_at),
    finishedAt: iso(batch.finished_at),
  };
}

export type ItemStatus = 'processing' | 'completed' | 'failed';

/**
 * One record per item, in submission order. Only failures and completions with a
 * message are stored per item; an item before the cursor without a record completed,
 * and it finished when its chunk did.
 */
export async function batchDetail(
  db: Kysely<DB>,
  codeOf: (endpoint: string, action: string, item: unknown) => string,
  supplierId: number,
  id: string,
  query: { status?: ItemStatus; take: number; page: number },
) {
  const batch = await repo.findBatchForDetail(db, supplierId, id);
  if (!batch) throw notFound('batch', id, '/params/uuid');
  const results = new Map((await repo.findResults(db, supplierId, id)).map((r) => [r.idx, r]));
  const chunkFinishedAt = batch.chunk_finished_at.map((d) => new Date(d));
  const all = batch.items.map(({ action, item }, idx) => {
    const result = results.get(idx);
    const status: ItemStatus = result ? result.status : idx < batch.cursor ? 'completed' : 'processing';
    const finishedAt = status === 'processing' ? null : iso(chunkFinishedAt[Math.floor(idx / batch.chunk_size)] ?? null);
    return {
      code: codeOf(batch.endpoint, action, item),
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
