// Frozen once shipped. Delivery zones (src/modules/delivery/README.md): a supplier's fixed
// routes, each delivered on given weekdays with a cut-off before each delivery.
//
// - delivery_zones: keyed (supplier_id, internal_code) as every coded entity; its rules
//   (days, exceptions, minimumOrder) are JSON, read whole by the pure rules module, never
//   filtered on. (supplier_id, id) is unique so a store's reference can name the
//   supplier with the id, as orders name their store (migration 0032). A change sends
//   NOTIFY store_data_changed (migration 0016): the store side caches a store's zone.
// - stores.delivery_zone_id: a store belongs to at most one zone; null keeps today's
//   behaviour. The key names the supplier, so a store never points at another
//   supplier's zone whatever path wrote it.
// - orders.delivery_zone_id, orders.after_cutoff: the zone an order was placed for and
//   whether it came after its date's cut-off (flexible zones); both null for an order
//   placed without a zone. No foreign key on the zone: the placer copies it from the
//   store's own (keyed) reference, zones are never deleted, and a key would add a check
//   to every placement, the path migration 0032 made cheaper. The partial index serves
//   GET /order?deliveryDate=&deliveryZone= and the cut-off job's order ids.
// - delivery_cutoffs: one row per (zone, delivery date) whose cut-off has been reached,
//   inserted by whichever worker gets there first (ON CONFLICT DO NOTHING), in the
//   transaction that records the delivery.cutoff_reached event: never sent twice.
// - supplier_webhooks.events: the opt-in event types the supplier subscribed to (empty:
//   only the events every supplier gets, as before).
// - batch_store_chunks.delivery_zones / delivery_zone_ix: POST /batch/store's
//   deliveryZoneCode, staged like the price list codes (once per chunk, each item's
//   place among them). Null in chunks staged before this migration: their items sent none.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table delivery_zones (
     id bigint generated always as identity primary key,
     supplier_id bigint not null references suppliers(id),
     internal_code text collate "C" not null,
     name text not null,
     timezone text not null,
     cutoff_mode text not null check (cutoff_mode in ('strict', 'flexible')),
     days jsonb not null,
     exceptions jsonb not null default '[]',
     minimum_order jsonb,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     unique (supplier_id, internal_code),
     unique (supplier_id, id))`,
  `create trigger delivery_zones_store_data_changed after insert or update or delete or truncate on delivery_zones
     for each statement execute function store_data_changed()`,
  `alter table stores add column delivery_zone_id bigint`,
  `alter table stores
     add constraint stores_delivery_zone_fkey foreign key (supplier_id, delivery_zone_id) references delivery_zones (supplier_id, id)`,
  `create index stores_delivery_zone on stores (delivery_zone_id) where delivery_zone_id is not null`,
  `alter table orders add column delivery_zone_id bigint, add column after_cutoff boolean`,
  `create index orders_delivery on orders (supplier_id, delivery_date, delivery_zone_id) where delivery_date is not null`,
  `create table delivery_cutoffs (
     zone_id bigint not null references delivery_zones(id),
     delivery_date date not null,
     supplier_id bigint not null references suppliers(id),
     cutoff_at timestamptz not null,
     order_count int not null,
     reached_at timestamptz not null default now(),
     primary key (zone_id, delivery_date))`,
  `alter table supplier_webhooks add column events text[] not null default '{}'`,
  `alter table batch_store_chunks add column delivery_zones text[], add column delivery_zone_ix int[]`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
