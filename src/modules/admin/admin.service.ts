// The operators' system page: what waits in each queue and since when, which suppliers'
// webhook deliveries are failing, and what runs (version, database).
import { createRequire } from 'node:module';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { queueSources } from '../../observability/queues.ts';
import { failingBySupplier } from '../webhooks/webhooks.log.repository.ts';

const VERSION: string = createRequire(import.meta.url)('../../../package.json').version;

export async function systemStatus(db: Kysely<DB>, database: 'pglite' | 'postgres') {
  const [queues, failing] = await Promise.all([
    Promise.all(queueSources.map(async (q) => ({ queue: q.queue, ...(await q.stats(db)) }))),
    failingBySupplier(db),
  ]);
  return {
    version: VERSION,
    database,
    queues,
    failingDeliveries: failing.map((f) => ({ supplier: { id: f.id, code: f.code, name: f.name }, failing: f.failing })),
  };
}
