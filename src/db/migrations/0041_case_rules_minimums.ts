// Frozen once shipped. Minimums per delivery and case rules (issue 31, second part;
// src/modules/pricing/README.md, src/modules/orders/README.md).
//
// - products.min_units, max_units, multiple: a product's case rules, in units (a cart's
//   quantity × units summed over the product's lines). Null: no rule, as every product
//   before this migration. Whole numbers of 1 or more; the API checks the same.
// - batch_product_chunks.min_units, max_units, multiples: POST /batch/product's new
//   fields, staged like the others (one element per item, null when not sent or sent as
//   null; `sent` bits 8, 16 and 32 say which were sent). Null in chunks staged before this
//   migration: their items sent none, and ROWS FROM reads a null array as nulls.
// - orders.delivery_fee: the fee a store's order was charged for staying below a zone's
//   minimum in `fee` mode (included in its total); null for every other order.
// - orders_store_delivery: a store's orders for one delivery date, summed when an order
//   alone is below the minimum (a top-up): the read costs that store's orders for that
//   date. Partial: an order without a delivery date (no zone, none asked) adds no entry.
import { sql, type Kysely } from 'kysely';

const statements = [
  `alter table products
     add column min_units integer check (min_units >= 1),
     add column max_units integer check (max_units >= 1),
     add column multiple integer check (multiple >= 1)`,
  `alter table batch_product_chunks add column min_units integer[], add column max_units integer[], add column multiples integer[]`,
  `alter table orders add column delivery_fee numeric`,
  `create index orders_store_delivery on orders (store_id, delivery_date) where delivery_date is not null`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
