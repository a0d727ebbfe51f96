// The process's Prometheus metrics (prom-client). One Metrics per set of dependencies, on a
// registry of its own (tests build several apps in one process); Node's default metrics
// describe the process itself, so they live once per process and are scraped alongside.
// Every metric and its labels are listed in docs/operations.md.
import type { Kysely } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../db/database.ts';
import type { DB } from '../db/types.ts';
import { queueSources } from './queues.ts';

let processRegistry: Registry | undefined;
/** Node's default metrics (event-loop lag, heap, GC, CPU, handles), started once per process. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export type WebhookAttemptOutcome = 'delivered' | 'rejected' | 'unanswered';

/** What the workers report; kept narrow so the modules do not depend on prom-client. */
export interface WorkMetrics {
  batchItemsApplied(endpoint: string, applied: number, failed: number): void;
  webhookAttempt(outcome: WebhookAttemptOutcome, seconds: number): void;
}

export class Metrics implements WorkMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** One child per (method, route, status): a Map lookup per request instead of prom-client's label hashing. */
  private readonly httpChildren = new Map<string, Histogram.Internal<'method' | 'route' | 'status_code'>>();
  private readonly itemsAccepted: Counter<'endpoint'>;
  private readonly itemsApplied: Counter<'endpoint'>;
  private readonly itemsFailed: Counter<'endpoint'>;
  private readonly webhookAttempts: Counter<'outcome'>;
  private readonly webhookDuration: Histogram<'outcome'>;

  constructor(db: Kysely<DB>, pool: () => PoolStats) {
    const registers = [this.registry];
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.itemsAccepted = new Counter({ name: 'batch_items_accepted_total', help: 'Batch items accepted (committed before the 202), by endpoint', labelNames: ['endpoint'], registers });
    this.itemsApplied = new Counter({ name: 'batch_items_applied_total', help: 'Batch items applied by a worker, by endpoint', labelNames: ['endpoint'], registers });
    this.itemsFailed = new Counter({ name: 'batch_items_failed_total', help: 'Batch items a worker recorded as failed, by endpoint', labelNames: ['endpoint'], registers });
    this.webhookAttempts = new Counter({ name: 'webhook_attempts_total', help: 'Webhook delivery attempts, by outcome (delivered: 2xx; rejected: another status; unanswered: no HTTP answer)', labelNames: ['outcome'], registers });
    this.webhookDuration = new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Duration of webhook delivery attempts, by outcome',
      labelNames: ['outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });

    // Read synchronously, and before the queue queries below start: the scrape's own queries are not counted.
    const poolGauge = (name: string, help: string, read: (s: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(pool()));
        },
      });
    poolGauge('db_pool_in_use', 'Database connections running a query or a transaction (embedded PGlite: 0 or 1)', (s) => s.inUse);
    poolGauge('db_pool_waiting', 'Queries or transactions waiting for a database connection', (s) => s.waiting);
    poolGauge('db_pool_size', 'Database connections open (embedded PGlite: 1)', (s) => s.size);

    // Computed at scrape time: both gauges wait for one round of queries per scrape.
    const depth = new Gauge({ name: 'queue_depth', help: 'Items waiting in a queue (the deployment\'s, read from the database)', labelNames: ['queue'], registers, collect: () => refresh() });
    const age = new Gauge({ name: 'queue_oldest_age_seconds', help: 'How long the oldest waiting item of a queue has been due', labelNames: ['queue'], registers, collect: () => refresh() });
    let round: Promise<void> | undefined;
    const refresh = () =>
      (round ??= (async () => {
        const results = await Promise.allSettled(queueSources.map((q) => q.stats(db)));
        depth.reset();
        age.reset();
        results.forEach((r, i) => {
          // A queue whose query failed (database unreachable) is left out rather than shown stale.
          if (r.status !== 'fulfilled') return;
          depth.set({ queue: queueSources[i]!.queue }, r.value.depth);
          age.set({ queue: queueSources[i]!.queue }, r.value.oldestAgeSeconds);
        });
      })().finally(() => (round = undefined)));
  }

  observeRequest(method: string, route: string, statusCode: number, seconds: number) {
    const key = `${method} ${route} ${statusCode}`;
    let child = this.httpChildren.get(key);
    if (child === undefined) {
      child = this.httpDuration.labels(method, route, String(statusCode));
      this.httpChildren.set(key, child);
    }
    child.observe(seconds);
  }

  batchItemsAccepted(endpoint: string, items: number) {
    this.itemsAccepted.inc({ endpoint }, items);
  }

  batchItemsApplied(endpoint: string, applied: number, failed: number) {
    if (applied > 0) this.itemsApplied.inc({ endpoint }, applied);
    if (failed > 0) this.itemsFailed.inc({ endpoint }, failed);
  }

  webhookAttempt(outcome: WebhookAttemptOutcome, seconds: number) {
    this.webhookAttempts.inc({ outcome });
    this.webhookDuration.observe({ outcome }, seconds);
  }

  readonly contentType = this.registry.contentType;

  /** The Prometheus text of the process's metrics and this registry's. */
  async scrape(): Promise<string> {
    const [own, process] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return `${own}\n${process}`;
  }
}
