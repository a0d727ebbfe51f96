// Frozen once shipped. "Lo de siempre" (src/modules/order-guide/README.md) and the
// supplier's recommendations (src/modules/recommendations/README.md).
//
// - suppliers.order_guide_days: how far back a store's order guide and its cadence
//   suggestions look (default 90 days, 7 to 365), a supplier setting.
// - orders_store_created: the order guide reads one store's orders placed since a date
//   (imported history included, whose ids do not follow its dates), so the read costs the
//   store's orders in the window, never all its orders. It replaces nothing:
//   orders_store (store_id, id desc) still serves the newest-first list.
// - order_guide_preferences: a store's pins, hidden products and par per product code.
//   By code, as orders name their lines, so a preference survives a product reloaded by
//   the ERP; the key names the supplier with the store, as orders do (migration 0032).
// - recommendations: a supplier's published suggestions, keyed (supplier_id,
//   internal_code) as every coded entity; their products are JSON, read whole.
// - recommendation_targets: who a recommendation is for, one row per store code or
//   promotion grouper code (by code: a store link may precede its store, as every store
//   link does). A store's read starts from its own code and groupers through
//   (supplier_id, kind, code), so it costs what it answers. A recommendation with no
//   target is for every store of its supplier (`everyone`), found through its own index.
import { sql, type Kysely } from 'kysely';

const statements = [
  `alter table suppliers add column order_guide_days integer not null default 90
     check (order_guide_days between 7 and 365)`,
  `create index orders_store_created on orders (store_id, created_at)`,
  `create table order_guide_preferences (
     supplier_id bigint not null,
     store_id bigint not null,
     product_code text collate "C" not null,
     pinned boolean not null default false,
     hidden boolean not null default false,
     par integer check (par between 0 and 1000000),
     updated_at timestamptz not null default now(),
     primary key (store_id, product_code),
     foreign key (supplier_id, store_id) references stores (supplier_id, id) on delete cascade)`,
  `create table recommendations (
     id bigint generated always as identity primary key,
     supplier_id bigint not null references suppliers(id),
     internal_code text collate "C" not null,
     name text not null,
     reason text not null check (reason in ('NEW', 'PROMOTION', 'MUST_STOCK', 'USUALLY_BOUGHT_TOGETHER')),
     start_date date not null,
     end_date date not null,
     everyone boolean not null,
     products jsonb not null,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     unique (supplier_id, internal_code),
     check (end_date >= start_date))`,
  `create index recommendations_everyone on recommendations (supplier_id, end_date) where everyone`,
  `create index recommendations_start on recommendations (supplier_id, start_date, internal_code)`,
  `create table recommendation_targets (
     recommendation_id bigint not null references recommendations(id) on delete cascade,
     supplier_id bigint not null,
     kind text not null check (kind in ('store', 'grouper')),
     code text collate "C" not null,
     primary key (recommendation_id, kind, code))`,
  `create index recommendation_targets_code on recommendation_targets (supplier_id, kind, code)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
