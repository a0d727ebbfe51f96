// Frozen once shipped. The audit log: one row per write by a supplier credential, an
// operator or (later) a console person, inserted in the write's own transaction.
// - supplier_id is the supplier the write concerns (null for platform-wide writes); a
//   supplier reads the rows carrying its id, and nothing else.
// - Rows are never updated; the retention job deletes them by age (id order follows time).
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table audit_entries (
     id bigint generated always as identity primary key,
     at timestamptz not null default now(),
     supplier_id bigint references suppliers(id),
     actor_kind text not null check (actor_kind in ('credential', 'operator', 'person')),
     actor_id text not null,
     operation text not null,
     entity text not null,
     entity_id text,
     detail jsonb,
     request_id text,
     client_address text)`,
  `create index audit_entries_supplier on audit_entries (supplier_id, id)`,
  `create index audit_entries_actor on audit_entries (actor_id, id)`,
  `create index audit_entries_at on audit_entries (at)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
