// Frozen once shipped. An order's store is its own supplier's: the key from orders to
// stores names the supplier with the id, (supplier_id, store_id) to stores, so the
// database refuses an order naming another supplier's store (until now only the store
// side's membership checks kept them apart). The key from orders to suppliers goes: an
// order's supplier is its store's, which has its own key to suppliers.
//
// One per-row check instead of two: in a group of 32 store orders the supplier's check was
// the costliest of the six, 0.92 of 3.0 ms (docs/benchmarks.md, "Session 15"). The new
// key is added NOT VALID and then validated, which reads orders once without blocking
// writes to it; a row that breaks it stops the migration, as it should.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create unique index stores_supplier_id_id on stores (supplier_id, id)`,
  `alter table orders
     add constraint orders_store_fkey foreign key (supplier_id, store_id) references stores (supplier_id, id) not valid`,
  `alter table orders validate constraint orders_store_fkey`,
  `alter table orders
     drop constraint orders_supplier_id_fkey,
     drop constraint orders_store_id_fkey`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
