// Applies accepted batches. Correctness lives in the rows, not in this process:
// - A batch is leased (lease_owner, lease_expires_at); a worker that dies loses its
//   lease when it expires and any worker claims the batch again.
// - Each chunk is one transaction that re-checks the lease and the cursor under a row
//   lock, applies the items, records their outcomes and advances the cursor. A chunk is
//   therefore applied entirely or not at all, and never twice: a crash mid-chunk rolls
//   it back, and a worker whose lease was taken over finds the cursor moved and stops.
// - Polling and in-process wake-ups only shorten the wait; they never own correctness.
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { isConnectionError } from '../../db/errors.ts';
import { PollingWorker, type WorkerLogger } from '../../lib/polling-worker.ts';
import type { WorkMetrics } from '../../observability/metrics.ts';
import { inSpan, type Tracing } from '../../observability/tracing.ts';
import type { BatchItem, DB } from '../../db/types.ts';
import type { BatchKind, BatchRegistry, ItemOutcome, PlacedOutcome } from './batch.kinds.ts';
import * as repo from './batch.repository.ts';

export interface BatchWorkerOptions {
  concurrency: number;
  pollMs: number;
  leaseSeconds: number;
  logger: WorkerLogger;
  /** Counts the items applied and failed, by endpoint. */
  metrics?: Pick<WorkMetrics, 'batchItemsApplied'>;
  /** Each batch's application in a span linked to the request that sent it. */
  tracing?: Tracing;
  /** Called after each chunk commits (tests and benchmarks observe progress through it). */
  onChunk?: (batchId: string, cursor: number, endpoint: string) => void | Promise<void>;
}

/** After this many unexpected failures of one chunk, its items are failed so the supplier's queue moves on. */
const MAX_CHUNK_ATTEMPTS = 5;

class LeaseLost extends Error {}

export class BatchWorker extends PollingWorker {
  readonly id = `worker-${randomUUID()}`;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly registry: BatchRegistry,
    private readonly options: BatchWorkerOptions,
  ) {
    super({ name: 'batch worker', concurrency: options.concurrency, pollMs: options.pollMs, logger: options.logger });
  }

  protected async work() {
    const batch = await repo.claimNextBatch(this.db, this.id, this.options.leaseSeconds);
    if (!batch) return false;
    await inSpan(this.options.tracing, 'batch apply', { 'batch.id': batch.id, 'batch.endpoint': batch.endpoint, 'batch.cursor': batch.cursor }, batch.traceparent, () => this.process(batch));
    return true;
  }

  private async process(batch: repo.ClaimedBatch) {
    const kind = this.registry.get(batch.endpoint);
    // A staged kind's items stay in the database: each chunk is applied from its rows.
    const items = kind.staging ? undefined : await repo.loadItems(this.db, batch.id);
    let cursor = batch.cursor;
    while (cursor < batch.total) {
      if (this.stopping) {
        await repo.releaseLease(this.db, batch.id, this.id);
        return;
      }
      const end = Math.min(cursor + batch.chunk_size, batch.total);
      const size = end - cursor;
      let failedCount = 0;
      try {
        await this.db.transaction().execute(async (trx) => {
          if (!(await repo.lockForChunk(trx, batch.id, this.id, cursor))) throw new LeaseLost();
          const outcomes: PlacedOutcome[] =
            batch.attempts >= MAX_CHUNK_ATTEMPTS
              ? Array.from({ length: size }, (_, i) => ({ idx: cursor + i, outcome: gaveUp }))
              : items
                ? await applyChunk(trx, kind, batch.supplier_id, cursor, items.slice(cursor, end))
                : await applyStagedChunk(trx, kind, batch, cursor, end);
          const results: repo.ResultRow[] = [];
          failedCount = 0;
          for (const { idx, outcome: o } of outcomes) {
            if (o.status === 'failed') failedCount++;
            if (o.status === 'failed' || o.message) {
              results.push({ idx, status: o.status, error_code: o.errorCode ?? null, message: o.message ?? null });
            }
          }
          await repo.insertResults(trx, batch.supplier_id, batch.id, results);
          await repo.advance(trx, batch.id, {
            cursor: end,
            completed: size - failedCount,
            failed: failedCount,
            total: batch.total,
            leaseSeconds: this.options.leaseSeconds,
          });
        });
      } catch (error) {
        if (error instanceof LeaseLost) return; // another worker owns it now
        const retryIn = isConnectionError(error) ? 1 : Math.min(60, 2 ** (batch.attempts + 1));
        this.options.logger.error({ err: error, batchId: batch.id, cursor }, 'batch chunk failed; it will be retried');
        await repo.releaseLease(this.db, batch.id, this.id, retryIn, error instanceof Error ? error.message : String(error)).catch(() => {});
        return;
      }
      this.options.metrics?.batchItemsApplied(batch.endpoint, size - failedCount, failedCount);
      batch.attempts = 0;
      cursor = end;
      await this.options.onChunk?.(batch.id, cursor, batch.endpoint);
      // Embedded PGlite runs queries on this thread and resolves them as microtasks: without
      // a turn of the event loop between chunks, requests would wait for the whole batch.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

}

const gaveUp: ItemOutcome = {
  status: 'failed',
  errorCode: 'PROCESSING_ERROR',
  message: 'the item could not be applied after several attempts; send it again or contact support',
};

const actionOf = (kind: BatchKind, name: string) => {
  const action = kind.actions.find((a) => a.name === name);
  if (!action) throw new Error(`batch kind ${kind.endpoint} has no action ${name}`);
  return action;
};

/** Runs of consecutive items with one action go to that action together, in order; `first` is the chunk's first idx. */
async function applyChunk(trx: Transaction<DB>, kind: BatchKind, supplierId: number, first: number, chunk: BatchItem[]): Promise<PlacedOutcome[]> {
  const outcomes: PlacedOutcome[] = [];
  let start = 0;
  while (start < chunk.length) {
    const name = chunk[start]!.action;
    let end = start;
    while (end < chunk.length && chunk[end]!.action === name) end++;
    const run = chunk.slice(start, end).map((c) => c.item);
    const applied = await actionOf(kind, name).apply!(trx, supplierId, run);
    if (applied.length !== run.length) throw new Error(`${kind.endpoint} ${name} returned ${applied.length} outcomes for ${run.length} items`);
    applied.forEach((outcome, i) => outcomes.push({ idx: first + start + i, outcome }));
    start = end;
  }
  return outcomes;
}

/**
 * A staged chunk [from, to): each run of its batch's `actions` that meets it is applied from
 * the chunk's staging row, in order; only outcomes that are not a plain completion come back.
 * Chunks start at multiples of the batch's chunk size, as they were staged.
 */
async function applyStagedChunk(trx: Transaction<DB>, kind: BatchKind, batch: repo.ClaimedBatch, from: number, to: number): Promise<PlacedOutcome[]> {
  if (from % batch.chunk_size !== 0) throw new Error(`batch ${batch.id}: a chunk starts at ${from}, not a multiple of its chunk size ${batch.chunk_size}`);
  const chunk = from / batch.chunk_size;
  const outcomes: PlacedOutcome[] = [];
  let runStart = 0;
  for (const [name, count] of batch.actions) {
    const start = Math.max(from, runStart);
    const end = Math.min(to, runStart + count);
    runStart += count;
    if (start >= end) continue;
    for (const placed of await actionOf(kind, name).applyStaged!(trx, batch.supplier_id, { batchSeq: batch.seq, chunk, first: from, from: start, to: end })) {
      if (placed.idx < start || placed.idx >= end) throw new Error(`${kind.endpoint} ${name} answered item ${placed.idx} outside ${start}..${end - 1}`);
      outcomes.push(placed);
    }
  }
  return outcomes;
}
