import { sql, type Kysely } from 'kysely';
import type { DB } from './types.ts';

/** The queues whose rows own their state: waiting while `status = 'pending'`, due at `next_attempt_at`. */
export type PendingRowsTable = 'images' | 'messages' | 'webhook_deliveries';

/**
 * For the metrics scrape: the rows of a queue waiting (pending, retries included), and how
 * long the oldest due one has waited past its due time (0 when none is due). Reads only
 * the pending rows (each table has a partial index of them).
 */
export async function pendingRowsStats(db: Kysely<DB>, table: PendingRowsTable): Promise<{ depth: number; oldestAgeSeconds: number }> {
  const result = await sql<{ depth: number; oldestAgeSeconds: number }>`
    select count(*)::int as "depth",
      coalesce(extract(epoch from now() - min(next_attempt_at) filter (where next_attempt_at <= now())), 0)::float8 as "oldestAgeSeconds"
    from ${sql.table(table)} where status = 'pending'`.execute(db);
  return result.rows[0]!;
}
