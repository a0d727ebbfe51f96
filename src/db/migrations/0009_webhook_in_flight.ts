// Frozen once shipped. The deliveries a supplier has in flight (leased and pending), found
// without reading its delivery history: the dispatcher caps them per supplier.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create index webhook_deliveries_in_flight on webhook_deliveries (supplier_id, lease_expires_at) where status = 'pending' and lease_owner is not null`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
