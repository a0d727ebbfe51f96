// Every delete of the retention job. Each statement removes at most `limit` rows chosen by
// a subquery with FOR UPDATE SKIP LOCKED: short transactions that never wait on a row a
// worker holds, and two worker processes sweeping at once share the work instead of
// queueing behind each other.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB, StoredImageVariants } from '../../db/types.ts';

/** Runs a delete and answers how many rows it removed (counted from RETURNING: every driver reports that alike). */
async function deleted(db: Kysely<DB>, statement: RawBuilder<unknown>): Promise<number> {
  const result = await sql`${statement} returning 1`.execute(db);
  return result.rows.length;
}

const cutoff = (days: number) => sql`now() - make_interval(days => ${days})`;

/**
 * Up to `limit` rows of `table` whose `stamp` is older than `days` and that `rest` lets go,
 * chosen by their key (`key`: the primary key's columns, e.g. `supplier_id, id`). `key`
 * and `stamp` are SQL written in this file, never input.
 */
function deleteOlder(db: Kysely<DB>, days: number, limit: number, table: string, key: string, stamp: string, rest = sql`true`) {
  const [t, k, at] = [sql.table(table), sql.raw(key), sql.raw(stamp)];
  return deleted(db, sql`delete from ${t} where (${k}) in (select ${k} from ${t} where ${at} < ${cutoff(days)} and ${rest} limit ${limit} for update skip locked)`);
}

/** The imports past their retention: uploaded before the cutoff, and every batch of theirs finished before it. */
const oldImports = (days: number) => sql`
  select i.id from imports i
   where i.created_at < ${cutoff(days)}
     and not exists (
       select 1 from import_parts p join batches b on b.id = p.batch_id
        where p.import_id = i.id and (b.finished_at is null or b.finished_at >= ${cutoff(days)}))`;

/**
 * The parts of file imports past their retention (src/modules/imports), `limit` rows per
 * statement: an import of a large file has a part per 1,000 rows, each holding those rows,
 * so they go in bounded chunks before the import row itself.
 */
export async function deleteOldImportParts(db: Kysely<DB>, days: number, limit: number) {
  return deleted(db, sql`
    delete from import_parts where (import_id, part) in (
      select p.import_id, p.part from import_parts p
       where p.import_id in (${oldImports(days)})
       limit ${limit} for update skip locked)`);
}

/**
 * File imports past their retention whose parts are gone (deleteOldImportParts runs first):
 * they go before their batches, which the next kinds remove, so an import never outlives them.
 */
export async function deleteOldImports(db: Kysely<DB>, days: number, limit: number) {
  return deleted(db, sql`
    delete from imports where id in (
      select i.id from imports i
       where i.id in (${oldImports(days)})
         and not exists (select 1 from import_parts p where p.import_id = i.id)
       limit ${limit} for update skip locked)`);
}

/**
 * The item results of finished batches, `limit` rows per statement: a batch may hold
 * thousands of them, so they go in bounded chunks before the batch row itself.
 */
export async function deleteFinishedBatchResults(db: Kysely<DB>, days: number, limit: number) {
  return deleted(db, sql`
    delete from batch_item_results where (supplier_id, batch_id, idx) in (
      select r.supplier_id, r.batch_id, r.idx from batches b
        join batch_item_results r on r.supplier_id = b.supplier_id and r.batch_id = b.id
       where b.finished_at < ${cutoff(days)}
       limit ${limit} for update of r skip locked)`);
}

/**
 * The staging tables of the staged batch kinds (batch README, "Staging"): POST
 * /batch/pricelist's, /batch/product's and /batch/store's, a row per chunk of a batch's
 * items, keyed by (batch_seq, chunk). test/retention checks this list against the kinds
 * declared.
 */
export const STAGING_TABLES = ['batch_price_chunks', 'batch_product_chunks', 'batch_store_chunks'] as const;

/**
 * The staged items of finished batches, `limit` rows per statement and table, before the
 * batch row itself: they have no foreign key to it, so a batch goes only once they are gone.
 */
export async function deleteFinishedStagedItems(db: Kysely<DB>, days: number, limit: number) {
  let total = 0;
  for (const table of STAGING_TABLES) {
    total += await deleted(db, sql`
      delete from ${sql.table(table)} where (batch_seq, chunk) in (
        select s.batch_seq, s.chunk from batches b
          join ${sql.table(table)} s on s.batch_seq = b.seq
         where b.finished_at < ${cutoff(days)}
         limit ${limit} for update of s skip locked)`);
  }
  return total;
}

/**
 * Finished batches whose item results and staged items are gone (deleted just before):
 * the delete cascades to no result rows, so a statement removes at most `limit` rows in
 * all. A batch whose rows another sweeper still holds waits for the next run.
 */
export async function deleteFinishedBatches(db: Kysely<DB>, days: number, limit: number) {
  const noStagedItems = sql.join(
    STAGING_TABLES.map((table) => sql`not exists (select 1 from ${sql.table(table)} s where s.batch_seq = b.seq)`),
    sql` and `,
  );
  return deleted(db, sql`
    delete from batches where id in (
      select b.id from batches b
       where b.finished_at < ${cutoff(days)}
         and not exists (select 1 from batch_item_results r where r.supplier_id = b.supplier_id and r.batch_id = b.id)
         and ${noStagedItems}
       limit ${limit} for update skip locked)`);
}

/** Delivered and failed webhook deliveries; their attempts go with them (on delete cascade). Pending ones stay. */
export async function deleteFinishedDeliveries(db: Kysely<DB>, days: number, limit: number) {
  return deleteOlder(db, days, limit, 'webhook_deliveries', 'supplier_id, id', 'finished_at');
}

/** Webhook events older than the retention no delivery refers to any more. */
export async function deleteOrphanEvents(db: Kysely<DB>, days: number, limit: number) {
  const undelivered = sql`not exists (select 1 from webhook_deliveries d where d.supplier_id = webhook_events.supplier_id and d.event_id = webhook_events.id)`;
  return deleteOlder(db, days, limit, 'webhook_events', 'supplier_id, id', 'created_at', undelivered);
}

/** Messages that are done (sent, failed or dropped) and their attempts (cascade); pending ones are the worker's. */
export async function deleteFinishedMessages(db: Kysely<DB>, days: number, limit: number) {
  return deleteOlder(db, days, limit, 'messages', 'id', 'created_at', sql`status <> 'pending'`);
}

/** Idempotency keys (answers kept for 24 h; older ones no longer answer, src/http/idempotency.ts). */
export async function deleteOldIdempotencyKeys(db: Kysely<DB>, days: number, limit: number) {
  return deleteOlder(db, days, limit, 'idempotency_keys', 'owner, key', 'created_at');
}

/** Sign-in codes that expired (used or not) more than `days` ago. */
export async function deleteExpiredSignInCodes(db: Kysely<DB>, days: number, limit: number) {
  return deleteOlder(db, days, limit, 'sign_in_codes', 'id', 'expires_at');
}

/** Console sessions that ended (signed out, or past their idle or last deadline) more than `days` ago. */
export async function deleteEndedConsoleSessions(db: Kysely<DB>, days: number, limit: number) {
  return deleteOlder(db, days, limit, 'console_sessions', 'id', 'least(coalesce(revoked_at, expires_at), expires_at)');
}

/** Store-user sessions that ended (signed out, ended by an operator, or expired) more than `days` ago. */
export async function deleteEndedStoreSessions(db: Kysely<DB>, days: number, limit: number) {
  return deleteOlder(db, days, limit, 'store_sessions', 'id', 'least(coalesce(revoked_at, expires_at), expires_at)');
}

export async function deleteOldAuditEntries(db: Kysely<DB>, days: number, limit: number) {
  return deleteOlder(db, days, limit, 'audit_entries', 'id', 'at');
}

export interface DeletedImage {
  content_hash: string | null;
  variants: StoredImageVariants | null;
}

/**
 * Image rows untouched for `days` whose URL no brand, category, product or promotion of
 * their supplier names any more. Answers what the rows held, for their files.
 */
export async function deleteUnreferencedImages(db: Kysely<DB>, days: number, limit: number): Promise<DeletedImage[]> {
  const result = await sql<DeletedImage>`
    delete from images where id in (
      select i.id from images i
       where i.updated_at < ${cutoff(days)}
         and i.lease_owner is null
         and not exists (select 1 from brands b where b.supplier_id = i.supplier_id and b.image = i.url)
         and not exists (select 1 from categories c where c.supplier_id = i.supplier_id and c.image = i.url)
         and not exists (select 1 from products p where p.supplier_id = i.supplier_id and (p.image = i.url or i.url = any(p.images)))
         and not exists (select 1 from promotions r where r.supplier_id = i.supplier_id and r.image = i.url)
       limit ${limit} for update skip locked)
    returning content_hash, variants`.execute(db);
  return result.rows;
}

/** Of these content hashes, the ones no image row holds any more (their files can go). */
export async function unusedContentHashes(db: Kysely<DB>, hashes: string[]): Promise<string[]> {
  if (hashes.length === 0) return [];
  const used = await db.selectFrom('images').select('content_hash').where('content_hash', 'in', hashes).execute();
  const kept = new Set(used.map((r) => r.content_hash));
  return hashes.filter((h) => !kept.has(h));
}
