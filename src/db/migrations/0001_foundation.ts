// Frozen: never edit a migration that has shipped; add a new one.
// Every table carries supplier_id and leads its keys with it, so the data can be
// distributed by supplier (docs/scaling.md) and no query can forget the tenant.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table suppliers (
     id bigint generated always as identity primary key,
     code text not null unique,
     name text not null,
     minimum_order numeric(18,4),
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now())`,

  `create table api_clients (
     client_id text primary key,
     supplier_id bigint not null references suppliers(id),
     api_key_hash text not null unique,
     secret_hash text not null,
     scopes text[] not null,
     created_at timestamptz not null default now(),
     revoked_at timestamptz)`,
  `create index api_clients_supplier on api_clients (supplier_id)`,

  `create table supplier_webhooks (
     supplier_id bigint primary key references suppliers(id),
     base_url text,
     enabled boolean not null default false,
     secret text not null,
     previous_secret text,
     previous_secret_expires_at timestamptz,
     updated_at timestamptz not null default now())`,

  `create table platform_secrets (
     name text primary key,
     value text not null,
     created_at timestamptz not null default now())`,

  `create table idempotency_keys (
     owner text not null,
     key text not null,
     request_hash text not null,
     state text not null check (state in ('in_progress', 'done')),
     response_status int,
     response_body text,
     created_at timestamptz not null default now(),
     primary key (owner, key))`,
  `create index idempotency_keys_created on idempotency_keys (created_at)`,

  `create table batches (
     id uuid primary key,
     supplier_id bigint not null references suppliers(id),
     seq bigint generated always as identity,
     endpoint text not null,
     items json not null,
     total int not null,
     cursor int not null default 0,
     completed int not null default 0,
     failed int not null default 0,
     status text not null default 'processing' check (status in ('processing', 'processed', 'failed')),
     chunk_size int not null,
     chunk_finished_at timestamptz[] not null default '{}',
     created_at timestamptz not null default now(),
     started_at timestamptz,
     finished_at timestamptz,
     attempts int not null default 0,
     last_error text,
     lease_owner text,
     lease_expires_at timestamptz)`,
  `create index batches_pending on batches (supplier_id, seq) where finished_at is null`,
  `create index batches_finished on batches (finished_at) where finished_at is not null`,

  `create table batch_item_results (
     supplier_id bigint not null,
     batch_id uuid not null references batches(id) on delete cascade,
     idx int not null,
     status text not null check (status in ('completed', 'failed')),
     error_code text,
     message text,
     primary key (supplier_id, batch_id, idx))`,

  `create table brands (
     id bigint generated always as identity primary key,
     supplier_id bigint not null references suppliers(id),
     internal_code text not null,
     name text not null,
     weight double precision,
     image text,
     enabled boolean not null default true,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     unique (supplier_id, internal_code))`,

  `create table categories (
     id bigint generated always as identity primary key,
     supplier_id bigint not null references suppliers(id),
     internal_code text not null,
     parent_id bigint references categories(id),
     name text not null,
     weight double precision,
     image text,
     enabled boolean not null default true,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     unique (supplier_id, internal_code))`,
  `create index categories_parent on categories (parent_id)`,

  `create table products (
     id bigint generated always as identity primary key,
     supplier_id bigint not null references suppliers(id),
     internal_code text not null,
     name text not null,
     description text,
     brand_id bigint not null references brands(id),
     category_id bigint not null references categories(id),
     image text,
     images text[] not null default '{}',
     enabled boolean not null default true,
     ean text,
     display_products jsonb not null default '[]',
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     unique (supplier_id, internal_code))`,

  `create table price_lists (
     id bigint generated always as identity primary key,
     supplier_id bigint not null references suppliers(id),
     internal_code text not null,
     name text,
     enabled boolean not null default true,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     unique (supplier_id, internal_code))`,

  // No foreign keys here on purpose: this is the hottest bulk table, the two per-row key
  // checks cost as much as the insert itself, and the batch worker resolves both ids in
  // the same transaction that writes the row. Products and price lists are never deleted.
  `create table price_entries (
     supplier_id bigint not null,
     price_list_id bigint not null,
     product_id bigint not null,
     units int not null check (units >= 1),
     price numeric(18,4) not null check (price >= 0),
     updated_at timestamptz not null default now(),
     primary key (supplier_id, price_list_id, product_id, units))`,

  // The stores' own fields are filled by POST /batch/store; links to them (price list,
  // groupers) are kept by store code so they may be written before the store exists.
  `create table stores (
     id bigint generated always as identity primary key,
     supplier_id bigint not null references suppliers(id),
     internal_code text not null,
     name text not null,
     enabled boolean not null default true,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     unique (supplier_id, internal_code))`,

  // Keyed by store code, not store id: a link may name a store that does not
  // exist yet and takes effect when it is created. One price list per store.
  `create table price_list_stores (
     supplier_id bigint not null,
     store_code text not null,
     price_list_id bigint not null references price_lists(id),
     created_at timestamptz not null default now(),
     primary key (supplier_id, store_code))`,
  `create index price_list_stores_list on price_list_stores (price_list_id)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
