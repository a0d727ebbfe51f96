import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.ts';
import { BatchWorker } from '../modules/batch/batch.worker.ts';
import { BATCHES_ACCEPTED } from '../modules/batch/batch.repository.ts';
import { createImageWorker, type ImageWorker } from '../modules/images/images.worker.ts';
import { createImageStorage } from '../modules/images/images.storage.ts';
import { RetentionWorker } from '../modules/retention/retention.job.ts';
import { CutoffWorker } from '../modules/delivery/delivery.cutoffs.ts';
import { OverdueWorker } from '../modules/credit/credit.overdue.ts';
import { MessageWorker } from '../modules/messages/messages.worker.ts';
import { WebhookDispatcher, type DispatcherOptions } from '../modules/webhooks/webhooks.dispatcher.ts';

/** The background work of one process: batches, image downloads, webhook deliveries, messages and the retention job. */
export interface Workers {
  readonly batches: BatchWorker;
  readonly images: ImageWorker;
  readonly webhooks: WebhookDispatcher;
  readonly retention: RetentionWorker;
  readonly messages: MessageWorker;
  /** Announces delivery zones' cut-offs (delivery.cutoff_reached). */
  readonly cutoffs: CutoffWorker;
  /** Announces invoices that passed their due date unpaid (invoice.overdue). */
  readonly overdue: OverdueWorker;
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
    metrics: deps.metrics,
    tracing: deps.tracing,
    ...overrides,
  });
}

/** The message outbox's sender over the process's dependencies. */
export function createMessageWorker(deps: Deps, logger: DispatcherOptions['logger'], overrides: Partial<ConstructorParameters<typeof MessageWorker>[1]> = {}) {
  return new MessageWorker(deps.db, {
    notifier: deps.notifier,
    concurrency: 2,
    pollMs: deps.config.workerPollMs,
    leaseSeconds: 60,
    maxAttempts: deps.config.messaging.messageRetryLimit,
    logger,
    ...overrides,
  });
}

export function startWorker(deps: Deps, logger: FastifyBaseLogger): Workers {
  const log = {
    info: (obj: object, msg: string) => logger.info(obj, msg),
    warn: (obj: object, msg: string) => logger.warn(obj, msg),
    error: (obj: object, msg: string) => logger.error(obj, msg),
  };
  const images = createImageWorker(deps.db, deps.config, log, { tracing: deps.tracing });
  const batches = new BatchWorker(deps.db, deps.batches, {
    concurrency: deps.config.workerConcurrency,
    pollMs: deps.config.workerPollMs,
    leaseSeconds: deps.config.batchLeaseSeconds,
    logger: log,
    metrics: deps.metrics,
    tracing: deps.tracing,
    // A chunk of a kind declared `wakesImages` may have registered image URLs: look for
    // them now rather than at the next poll. Only those: waking the image loops costs a claim query each.
    onChunk: (_id, _cursor, endpoint) => {
      deps.storeCache.forget(); // this process's own reads see the chunk at once (the NOTIFY may come a moment later)
      if (deps.batches.get(endpoint).wakesImages) images.wake();
    },
  });
  const webhooks = createWebhookDispatcher(deps, log);
  const storage = createImageStorage(deps.config);
  const retention = new RetentionWorker({ db: deps.db, storage }, deps.config, log);
  const messages = createMessageWorker(deps, log);
  const cutoffs = new CutoffWorker({ db: deps.db, clock: deps.clock }, log, () => webhooks.wake());
  const overdue = new OverdueWorker({ db: deps.db, clock: deps.clock, timezone: deps.config.timezone }, log, () => webhooks.wake());
  deps.onWorkAccepted('batches', () => batches.wake());
  // Batches accepted by another process (an API apart) wake this one's batch loops too.
  const listening = deps.database
    .listen(BATCHES_ACCEPTED, { notified: () => batches.wake(), up: () => batches.wake(), down: () => {} })
    .catch((error: unknown) => {
      log.warn({ err: error }, 'not listening for accepted batches; the batch loops poll');
      return async () => {};
    });
  deps.onWorkAccepted('webhooks', () => webhooks.wake());
  deps.onWorkAccepted('messages', () => messages.wake());
  batches.start();
  images.start();
  webhooks.start();
  retention.start();
  messages.start();
  cutoffs.start();
  overdue.start();
  return {
    batches,
    images,
    webhooks,
    retention,
    messages,
    cutoffs,
    overdue,
    stop: async () => {
      await Promise.all([cutoffs.stop(), overdue.stop(), batches.stop(), images.close(), webhooks.stop(), messages.stop(), retention.stop().then(() => storage.close()), listening.then((unlisten) => unlisten())]);
    },
  };
}
