// Sends webhook deliveries. Correctness lives in the rows, not in this process:
// - A delivery is claimed with a lease (FOR UPDATE SKIP LOCKED); a dispatcher that dies
//   loses its leases when they expire and any dispatcher sends those deliveries again
//   (at least once: the receiver may see an event twice, always with the same webhook-id).
// - Each attempt and the delivery's new state (status, attempts, next_attempt_at,
//   last_error) are written in one transaction after the attempt.
// - Only the oldest pending delivery of an ordering key is ever claimable, so one
//   resource's events go out one at a time, in order.
// - Polling and wake-ups only shorten the wait; they never own correctness.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isConnectionError } from '../../db/errors.ts';
import type { DB } from '../../db/types.ts';
import type { Clock } from '../../lib/clock.ts';
import type { WorkMetrics } from '../../observability/metrics.ts';
import { inSpan, type Tracing } from '../../observability/tracing.ts';
import { attemptDelivery, type AttemptReport } from './webhooks.attempt.ts';
import * as repo from './webhooks.repository.ts';
import type { WebhookSender } from './webhooks.sender.ts';

export interface DispatcherOptions {
  clock: Clock;
  sender: WebhookSender;
  /** Deliveries in flight at once. */
  concurrency: number;
  /** Deliveries one supplier may have in flight at once, across every dispatcher (so one hanging receiver cannot take every slot). */
  perSupplier: number;
  /** Idle poll interval: how soon a retry that came due, or work from another process, is seen. */
  pollMs: number;
  leaseSeconds: number;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** In [0, 1): the jitter's source (tests pin it). */
  random?: () => number;
  /** Counts attempts by outcome, with their duration. */
  metrics?: Pick<WorkMetrics, 'webhookAttempt'>;
  /** Each attempt in a span linked to the request that caused the delivery. */
  tracing?: Tracing;
  /** Called after each recorded attempt (tests and benchmarks observe progress through it). */
  onAttempt?: (delivery: repo.ClaimedDelivery, report: AttemptReport) => void;
}

export class WebhookDispatcher {
  readonly id = `webhooks-${randomUUID()}`;
  private stopping = false;
  private running: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private woken = false;
  private wakeSleeper: (() => void) | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: DispatcherOptions,
  ) {}

  start() {
    if (this.running) return;
    this.stopping = false;
    this.running = this.loop();
  }

  /** Looks for work now: an event was recorded, or a delivery ended and freed its slot or its key. */
  wake() {
    this.woken = true;
    this.wakeSleeper?.();
  }

  /** Stops claiming, lets the attempts in flight finish and record (each within the timeout). Idempotent. */
  async stop() {
    this.stopping = true;
    this.wake();
    await this.running;
    await Promise.all([...this.inFlight]);
    this.running = undefined;
  }

  private async loop() {
    const { concurrency, perSupplier, pollMs, leaseSeconds, clock, logger } = this.options;
    while (!this.stopping) {
      this.woken = false;
      let idle = true;
      try {
        const free = concurrency - this.inFlight.size;
        if (free > 0) {
          const claimed = await repo.claimDue(this.db, this.id, leaseSeconds, clock.now(), free, perSupplier);
          for (const delivery of claimed) this.track(this.deliver(delivery));
          // A full claim may mean more is due: claim again once a slot frees (or at once).
          idle = claimed.length < free;
        }
      } catch (error) {
        (isConnectionError(error) ? logger.warn : logger.error).call(logger, { err: error }, 'webhook dispatcher iteration failed');
      }
      if (this.stopping) break;
      if (idle || this.inFlight.size >= concurrency) await this.sleep(pollMs);
      // Embedded PGlite resolves queries as microtasks: give requests a turn between claims.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private track(work: Promise<void>) {
    this.inFlight.add(work);
    void work.finally(() => {
      this.inFlight.delete(work);
      this.wake();
    });
  }

  private async deliver(delivery: repo.ClaimedDelivery) {
    const { clock, sender, random, logger, onAttempt, metrics, tracing } = this.options;
    try {
      const attributes = { 'webhook.delivery_id': delivery.id, 'webhook.event_type': delivery.type, 'supplier.id': delivery.supplier_id };
      const report = await inSpan(tracing, 'webhook deliver', attributes, delivery.traceparent, () =>
        attemptDelivery({ db: this.db, sender, clock, owner: this.id, random, metrics }, delivery),
      );
      onAttempt?.(delivery, report);
    } catch (error) {
      // Recording failed (database unavailable): the lease expires and the delivery is sent again.
      logger.error({ err: error, deliveryId: delivery.id }, 'recording a webhook attempt failed; it will be retried after its lease');
    }
  }

  private sleep(ms: number) {
    if (this.stopping || this.woken) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeSleeper = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeSleeper = done;
    });
  }
}
