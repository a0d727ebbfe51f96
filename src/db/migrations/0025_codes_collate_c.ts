// Frozen once shipped. A product's and a store's internalCode compare by their bytes
// (collate "C") in the column itself, so one unique index serves both the lookup by code
// and the lists in code order, and no query can be planned on the wrong one.
//
// Why: migration 0020 added an index on (supplier_id, internal_code collate "C") beside
// the unique one on (supplier_id, internal_code). A lookup by code can use only the
// unique one for both columns; the other matches supplier_id alone and filters the code.
// With statistics that do not know yet how many rows a supplier has (a table that has not
// been analyzed since a supplier's first large load, which is exactly when it grows), the
// planner costed the two alike and could pick the second: every probe of a batch chunk
// then read all of the supplier's rows, and a 50,000-product import slowed with every
// chunk (EXPLAIN showed 200,000 buffers read for 2,500 probes; docs/benchmarks.md).
//
// Equality is the same under "C" as under any deterministic collation, so no lookup
// changes its answer; an expression comparing the column with a parameter or another
// column takes the column's collation. Changing a column's collation rewrites no row,
// only the indexes on it.
import { sql, type Kysely } from 'kysely';

const statements = [
  `alter table products alter column internal_code type text collate "C"`,
  `alter table stores alter column internal_code type text collate "C"`,
  `drop index products_code_c`,
  `drop index stores_code_c`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
