// Frozen once shipped. Every statement that changes what the store side reads (catalogue,
// prices, stock rules, stores and their lists and groupers, promotions, memberships and
// the identities they name)
// sends NOTIFY store_data_changed from the writing transaction: PostgreSQL delivers it to
// every listening process when, and only if, that transaction commits. The store side's
// cache forgets what it knew when it hears one (src/modules/storefront/README.md). One
// trigger per statement, not per row, so a batch chunk of 5,000 rows sends one; NOTIFY
// folds identical notifications of a transaction into one.
import { sql, type Kysely } from 'kysely';

const tables = [
  'suppliers',
  'brands',
  'categories',
  'products',
  'price_lists',
  'price_entries',
  'stores',
  'price_list_stores',
  'groupers',
  'grouper_stores',
  'stock_rules',
  'store_users',
  'people',
  'promotions',
  'promotion_products',
  'promotion_groupers',
];

const statements = [
  `create function store_data_changed() returns trigger language plpgsql as $$
   begin
     perform pg_notify('store_data_changed', '');
     return null;
   end $$`,
  ...tables.map((t) => `create trigger ${t}_store_data_changed after insert or update or delete or truncate on ${t} for each statement execute function store_data_changed()`),
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
