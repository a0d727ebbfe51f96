// The retention job: one sweep per interval in every worker process, deleting what each
// kind's setting no longer keeps, a bounded chunk per statement (retention.repository.ts).
// Adding a kind is one entry in `retentionKinds`.
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { DB } from '../../db/types.ts';
import { PollingWorker, type WorkerLogger } from '../../lib/polling-worker.ts';
import type { ImageStorage } from '../images/images.storage.ts';
import * as repo from './retention.repository.ts';

export interface RetentionContext {
  db: Kysely<DB>;
  storage: ImageStorage;
}

export interface RetentionKind {
  /** Named in logs and in the sweep's answer. */
  name: string;
  /** Days kept, from the settings; 0 keeps the kind for ever. */
  days: (config: Config) => number;
  /** Deletes at most `limit` rows older than `days`; answers how many went. */
  sweep: (ctx: RetentionContext, days: number, limit: number) => Promise<number>;
}

export const retentionKinds: RetentionKind[] = [
  // File imports before their batches: their parts (each carries up to 1,000 rows, so a
  // fiftieth of the chunk), then the imports left without parts.
  { name: 'import parts', days: (c) => c.retention.batchDays, sweep: ({ db }, days, limit) => repo.deleteOldImportParts(db, days, Math.max(1, Math.floor(limit / 50))) },
  { name: 'imports', days: (c) => c.retention.batchDays, sweep: ({ db }, days, limit) => repo.deleteOldImports(db, days, limit) },
  // Results and staged items first, then the batches left without either. A row of staged
  // items carries a chunk of a batch's items, and a batch row may carry its items, so a
  // fiftieth of the chunk of those.
  { name: 'batch item results', days: (c) => c.retention.batchDays, sweep: ({ db }, days, limit) => repo.deleteFinishedBatchResults(db, days, limit) },
  { name: 'staged batch items', days: (c) => c.retention.batchDays, sweep: ({ db }, days, limit) => repo.deleteFinishedStagedItems(db, days, Math.max(1, Math.floor(limit / 50))) },
  { name: 'batches', days: (c) => c.retention.batchDays, sweep: ({ db }, days, limit) => repo.deleteFinishedBatches(db, days, Math.max(1, Math.floor(limit / 50))) },
  { name: 'webhook deliveries', days: (c) => c.retention.webhookDays, sweep: ({ db }, days, limit) => repo.deleteFinishedDeliveries(db, days, limit) },
  { name: 'webhook events', days: (c) => c.retention.webhookDays, sweep: ({ db }, days, limit) => repo.deleteOrphanEvents(db, days, limit) },
  { name: 'idempotency keys', days: (c) => c.retention.idempotencyDays, sweep: ({ db }, days, limit) => repo.deleteOldIdempotencyKeys(db, days, limit) },
  { name: 'sign-in codes', days: (c) => c.retention.signInCodeDays, sweep: ({ db }, days, limit) => repo.deleteExpiredSignInCodes(db, days, limit) },
  { name: 'console sessions', days: (c) => c.retention.sessionDays, sweep: ({ db }, days, limit) => repo.deleteEndedConsoleSessions(db, days, limit) },
  { name: 'store sessions', days: (c) => c.retention.sessionDays, sweep: ({ db }, days, limit) => repo.deleteEndedStoreSessions(db, days, limit) },
  { name: 'images', days: (c) => c.retention.imageDays, sweep: sweepImages },
  { name: 'audit entries', days: (c) => c.retention.auditDays, sweep: ({ db }, days, limit) => repo.deleteOldAuditEntries(db, days, limit) },
  { name: 'messages', days: (c) => c.retention.messageDays, sweep: ({ db }, days, limit) => repo.deleteFinishedMessages(db, days, limit) },
];

/**
 * Image rows go first, then the files no remaining row shares (identical bytes under
 * another URL or supplier keep theirs). A crash in between leaves files nothing refers
 * to, which is only disk space; the other order could leave rows pointing at no files.
 */
async function sweepImages({ db, storage }: RetentionContext, days: number, limit: number): Promise<number> {
  const rows = await repo.deleteUnreferencedImages(db, days, Math.max(1, Math.floor(limit / 10)));
  const byHash = new Map<string, string[]>();
  for (const row of rows) {
    if (!row.content_hash || !row.variants) continue;
    byHash.set(row.content_hash, Object.values(row.variants).map((v) => v.file));
  }
  for (const hash of await repo.unusedContentHashes(db, [...byHash.keys()])) {
    for (const file of byHash.get(hash)!) await storage.delete(`${hash}/${file}`);
  }
  return rows.length;
}

export interface SweepOptions {
  chunk: number;
  /** Asked between chunks: true stops the sweep (the worker is stopping). */
  stopping?: () => boolean;
}

/** One pass over every kind, chunk after chunk until a kind has nothing old left. Answers the rows deleted per kind. */
export async function sweep(ctx: RetentionContext, config: Config, options: SweepOptions): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const kind of retentionKinds) {
    const days = kind.days(config);
    if (days === 0) continue;
    let total = 0;
    for (;;) {
      if (options.stopping?.()) break;
      const n = await kind.sweep(ctx, days, options.chunk);
      total += n;
      if (n === 0) break;
      // Embedded PGlite runs on this thread: let requests in between chunks.
      await new Promise((resolve) => setImmediate(resolve));
    }
    deleted[kind.name] = total;
  }
  return deleted;
}

/** Runs `sweep` at start and then every RETENTION_INTERVAL_MINUTES. */
export class RetentionWorker extends PollingWorker {
  constructor(
    private readonly ctx: RetentionContext,
    private readonly config: Config,
    private readonly logger: WorkerLogger,
  ) {
    super({ name: 'retention job', concurrency: 1, pollMs: config.retention.intervalMinutes * 60_000, logger });
  }

  protected async work() {
    const deleted = await sweep(this.ctx, this.config, { chunk: this.config.retention.chunkSize, stopping: () => this.stopping });
    const total = Object.values(deleted).reduce((a, b) => a + b, 0);
    if (total > 0) this.logger.info({ deleted }, 'retention job deleted old rows');
    return false;
  }
}
