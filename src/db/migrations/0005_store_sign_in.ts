// Frozen once shipped. One-time sign-in codes for store users, kept per identifier (a
// phone or an email) whether or not a person has it, so neither the answer nor the rate
// limit tells a caller who exists.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table sign_in_codes (
     id bigint generated always as identity primary key,
     identifier text not null,
     code_hash text not null,
     attempts int not null default 0,
     expires_at timestamptz not null,
     consumed_at timestamptz,
     created_at timestamptz not null default now())`,
  `create index sign_in_codes_identifier on sign_in_codes (identifier, created_at desc)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
