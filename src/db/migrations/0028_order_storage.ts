// Frozen once shipped. How a placed order and its order.created event are stored: the
// order's lines and promotions (about 5.5 and 3 kB of jsonb for 20 lines) and the event's
// body (the order as answered, about 6 kB of JSON text) are compressed on every placement.
// - lz4 instead of the default pglz where the server has it: pglz was a sixth of
//   PostgreSQL's time per order, and lz4 costs a fraction of it for about a quarter more
//   bytes (docs/benchmarks.md, "Session 9"). A server built without lz4 (embedded PGlite)
//   keeps pglz, as batches.items (migration 0008).
// - The row of an order and of an event keeps its compressed JSON inline up to half a
//   page (toast_tuple_target, 2 kB by default): a 20-line order or its event then is one
//   heap tuple, not a tuple and a TOAST row with its TOAST index entry, on the write and
//   on every read. Larger orders go to TOAST as before.
import { sql, type Kysely } from 'kysely';

const statements = [
  `do $$ begin
     alter table orders alter column products set compression lz4, alter column promotions set compression lz4;
     alter table webhook_events alter column body set compression lz4;
   exception when feature_not_supported then null;
   end $$`,
  `alter table orders set (toast_tuple_target = 4080)`,
  `alter table webhook_events set (toast_tuple_target = 4080)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
