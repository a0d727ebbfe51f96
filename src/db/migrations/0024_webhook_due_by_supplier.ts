// Frozen once shipped. The webhook claim starts from the suppliers whose webhook is
// enabled and reads each one's first due deliveries through this index, so its cost
// follows what it can claim, not the backlog: deliveries of a supplier with no webhook
// wait (they are sent once one is configured) and may number in the millions. The
// index it replaces ordered every supplier's pending deliveries together.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create index webhook_deliveries_supplier_due on webhook_deliveries (supplier_id, next_attempt_at, id) where status = 'pending'`,
  `drop index webhook_deliveries_due`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
