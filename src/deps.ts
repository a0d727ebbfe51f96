// The composition root: builds what the API, the worker and the CLI share.
import type { Kysely } from 'kysely';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import type { DB } from './db/types.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { getOrCreateSecret } from './modules/auth/credentials.repository.ts';
import { LiveCredentials } from './modules/auth/live-credentials.ts';
import { createTokenIssuer, generateJwtSecret, type TokenIssuer } from './modules/auth/tokens.ts';
import { logNotifier, type Notifier } from './lib/notifier.ts';
import { createStoreTokenIssuer, type StoreTokenIssuer } from './modules/store-users/store-tokens.ts';
import { BatchRegistry } from './modules/batch/batch.kinds.ts';
import { catalogBatchKinds } from './modules/catalog/catalog.batch.ts';
import { promotionGrouperBatchKind, stockGrouperBatchKind } from './modules/groupers/groupers.batch.ts';
import { orderBatchKind, orderImportKind } from './modules/orders/orders.batch.ts';
import { priceListBatchKind } from './modules/pricelists/pricelists.batch.ts';
import { promotionBatchKind } from './modules/promotions/promotions.batch.ts';
import { stockBatchKind } from './modules/stock/stock.batch.ts';
import { storeBatchKind } from './modules/stores/stores.batch.ts';
import { WebhookSender } from './modules/webhooks/webhooks.sender.ts';

export interface Deps {
  readonly config: Config;
  readonly db: Kysely<DB>;
  readonly database: Database;
  readonly tokens: TokenIssuer;
  /** Credential pairs proven live a moment ago; forgotten on every revocation, in every process. */
  readonly liveCredentials: LiveCredentials;
  readonly storeTokens: StoreTokenIssuer;
  readonly notifier: Notifier;
  /** Outgoing webhook calls (undici, with the address policy): the dispatcher's and the test ping's. */
  readonly webhookSender: WebhookSender;
  readonly batches: BatchRegistry;
  readonly clock: Clock;
  /** Wakes this process's workers: new work was accepted. Other processes find it by polling. */
  readonly workAccepted: () => void;
  readonly onWorkAccepted: (listener: () => void) => void;
  close(): Promise<void>;
}

export const batchRegistry = () =>
  new BatchRegistry([priceListBatchKind, ...catalogBatchKinds, promotionGrouperBatchKind, stockGrouperBatchKind, stockBatchKind, storeBatchKind, orderBatchKind, orderImportKind, promotionBatchKind]);

/** Builds the dependencies over an open, migrated database. */
export interface DepsOptions {
  clock?: Clock;
  notifier?: Notifier;
}

export async function createDeps(config: Config, database: Database, options: DepsOptions = {}): Promise<Deps> {
  const clock = options.clock ?? systemClock;
  const secret = config.jwtSecret ?? (await getOrCreateSecret(database.db, 'jwt', generateJwtSecret));
  const listeners: (() => void)[] = [];
  const webhookSender = new WebhookSender({ timeoutMs: config.webhookTimeoutMs, allowPrivateAddresses: config.allowPrivateAddresses });
  // Trusted pairs expire by the real clock: a test's fake clock must not keep one alive.
  const liveCredentials = new LiveCredentials(() => Date.now());
  await liveCredentials.start(database);
  return {
    config,
    db: database.db,
    database,
    tokens: createTokenIssuer(secret, config.tokenTtlSeconds, () => clock.now()),
    liveCredentials,
    storeTokens: createStoreTokenIssuer(secret, config.storeTokenTtlSeconds, () => clock.now()),
    notifier: options.notifier ?? logNotifier((message) => console.log(message)),
    webhookSender,
    batches: batchRegistry(),
    clock,
    workAccepted: () => listeners.forEach((l) => l()),
    onWorkAccepted: (listener) => listeners.push(listener),
    close: async () => {
      await liveCredentials.close();
      await webhookSender.close();
      await database.close();
    },
  };
}

export async function openDeps(config: Config): Promise<Deps> {
  const database = await openDatabase(config);
  const { migrateToLatest } = await import('./db/migrator.ts');
  try {
    await migrateToLatest(database.db);
    return await createDeps(config, database);
  } catch (error) {
    await database.close();
    throw error;
  }
}
