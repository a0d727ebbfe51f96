// The storage of Idempotency-Key records (src/http/idempotency.ts): an HTTP concern, so it
// lives with the plugin, not in a module. Expired records are purged by the retention job.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.ts';

/** Claims the key for this request; false when another request holds or held it. */
export async function claimKey(db: Kysely<DB>, owner: string, key: string, requestHash: string): Promise<boolean> {
  const rows = await db
    .insertInto('idempotency_keys')
    .values({ owner, key, request_hash: requestHash, state: 'in_progress' })
    .onConflict((oc) => oc.columns(['owner', 'key']).doNothing())
    .returning('key')
    .execute();
  return rows.length === 1;
}

export async function findKey(db: Kysely<DB>, owner: string, key: string) {
  return db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'state', 'response_status', 'response_body', 'created_at'])
    .select(sql<number>`extract(epoch from now() - created_at)`.as('age_seconds'))
    .where('owner', '=', owner)
    .where('key', '=', key)
    .executeTakeFirst();
}

/**
 * Takes over a key whose record expired or whose request was abandoned; false if it is
 * neither (any more): someone else took it first, and their take-over renewed created_at.
 * The conditions are checked by the update itself (under the row lock), not by comparing
 * a created_at read earlier: a JS Date keeps milliseconds, the column microseconds, so
 * such an equality never held and an abandoned key stayed "in progress" for good.
 */
export async function retakeKey(
  db: Kysely<DB>,
  owner: string,
  key: string,
  requestHash: string,
  after: { expiredSeconds: number; abandonedSeconds: number },
) {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ request_hash: requestHash, state: 'in_progress', response_status: null, response_body: null, created_at: sql`now()` })
    .where('owner', '=', owner)
    .where('key', '=', key)
    .where(sql<boolean>`(created_at < now() - make_interval(secs => ${after.expiredSeconds})
      or (state = 'in_progress' and created_at < now() - make_interval(secs => ${after.abandonedSeconds})))`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function completeKey(db: Kysely<DB>, owner: string, key: string, status: number, body: string) {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'done', response_status: status, response_body: body })
    .where('owner', '=', owner)
    .where('key', '=', key)
    .execute();
}

export async function releaseKey(db: Kysely<DB>, owner: string, key: string) {
  await db.deleteFrom('idempotency_keys').where('owner', '=', owner).where('key', '=', key).where('state', '=', 'in_progress').execute();
}

