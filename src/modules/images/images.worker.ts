// Downloads and processes registered images. Correctness lives in the rows (see
// images.repository.ts): an image is leased while it is worked on, a worker that dies
// loses the lease when it expires and any worker claims the image again. Wake-ups and
// polling only shorten the wait.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { DB } from '../../db/types.ts';
import { allowEveryAddress, refusePrivateAddresses, type AddressPolicy } from '../../lib/outbound-addresses.ts';
import { PollingWorker, type WorkerLogger } from '../../lib/polling-worker.ts';
import { inSpan, type Tracing } from '../../observability/tracing.ts';
import { ImageFailure, ImageFetcher } from './images.fetch.ts';
import { processImage, storedVariants } from './images.process.ts';
import * as repo from './images.repository.ts';
import { createImageStorage, type ImageStorage } from './images.storage.ts';

/** Transient failures (timeouts, 5xx, lost connections) are tried this many times in all. */
export const MAX_IMAGE_ATTEMPTS = 5;

/** Seconds before attempt `attempts + 1`: 30 s, 2 min, 8 min, 32 min, then hourly. */
export const retryDelaySeconds = (attempts: number) => Math.min(3600, 30 * 4 ** Math.max(0, attempts - 1));

export interface ImageWorkerOptions {
  concurrency: number;
  pollMs: number;
  maxBytes: number;
  timeoutMs: number;
  /** Which addresses downloads may not reach. */
  policy: AddressPolicy;
  logger: WorkerLogger;
  /** Each download in a span of its own (its undici call and SQL inside). */
  tracing?: Tracing;
}

/** The worker the settings describe; `overrides` lets tests change what they need. */
export function createImageWorker(db: Kysely<DB>, config: Config, logger: ImageWorkerOptions['logger'], overrides: Partial<ImageWorkerOptions> = {}) {
  return new ImageWorker(db, createImageStorage(config), {
    concurrency: config.imageConcurrency,
    pollMs: config.workerPollMs,
    maxBytes: config.imageMaxBytes,
    timeoutMs: config.imageTimeoutMs,
    policy: config.allowPrivateAddresses ? allowEveryAddress : refusePrivateAddresses,
    logger,
    ...overrides,
  });
}

export class ImageWorker extends PollingWorker {
  readonly id = `images-${randomUUID()}`;
  private readonly fetcher: ImageFetcher;
  private closed = false;
  private abort = new AbortController();
  /** Long enough for the download deadline plus the conversion. */
  private readonly leaseSeconds: number;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly storage: ImageStorage,
    private readonly options: ImageWorkerOptions,
  ) {
    super({ name: 'image worker', concurrency: options.concurrency, pollMs: options.pollMs, logger: options.logger });
    this.fetcher = new ImageFetcher({ maxBytes: options.maxBytes, timeoutMs: options.timeoutMs, policy: options.policy });
    this.leaseSeconds = Math.ceil(options.timeoutMs / 1000) + 60;
  }

  protected override onStart() {
    this.abort = new AbortController();
  }

  /** Stopping aborts downloads in flight; their images are given back. */
  protected override onStopping() {
    this.abort.abort();
  }

  protected async work() {
    const image = await repo.claimNextImage(this.db, this.id, this.leaseSeconds);
    if (!image) return false;
    await inSpan(this.options.tracing, 'image download', { 'image.id': image.id, 'supplier.id': image.supplier_id }, null, () => this.process(image));
    return true;
  }

  /** Stops and lets go of the connections and the storage client. Idempotent. */
  async close() {
    await this.stop();
    if (this.closed) return;
    this.closed = true;
    await this.fetcher.close();
    await this.storage.close();
  }

  private async process(image: repo.ClaimedImage) {
    // Attempts are counted when claimed: past the limit, earlier attempts died with their process.
    if (image.attempts > MAX_IMAGE_ATTEMPTS) {
      await repo.markFailed(this.db, image.id, this.id, `gave up after ${MAX_IMAGE_ATTEMPTS} attempts that did not finish`);
      return;
    }
    try {
      const downloaded = await this.fetcher.download(image.url, this.abort.signal);
      const processed = await processImage(downloaded.body);
      // Versions first, the original last; the row says ready only once all are stored.
      for (const key of ['160', '480', '1024', 'original'] as const) {
        const file = processed.files[key];
        await this.storage.put(`${processed.hash}/${file.file}`, file.body, file.contentType);
      }
      await repo.markReady(this.db, image.id, this.id, processed.hash, storedVariants(processed));
    } catch (error) {
      if (this.stopping && this.abort.signal.aborted && !(error instanceof ImageFailure)) {
        await repo.releaseImage(this.db, image.id, this.id);
        return;
      }
      await this.fail(image, error);
    }
  }

  private async fail(image: repo.ClaimedImage, error: unknown) {
    const permanent = error instanceof ImageFailure && error.permanent;
    const reason = error instanceof ImageFailure ? error.message : `the image could not be stored: ${error instanceof Error ? error.message : String(error)}`;
    if (!(error instanceof ImageFailure)) this.options.logger.warn({ err: error, imageId: image.id }, 'image processing failed; it will be retried');
    if (permanent) return repo.markFailed(this.db, image.id, this.id, reason);
    if (image.attempts >= MAX_IMAGE_ATTEMPTS) return repo.markFailed(this.db, image.id, this.id, `gave up after ${image.attempts} attempts: ${reason}`);
    await repo.scheduleRetry(this.db, image.id, this.id, reason, retryDelaySeconds(image.attempts));
  }
}
