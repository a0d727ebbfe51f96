// Frozen. Promotion and stock groupers share one table (kind), store links are kept by
// store code so they may precede the store, and store users are people of the platform
// (not of one supplier), found by phone or email.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table groupers (
     id bigint generated always as identity primary key,
     supplier_id bigint not null references suppliers(id),
     kind text not null check (kind in ('promotion', 'stock')),
     internal_code text not null,
     name text not null,
     enabled boolean not null default true,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     unique (supplier_id, kind, internal_code))`,

  `create table grouper_stores (
     supplier_id bigint not null,
     grouper_id bigint not null references groupers(id),
     kind text not null check (kind in ('promotion', 'stock')),
     store_code text not null,
     created_at timestamptz not null default now(),
     primary key (supplier_id, grouper_id, store_code))`,
  // A store is in at most one stock grouper (adding it moves it); in any number of promotion groupers.
  `create unique index grouper_stores_one_stock on grouper_stores (supplier_id, store_code) where kind = 'stock'`,
  `create index grouper_stores_store on grouper_stores (supplier_id, store_code)`,

  // units 0: the rule covers every package size of the product; a rule for one size wins over it.
  `create table stock_rules (
     supplier_id bigint not null,
     grouper_id bigint not null references groupers(id),
     product_id bigint not null references products(id),
     units int not null check (units >= 0),
     available boolean not null,
     updated_at timestamptz not null default now(),
     primary key (supplier_id, grouper_id, product_id, units))`,

  `alter table stores
     add column legal_name text,
     add column legal_id text,
     add column owner_name text,
     add column phone text,
     add column email text,
     add column addresses jsonb not null default '[]',
     add column drop_size numeric(18,4)`,

  `create table people (
     id bigint generated always as identity primary key,
     phone text unique,
     email text unique,
     name text,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     check (phone is not null or email is not null))`,

  // The contact as this supplier gave it: a supplier sees only what it sent, never what
  // another supplier knows of the same person.
  `create table store_users (
     supplier_id bigint not null,
     store_id bigint not null references stores(id),
     person_id bigint not null references people(id),
     phone text,
     email text,
     name text,
     created_at timestamptz not null default now(),
     primary key (supplier_id, store_id, person_id))`,
  `create index store_users_person on store_users (person_id)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
