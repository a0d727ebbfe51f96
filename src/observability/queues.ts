// The queues the metrics scrape reports (queue_depth, queue_oldest_age_seconds): one line
// each, the SQL in the owning module's repository. Adding a queue is adding a line here.
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { queueStats as batchQueue } from '../modules/batch/batch.repository.ts';
import { queueStats as messageQueue } from '../modules/messages/messages.repository.ts';
import { queueStats as imageQueue } from '../modules/images/images.repository.ts';
import { queueStats as webhookQueue } from '../modules/webhooks/webhooks.repository.ts';

export interface QueueSource {
  /** The `queue` label. */
  queue: string;
  stats(db: Kysely<DB>): Promise<{ depth: number; oldestAgeSeconds: number }>;
}

export const queueSources: readonly QueueSource[] = [
  { queue: 'batches', stats: batchQueue },
  { queue: 'webhook_deliveries', stats: webhookQueue },
  { queue: 'image_downloads', stats: imageQueue },
  { queue: 'messages', stats: messageQueue },
];
