// Frozen once shipped. The message outbox (issue 15): every message to a person (sign-in
// codes; the in-app events a person opted into) is a row written in the transaction that
// causes it and sent by the worker, which owns its state on the row like webhook
// deliveries: status, attempts, next attempt time, lease, last error; one attempts row
// per try. A person's preferences say which events reach them, by which channel, and in
// which language.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table messages (
     id bigint generated always as identity primary key,
     purpose text not null check (purpose in ('code', 'event')),
     to_kind text not null check (to_kind in ('phone', 'email')),
     recipient text not null,
     channel text check (channel in ('email', 'sms', 'whatsapp')),
     language text not null default 'es',
     only_if_known boolean not null default false,
     subject text,
     body text not null,
     variables jsonb,
     status text not null default 'pending' check (status in ('pending', 'sent', 'failed', 'dropped')),
     attempts int not null default 0,
     next_attempt_at timestamptz not null default now(),
     locked_until timestamptz,
     last_error text,
     sent_via text,
     expires_at timestamptz,
     created_at timestamptz not null default now(),
     sent_at timestamptz)`,
  `create index messages_due on messages (next_attempt_at) where status = 'pending'`,
  `create index messages_recent on messages (created_at desc)`,
  `create table message_attempts (
     id bigint generated always as identity primary key,
     message_id bigint not null references messages(id) on delete cascade,
     attempt int not null,
     channel text not null,
     ok boolean not null,
     error text,
     duration_ms int not null,
     created_at timestamptz not null default now())`,
  `create index message_attempts_message on message_attempts (message_id, attempt)`,
  `create table person_preferences (
     person_id bigint primary key references people(id) on delete cascade,
     language text not null default 'es' check (language in ('es', 'pt-BR', 'en')),
     channel text check (channel in ('email', 'sms', 'whatsapp')),
     events text[] not null default '{}',
     updated_at timestamptz not null default now())`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
