// Frozen once shipped. A batch may carry the range of the keys its items write (see
// src/modules/batch/README.md, "Ordering"): a supplier's later batch whose range does not
// meet an earlier unfinished one of the same endpoint may run beside it. Compared
// byte-wise (collate "C") so the same batches overlap on every database.
import { sql, type Kysely } from 'kysely';

const statements = [
  `alter table batches add column key_min text collate "C", add column key_max text collate "C"`,
  `alter table batches add constraint batches_key_range check ((key_min is null) = (key_max is null) and key_min <= key_max)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
