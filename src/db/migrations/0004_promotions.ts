// Frozen once shipped. Promotions of the four types share one table: the fields every
// type has are columns; the one tier field a promotion has is kept as sent (validated)
// in `tiers`, named by `tier_kind`. jsonb keeps JSON numbers as exact decimals, so the
// money in a cash tier is stored exactly as the client wrote it.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table promotions (
     id bigint generated always as identity primary key,
     supplier_id bigint not null references suppliers(id),
     internal_code text not null,
     type text not null check (type in ('DISCOUNT_SIMPLE', 'DISCOUNT_MULTIPLE', 'BONUS_INDIVIDUAL', 'BONUS_CROSSED')),
     name text not null,
     title text,
     description text,
     image text,
     enabled boolean not null,
     start_date date not null,
     end_date date not null,
     tier_kind text not null check (tier_kind in ('discountTiersData', 'discountTiersDataCash', 'bonusTierData', 'bonusTierDataCash')),
     tiers jsonb not null,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     unique (supplier_id, internal_code),
     check (end_date > start_date))`,
  // GET /promotion pages by start date, then code (byte order, as every code sort).
  `create index promotions_by_start on promotions (supplier_id, start_date, internal_code collate "C")`,

  // The products a promotion measures (for a crossed bonus, the trigger products), in the order sent.
  `create table promotion_products (
     supplier_id bigint not null,
     promotion_id bigint not null references promotions(id) on delete cascade,
     product_id bigint not null references products(id),
     box_ratio numeric(18,4) not null check (box_ratio > 0),
     position int not null,
     primary key (supplier_id, promotion_id, product_id))`,

  // No rows: visible to every store of the supplier.
  `create table promotion_groupers (
     supplier_id bigint not null,
     promotion_id bigint not null references promotions(id) on delete cascade,
     grouper_id bigint not null references groupers(id),
     primary key (supplier_id, promotion_id, grouper_id))`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
