// Frozen once shipped. A product's brand and category are its own supplier's: each foreign
// key of products names the supplier with the id, (supplier_id, brand_id) to brands and
// (supplier_id, category_id) to categories, so the database refuses a product pointing at
// another supplier's brand or category (until now only the batch apply's lookups by
// supplier kept them apart). The key from products to suppliers goes: a product's
// supplier is its brand's, which has its own key to suppliers.
//
// Two per-row checks instead of three: a chunk of 2,500 new products spent 25 of its 50
// ms in the three (docs/benchmarks.md, "bench:catalog"). The new keys are added NOT VALID
// and then validated, which reads products once without blocking writes to it; a row
// that breaks them stops the migration, as it should.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create unique index brands_supplier_id_id on brands (supplier_id, id)`,
  `create unique index categories_supplier_id_id on categories (supplier_id, id)`,
  `alter table products
     add constraint products_brand_fkey foreign key (supplier_id, brand_id) references brands (supplier_id, id) not valid,
     add constraint products_category_fkey foreign key (supplier_id, category_id) references categories (supplier_id, id) not valid`,
  `alter table products validate constraint products_brand_fkey`,
  `alter table products validate constraint products_category_fkey`,
  `alter table products
     drop constraint products_supplier_id_fkey,
     drop constraint products_brand_id_fkey,
     drop constraint products_category_id_fkey`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
