// Frozen once shipped. Store-user identity (issue 12): a store membership names the phone
// and/or email its supplier gave, and signing in with one identifier opens exactly the
// memberships that name it. A person (people) is a sign-in account whose phone and email
// were each proven with a code; nothing a supplier sends writes to it any more.
//
// Existing data:
// - A person holding both a phone and an email got the second one from some supplier, never
//   from a proof, so the link is not trusted: the phone stays on the person (same id, so
//   their tokens, reads, orders and tickets stay theirs) and the email becomes a person of
//   its own. Nobody loses a membership: each membership keeps the phone and email its own
//   supplier gave, and each of those still signs in. Reaching a store through an identifier
//   its supplier never named is exactly what the takeover used; a person who owns both proves
//   the second one once (POST /app/me/identifiers) to see everything together again.
// - store_users loses person_id and gets its own id; access is computed from its phone and
//   email. A membership with neither (none should exist) takes its person's phone, else email.
// - Only the newest live sign-in code of an identifier stays live.
import { sql, type Kysely } from 'kysely';

const statements = [
  `update store_users u set phone = p.phone, email = case when p.phone is null then p.email end
     from people p where p.id = u.person_id and u.phone is null and u.email is null`,

  `create temporary table split_people as
     select id, email, name, created_at from people where phone is not null and email is not null`,
  `update people set email = null, updated_at = now() where id in (select id from split_people)`,
  `insert into people (email, name, created_at) select email, name, created_at from split_people order by id`,
  `drop table split_people`,

  `alter table store_users drop constraint store_users_pkey`,
  `drop index if exists store_users_person`,
  `alter table store_users drop column person_id`,
  `alter table store_users add column id bigint generated always as identity`,
  `alter table store_users add primary key (id)`,
  `alter table store_users add check (phone is not null or email is not null)`,
  `create index store_users_store on store_users (store_id, supplier_id)`,
  `create index store_users_phone on store_users (phone) where phone is not null`,
  `create index store_users_email on store_users (email) where email is not null`,

  // A code asked for by a signed-in person to prove a second identifier names that person;
  // a sign-in code names nobody.
  `alter table sign_in_codes add column person_id bigint references people(id) on delete cascade`,
  `update sign_in_codes c set consumed_at = now()
     where consumed_at is null and expires_at > now()
       and exists (select 1 from sign_in_codes n where n.identifier = c.identifier and n.id > c.id)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
