// Frozen once shipped. One row per supplier and image URL: the row owns the download's
// state (status, attempts, next attempt, lease, last error) and, once ready, the content
// hash and the stored versions. Existing image URLs are registered so they get processed.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table images (
     id bigint generated always as identity primary key,
     supplier_id bigint not null references suppliers(id),
     url text not null,
     status text not null default 'pending' check (status in ('pending', 'ready', 'failed')),
     attempts int not null default 0,
     next_attempt_at timestamptz not null default now(),
     lease_owner text,
     lease_expires_at timestamptz,
     error text,
     content_hash text,
     variants jsonb,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     unique (supplier_id, url))`,
  `create index images_due on images (next_attempt_at) where status = 'pending'`,

  `insert into images (supplier_id, url)
     select supplier_id, image from brands where image is not null
     union select supplier_id, image from categories where image is not null
     union select supplier_id, image from products where image is not null
     union select supplier_id, unnest(images) from products
   on conflict (supplier_id, url) do nothing`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
