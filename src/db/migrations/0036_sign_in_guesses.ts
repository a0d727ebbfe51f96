// Frozen once shipped. A sign-in code remembers where it was asked from, so that nobody
// elsewhere can use it against the person it was sent to (issue 29): code requests are
// counted per identifier and client network, a new code ends only the earlier ones asked
// from the same network, and wrong guesses from other networks are counted apart
// (foreign_attempts) instead of burning the code.
//
// requested_from: an IPv4 address or an IPv6 /64 ("2001:db8:0:1::/64"); null on codes
// issued before this migration, which count as asked from elsewhere until they expire
// (5 minutes at most).
import { sql, type Kysely } from 'kysely';

const statements = [
  `alter table sign_in_codes
     add column requested_from text,
     add column foreign_attempts int not null default 0`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
