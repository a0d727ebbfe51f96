// Frozen once shipped. The batch claim (batch.repository.ts, claimNextBatch) walks the
// unfinished batches oldest first and stops at the first one it may lease, so it reads
// what it passes over, not the whole backlog. batches_pending is ordered by supplier
// first; this one gives every supplier's unfinished batches in acceptance order.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index batches_pending_seq on batches (seq) where finished_at is null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
