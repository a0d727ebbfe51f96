// Frozen once shipped. The W3C traceparent of the request that caused a batch or a webhook
// delivery (null when tracing was off), so applying it later links back to that request.
import { sql, type Kysely } from 'kysely';

const statements = [
  `alter table batches add column traceparent text`,
  `alter table webhook_deliveries add column traceparent text`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
