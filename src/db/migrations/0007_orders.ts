// Frozen once shipped. Orders start on the platform and are managed by their numeric id.
// An order is one aggregate: its lines, promotions, buyer and history are fixed when it
// is placed (or imported) and change only through the lifecycle operations, so they are
// kept as JSON beside the columns that lists filter on.
import { sql, type Kysely } from 'kysely';

const statements = [
  // null: the default set (orders.cancel-codes.ts); the admin API replaces it.
  `alter table suppliers add column cancel_codes jsonb`,

  `create table orders (
     id bigint generated always as identity primary key,
     supplier_id bigint not null references suppliers(id),
     store_id bigint not null references stores(id),
     status text not null check (status in ('PENDING', 'CONFIRMED', 'DELIVERED', 'RETURNED', 'CANCELLED')),
     external_id text,
     imported boolean not null default false,
     buyer jsonb not null,
     address jsonb,
     price_list_code text,
     products jsonb not null,
     promotions jsonb not null default '{"rewards": [], "discounts": []}',
     subtotal numeric(18,4) not null,
     discount_total numeric(18,4) not null,
     total numeric(18,4) not null,
     delivery_date date,
     notes text,
     cancellation jsonb,
     history jsonb not null,
     placed_by bigint references people(id),
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now())`,
  `create index orders_supplier on orders (supplier_id, id desc)`,
  `create index orders_store on orders (store_id, id desc)`,
  `create unique index orders_external_id on orders (supplier_id, external_id) where external_id is not null`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
