// Frozen once shipped. Indexes for the supplier API's console reads (docs/decisions.md,
// "Supplier API reads for the console"): lists ordered by code walk an index in that
// order instead of sorting every row of the supplier, whatever the database's locale.
// Codes sort by their bytes (collate "C"), as every list of the API orders them.
import { sql, type Kysely } from 'kysely';

const statements = [
  // A price list's entries and a stock grouper's rules, by product code: the products are
  // walked in code order and each one's entries read from their primary key, so a page
  // of a 50,000-entry list never sorts the whole list.
  `create index products_code_c on products (supplier_id, internal_code collate "C")`,
  `create index stores_code_c on stores (supplier_id, internal_code collate "C")`,
  // GET /batch, newest first (the existing batches_pending index holds unfinished ones only).
  `create index batches_supplier_seq on batches (supplier_id, seq)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
