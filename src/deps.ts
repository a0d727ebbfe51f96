// The composition root: builds what the API, the worker and the CLI share.
import type { Kysely } from 'kysely';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import type { DB } from './db/types.ts';
import { systemClock, type Clock, type SupplierClocks } from './lib/clock.ts';
import type { AuditLog } from './modules/audit/audited.ts';
import type { ConsoleAuthenticator } from './modules/console/console.session.ts';
import type { SupplierAuthenticator } from './modules/auth/principal.ts';
import { auditLog } from './modules/audit/audit.repository.ts';
import { createSupplierAuthenticator } from './modules/auth/auth.service.ts';
import { getOrCreateSecret } from './modules/auth/credentials.repository.ts';
import { LiveCredentials } from './modules/auth/live-credentials.ts';
import { StoreCache } from './modules/store-app/store-app.cache.ts';
import { storeOrderPlacer, type StoreOrderPlacer } from './modules/orders/orders.service.ts';
import { createTokenIssuer, generateJwtSecret, type TokenIssuer } from './modules/auth/tokens.ts';
import type { Notifier } from './lib/notifier.ts';
import { createNotifier } from './modules/messages/messages.channels.ts';
import { createStoreTokenIssuer, type StoreTokenIssuer } from './modules/store-app/store-app.tokens.ts';
import { createConsoleAuthenticator, createConsoleTokens, type ConsoleTokens } from './modules/console/console.service.ts';
import { liveStoreSession } from './modules/store-app/store-app.sessions.repository.ts';
import { TwinClocks } from './modules/sandbox/sandbox.clocks.ts';
import { BATCH_KINDS } from './batch-kinds.ts';
import { BatchRegistry } from './modules/batch/batch.kinds.ts';
import { WebhookSender } from './modules/webhooks/webhooks.sender.ts';
import { Metrics } from './observability/metrics.ts';
import type { Tracing } from './observability/tracing.ts';

/** The row-owned queues an accepted write can add to, each with loops that claim from it (src/main/worker.ts). */
export const WORK_QUEUES = ['batches', 'webhooks', 'messages'] as const;
export type WorkQueue = (typeof WORK_QUEUES)[number];

export interface Deps {
  readonly config: Config;
  readonly db: Kysely<DB>;
  readonly database: Database;
  readonly tokens: TokenIssuer;
  /** Credential pairs proven live a moment ago; forgotten on every revocation, in every process. */
  readonly liveCredentials: LiveCredentials;
  /** The supplier guard's checks (src/http/auth.ts), over db, tokens and liveCredentials. */
  readonly supplierAuth: SupplierAuthenticator;
  /** Where audited writes record their entry (src/modules/audit/audited.ts). */
  readonly audit: AuditLog;
  /** The store side's reads kept in memory; forgotten on every change, in every process. */
  readonly storeCache: StoreCache;
  /** Places a store's order: the orders of requests that arrive together share one statement and one commit. */
  readonly placeStoreOrder: StoreOrderPlacer;
  readonly storeTokens: StoreTokenIssuer;
  /** Console sessions' tokens, and the guard's check of them (src/modules/console). */
  readonly consoleTokens: ConsoleTokens;
  readonly consoleAuth: ConsoleAuthenticator;
  readonly notifier: Notifier;
  /** Outgoing webhook calls (undici, with the address policy): the dispatcher's and the test ping's. */
  readonly webhookSender: WebhookSender;
  readonly batches: BatchRegistry;
  readonly clock: Clock;
  /**
   * The time as each supplier's business rules see it (src/lib/clock.ts): `clock` for a live
   * supplier, a test twin's moved time in the sandbox (src/modules/sandbox). Tokens, leases
   * and webhook retries keep `clock`.
   */
  readonly clocks: SupplierClocks & { forget(): void };
  /**
   * Wakes this process's loops of one queue (every queue when none is named): new work was
   * accepted. Other processes find it by polling. Naming the queue matters under load: a
   * wake costs each woken loop a claim query (an order wakes the webhook dispatcher only).
   */
  readonly workAccepted: (queue?: WorkQueue) => void;
  readonly onWorkAccepted: (queue: WorkQueue, listener: () => void) => void;
  /** This process's Prometheus metrics. */
  readonly metrics: Metrics;
  /** Set when OTEL_EXPORTER_OTLP_ENDPOINT is; undefined, nothing traces. */
  readonly tracing: Tracing | undefined;
  close(): Promise<void>;
}

export const batchRegistry = () => new BatchRegistry(BATCH_KINDS);

/** Builds the dependencies over an open, migrated database. */
export interface DepsOptions {
  clock?: Clock;
  notifier?: Notifier;
  tracing?: Tracing;
}

export async function createDeps(config: Config, database: Database, options: DepsOptions = {}): Promise<Deps> {
  const clock = options.clock ?? systemClock;
  const secret = config.jwtSecret ?? (await getOrCreateSecret(database.db, 'jwt', generateJwtSecret));
  const listeners = new Map<WorkQueue, (() => void)[]>(WORK_QUEUES.map((q) => [q, []]));
  const webhookSender = new WebhookSender({ timeoutMs: config.webhookTimeoutMs, allowPrivateAddresses: config.allowPrivateAddresses });
  // Trusted pairs expire by the real clock: a test's fake clock must not keep one alive.
  const liveCredentials = new LiveCredentials(() => Date.now());
  await liveCredentials.start(database);
  const metrics = new Metrics(database.db, () => database.pool());
  const workAccepted = (queue?: WorkQueue) => {
    for (const q of queue ? [queue] : WORK_QUEUES) for (const listener of listeners.get(q)!) listener();
  };
  const storeCache = new StoreCache(() => Date.now(), config.storeCacheTtlMs);
  await storeCache.start(database);
  const clocks = new TwinClocks(database.db, clock);
  await clocks.start(database);
  const tokens = createTokenIssuer(secret, config.tokenTtlSeconds, () => clock.now());
  const consoleTokens = createConsoleTokens(secret, () => clock.now());
  return {
    config,
    db: database.db,
    database,
    tokens,
    liveCredentials,
    supplierAuth: createSupplierAuthenticator(database.db, tokens, liveCredentials),
    audit: auditLog,
    storeCache,
    placeStoreOrder: storeOrderPlacer(database.db),
    storeTokens: createStoreTokenIssuer(database.db, secret, config.storeTokenTtlSeconds, () => clock.now(), (key) =>
      storeCache.get(`store-session:${key}`, () => liveStoreSession(database.db, key)),
    ),
    consoleTokens,
    consoleAuth: createConsoleAuthenticator(database.db, consoleTokens),
    // Production never writes a message to the log: a kind with no channel cannot sign in.
    notifier: options.notifier ?? createNotifier(config, (message) => console.log(message)),
    webhookSender,
    batches: batchRegistry(),
    clock,
    clocks,
    workAccepted,
    onWorkAccepted: (queue, listener) => listeners.get(queue)!.push(listener),
    metrics,
    tracing: options.tracing,
    close: async () => {
      await liveCredentials.close();
      await storeCache.close();
      await clocks.close();
      await webhookSender.close();
      await database.close();
    },
  };
}

export async function openDeps(config: Config, options: { tracing?: Tracing } = {}): Promise<Deps> {
  const database = await openDatabase(config, { onQuery: options.tracing?.onQuery });
  const { migrateToLatest } = await import('./db/migrator.ts');
  try {
    await migrateToLatest(database.db);
    return await createDeps(config, database, { tracing: options.tracing });
  } catch (error) {
    await database.close();
    throw error;
  }
}
