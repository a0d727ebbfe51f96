// Frozen once shipped. Indexes the retention job reads by: each finds its old rows by
// age without a scan of the whole table, so a chunked delete stays cheap as tables grow.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create index webhook_deliveries_finished on webhook_deliveries (finished_at) where finished_at is not null`,
  `create index webhook_deliveries_event on webhook_deliveries (supplier_id, event_id)`,
  `create index webhook_events_created on webhook_events (created_at)`,
  `create index sign_in_codes_expires on sign_in_codes (expires_at)`,
  `create index images_updated on images (updated_at)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
