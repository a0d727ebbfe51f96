import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.ts';
import { BatchWorker } from '../modules/batch/batch.worker.ts';
import { createImageWorker, type ImageWorker } from '../modules/images/images.worker.ts';
import { WebhookDispatcher, type DispatcherOptions } from '../modules/webhooks/webhooks.dispatcher.ts';

/** The background work of one process: batches, image downloads and webhook deliveries. */
export interface Workers {
  readonly batches: BatchWorker;
  readonly images: ImageWorker;
  readonly webhooks: WebhookDispatcher;
  /** Stops them all (each finishes or gives back what it holds). Idempotent. */
  stop(): Promise<void>;
}

/** The webhook dispatcher over the process's dependencies (tests override the jitter or the hooks). */
export function createWebhookDispatcher(deps: Deps, logger: DispatcherOptions['logger'], overrides: Partial<DispatcherOptions> = {}) {
  return new WebhookDispatcher(deps.db, {
    clock: deps.clock,
    sender: deps.webhookSender,
    concurrency: deps.config.webhookConcurrency,
    perSupplier: deps.config.webhookSupplierConcurrency,
    pollMs: deps.config.workerPollMs,
    leaseSeconds: deps.config.webhookLeaseSeconds,
    logger,
    ...overrides,
  });
}

const IMAGE_BATCH_ENDPOINTS = new Set(['/batch/brand', '/batch/product', '/batch/promotion']);

export function startWorker(deps: Deps, logger: FastifyBaseLogger): Workers {
  const log = {
    info: (obj: object, msg: string) => logger.info(obj, msg),
    warn: (obj: object, msg: string) => logger.warn(obj, msg),
    error: (obj: object, msg: string) => logger.error(obj, msg),
  };
  const images = createImageWorker(deps.db, deps.config, log);
  const batches = new BatchWorker(deps.db, deps.batches, {
    concurrency: deps.config.workerConcurrency,
    pollMs: deps.config.workerPollMs,
    leaseSeconds: deps.config.batchLeaseSeconds,
    retentionDays: deps.config.batchRetentionDays,
    logger: log,
    // A chunk of these may have registered image URLs: look for them now rather than at
    // the next poll. Only these: waking the image loops costs a claim query each.
    onChunk: (_id, _cursor, endpoint) => {
      if (IMAGE_BATCH_ENDPOINTS.has(endpoint)) images.wake();
    },
  });
  const webhooks = createWebhookDispatcher(deps, log);
  deps.onWorkAccepted(() => batches.wake());
  deps.onWorkAccepted(() => webhooks.wake());
  batches.start();
  images.start();
  webhooks.start();
  return {
    batches,
    images,
    webhooks,
    stop: async () => {
      await Promise.all([batches.stop(), images.close(), webhooks.stop()]);
    },
  };
}
