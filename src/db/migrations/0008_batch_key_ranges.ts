// Frozen once shipped. A batch may carry the range of the keys its items write (see
// src/modules/batch/README.md, "Ordering"): a supplier's later batch whose range does not
// meet an earlier unfinished one of the same endpoint may run beside it. Compared
// byte-wise (collate "C") so the same batches overlap on every database.
//
// A batch's items are written once, read once per claim and kept 30 days: lz4 compresses
// them at about half the CPU cost of the default pglz, on the path of every 202 (the
// same size on disk, measured in docs/benchmarks.md). A server built without lz4
// (embedded PGlite) keeps pglz.
import { sql, type Kysely } from 'kysely';

const statements = [
  `alter table batches add column key_min text collate "C", add column key_max text collate "C"`,
  `alter table batches add constraint batches_key_range check ((key_min is null) = (key_max is null) and key_min <= key_max)`,
  `do $$ begin
     alter table batches alter column items set compression lz4;
   exception when feature_not_supported then null;
   end $$`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
