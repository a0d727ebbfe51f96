// Every SQL statement of the images module. The row owns its state: status, attempts,
// next attempt, lease and last error; a worker only ever changes a row it holds the
// lease of, so a worker whose lease expired (and was taken over) changes nothing.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { DB, ImageStatus, StoredImageVariants } from '../../db/types.ts';
import { textIn } from '../../db/sql.ts';
import { pendingRowsStats } from '../../db/queue-stats.ts';

/**
 * The statement that registers the image URLs a query gives (one text column; repeats and
 * nulls allowed) for a supplier, in the caller's transaction (the entity write). A URL
 * already registered keeps its row and state, so the same URL on many entities is
 * downloaded once. In byte order, so concurrent writers of the same URLs, whichever way
 * they came, take their row locks in one order.
 */
export const registerImages = (supplierId: number, urls: RawBuilder<unknown>) => sql`
  insert into images (supplier_id, url)
  select ${supplierId}::bigint, d.url from (select distinct u.url from (${urls}) as u(url) where u.url is not null) d
  order by d.url collate "C"
  on conflict (supplier_id, url) do nothing`;

/** Registers image URLs of a supplier (registerImages), one statement for any number of URLs. */
export async function registerImageUrls(trx: Transaction<DB>, supplierId: number, urls: readonly string[]): Promise<void> {
  if (urls.length === 0) return;
  await registerImages(supplierId, sql`select unnest(${[...urls]}::text[])`).execute(trx);
}

export interface ImageRow {
  url: string;
  status: ImageStatus;
  error: string | null;
  content_hash: string | null;
  variants: StoredImageVariants | null;
}

export async function findImages(db: Kysely<DB>, supplierId: number, urls: readonly string[]): Promise<ImageRow[]> {
  if (urls.length === 0) return [];
  return db
    .selectFrom('images')
    .select(['url', 'status', 'error', 'content_hash', 'variants'])
    .where('supplier_id', '=', supplierId)
    .where(textIn('url', [...new Set(urls)]))
    .execute();
}

export interface ClaimedImage {
  id: number;
  supplier_id: number;
  url: string;
  attempts: number;
}

/**
 * Leases the pending image due first whose lease is free or expired, counting the attempt.
 * SKIP LOCKED lets concurrent workers pass over each other's rows without waiting.
 */
export async function claimNextImage(db: Kysely<DB>, owner: string, leaseSeconds: number): Promise<ClaimedImage | undefined> {
  const result = await sql<ClaimedImage>`
    update images set
      lease_owner = ${owner},
      lease_expires_at = now() + make_interval(secs => ${leaseSeconds}),
      attempts = attempts + 1,
      updated_at = now()
    where id = (
      select id from images
      where status = 'pending' and next_attempt_at <= now()
        and (lease_expires_at is null or lease_expires_at < now())
      order by next_attempt_at
      limit 1
      for update skip locked)
    returning id, supplier_id, url, attempts`.execute(db);
  return result.rows[0];
}

const held = (db: Kysely<DB>, id: number, owner: string) =>
  db.updateTable('images').where('id', '=', id).where('lease_owner', '=', owner).where('status', '=', 'pending');

export async function markReady(db: Kysely<DB>, id: number, owner: string, hash: string, variants: StoredImageVariants) {
  await held(db, id, owner)
    .set({
      status: 'ready',
      content_hash: hash,
      variants: JSON.stringify(variants),
      error: null,
      lease_owner: null,
      lease_expires_at: null,
      updated_at: sql`now()`,
    })
    .execute();
}

export async function markFailed(db: Kysely<DB>, id: number, owner: string, error: string) {
  await held(db, id, owner)
    .set({ status: 'failed', error, lease_owner: null, lease_expires_at: null, updated_at: sql`now()` })
    .execute();
}

/** A transient failure: the image stays pending and is tried again after `retryInSeconds`. */
export async function scheduleRetry(db: Kysely<DB>, id: number, owner: string, error: string, retryInSeconds: number) {
  await held(db, id, owner)
    .set({
      error,
      next_attempt_at: sql`now() + make_interval(secs => ${retryInSeconds})`,
      lease_owner: null,
      lease_expires_at: null,
      updated_at: sql`now()`,
    })
    .execute();
}

/** Gives the image back at once without counting the attempt (the worker is stopping). */
export async function releaseImage(db: Kysely<DB>, id: number, owner: string) {
  await held(db, id, owner)
    .set({ attempts: sql`greatest(attempts - 1, 0)`, lease_owner: null, lease_expires_at: null })
    .execute();
}

/** For the metrics scrape: images waiting to be downloaded (src/db/queue-stats.ts). */
export const queueStats = (db: Kysely<DB>) => pendingRowsStats(db, 'images');
