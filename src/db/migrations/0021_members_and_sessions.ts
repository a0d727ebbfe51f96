// Frozen once shipped. The people of a supplier and of the platform, and their console
// sessions (src/modules/console/README.md):
// - a supplier can be disabled: its credentials and console sessions stop at once and its
//   stores show to buyers as closed;
// - supplier members (one role per supplier and email) and operators (platform staff);
// - console sessions, checked on every request (revocable, ended after 30 idle minutes);
// - sign-in codes carry their realm, so a console code never ends a shop code and their
//   limits are counted apart;
// - a store user's sessions can be ended: tokens issued before `sessions_revoked_at` fail.
import { sql, type Kysely } from 'kysely';

const statements = [
  `alter table suppliers add column enabled boolean not null default true`,

  `create table supplier_members (
     id bigint generated always as identity primary key,
     supplier_id bigint not null references suppliers(id) on delete cascade,
     email text not null,
     role text not null check (role in ('owner', 'manager', 'agent', 'viewer')),
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     unique (supplier_id, email))`,
  `create index supplier_members_email on supplier_members (email)`,

  `create table operators (
     id bigint generated always as identity primary key,
     email text not null unique,
     created_at timestamptz not null default now())`,

  `create table console_sessions (
     id uuid primary key,
     email text not null,
     supplier_id bigint references suppliers(id) on delete cascade,
     created_at timestamptz not null default now(),
     last_used_at timestamptz not null default now(),
     expires_at timestamptz not null,
     ends_at timestamptz not null,
     revoked_at timestamptz)`,
  `create index console_sessions_email on console_sessions (email) where revoked_at is null`,

  `alter table sign_in_codes add column realm text not null default 'store' check (realm in ('store', 'console'))`,
  `drop index sign_in_codes_identifier`,
  `create index sign_in_codes_identifier on sign_in_codes (realm, identifier, created_at desc)`,

  `alter table people add column sessions_revoked_at timestamptz`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
