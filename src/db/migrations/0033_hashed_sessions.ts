// Frozen once shipped. Nothing stored opens a session (docs/security.md, "Secrets at rest"):
// - console sessions are keyed by the SHA-256 (hex) of the id their token carries. The ids
//   already stored are hashed in place, so the tokens handed out before keep working: the
//   service hashes what a token carries before it looks the session up;
// - store users' sessions become rows too, keyed the same way (the token carries the
//   session id, the row its hash), so signing out ends one session on the server and a
//   copy of the database, signing key included, forges no token. Store tokens issued
//   before this migration name no session and stop working: their people sign in again;
// - ending a store session (an UPDATE: sign-out, an operator ending a person's sessions)
//   sends NOTIFY store_data_changed, like every change the store side caches (0016), so
//   every process forgets the sessions it had checked.
import { sql, type Kysely } from 'kysely';

const statements = [
  `alter table console_sessions alter column id type text using encode(sha256(convert_to(id::text, 'UTF8')), 'hex')`,

  `create table store_sessions (
     id text primary key,
     person_id bigint not null references people(id) on delete cascade,
     created_at timestamptz not null default now(),
     expires_at timestamptz not null,
     revoked_at timestamptz)`,
  `create index store_sessions_person on store_sessions (person_id) where revoked_at is null`,
  `create index store_sessions_expires on store_sessions (expires_at)`,
  `create trigger store_sessions_store_data_changed after update on store_sessions for each statement execute function store_data_changed()`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
