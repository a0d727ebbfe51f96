// Frozen once shipped. Sellers: a supplier's sales reps ordering for its stores (issue 32,
// second part; src/modules/sellers/README.md).
//
// - sellers: a supplier's people who sell to its stores, keyed (supplier_id,
//   internal_code) as every coded entity: a name and the phone and/or email they sign in
//   with (emails lower case, phones E.164, as store_users). Like a store membership, a
//   seller row names identifiers and never a person: a person reaches a seller's stores
//   by proving one of them (src/modules/store-app/README.md, "The model").
//   sellers_phone and sellers_email serve the membership check, which starts from the
//   person's identifiers.
// - seller_stores: the stores a seller serves, by store code (a link may precede its
//   store, as every store link does); seller_stores_store finds a store's sellers.
// - orders.seller: who placed an order as a seller, as it was when placed ({internalCode,
//   name}); null for every other order. An order's `channel` is not stored: it follows
//   from `imported` and this column (ERP_IMPORT, SELLER, else STORE_APP), so the three
//   can never disagree, and adding it rewrites no row of a large orders table.
// - stores.confirm_seller_orders: the store asks to confirm a seller's orders itself. A
//   seller's order for such a store is kept as a proposal (seller_order_proposals) until
//   one of the store's users accepts it (it is then placed, priced as that day) or
//   declines it; the supplier sees nothing before.
// - sellers, seller_stores and the stores setting send NOTIFY store_data_changed
//   (migration 0016): the store side caches who may act for a store.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table sellers (
     id bigint generated always as identity primary key,
     supplier_id bigint not null references suppliers(id),
     internal_code text collate "C" not null,
     name text not null,
     phone text,
     email text,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     unique (supplier_id, internal_code),
     check (phone is not null or email is not null))`,
  `create index sellers_phone on sellers (phone) where phone is not null`,
  `create index sellers_email on sellers (email) where email is not null`,
  `create table seller_stores (
     seller_id bigint not null references sellers(id) on delete cascade,
     supplier_id bigint not null,
     store_code text collate "C" not null,
     primary key (seller_id, store_code))`,
  `create index seller_stores_store on seller_stores (supplier_id, store_code)`,
  `alter table orders add column seller jsonb`,
  `alter table stores add column confirm_seller_orders boolean not null default false`,
  `create table seller_order_proposals (
     id bigint generated always as identity primary key,
     supplier_id bigint not null,
     store_id bigint not null,
     seller_id bigint references sellers(id) on delete set null,
     seller jsonb not null,
     body jsonb not null,
     status text not null default 'AWAITING_STORE' check (status in ('AWAITING_STORE', 'ACCEPTED', 'DECLINED')),
     order_id bigint references orders(id) on delete set null,
     created_at timestamptz not null default now(),
     decided_at timestamptz,
     foreign key (supplier_id, store_id) references stores (supplier_id, id) on delete cascade)`,
  `create index seller_order_proposals_store on seller_order_proposals (store_id, id desc)`,
  ...['sellers', 'seller_stores'].map(
    (t) => `create trigger ${t}_store_data_changed after insert or update or delete or truncate on ${t} for each statement execute function store_data_changed()`,
  ),
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
