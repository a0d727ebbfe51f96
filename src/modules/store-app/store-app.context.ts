// What the store side's services need of the process, for one request (today's date moves).
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { DB } from '../../db/types.ts';
import { todayFor, todayIn, type Clock, type SupplierClocks } from '../../lib/clock.ts';
import type { StoreOrderPlacer } from '../orders/orders.service.ts';
import type { StoreCache } from './store-app.cache.ts';

export interface StoreAppContext {
  db: Kysely<DB>;
  cache: StoreCache;
  /**
   * Today by real time. A rule about a supplier's business (promotions in force, prices)
   * asks `todayOf(ctx, supplierId)` instead: a test twin's clock may have been moved
   * (src/modules/sandbox).
   */
  today: string;
  /** Each supplier's time (deps.clocks) and the platform's timezone, for todayOf. */
  clocks: SupplierClocks;
  timezone: string;
  currencyDecimals: number;
  /** PUBLIC_URL: the absolute addresses of the service's image versions. */
  publicUrl: string;
  /** Places a store's order with its order.created event (the process's group commit: orders.service.ts). */
  placeOrder: StoreOrderPlacer;
  /** Wakes this process's webhook dispatcher: an event was just recorded. */
  wake: () => void;
}

/**
 * What the context is built from: src/deps.ts's Deps has it. Named here rather than taken
 * as Deps, so the store side's services do not import the composition root that builds them.
 */
export interface StoreAppDeps {
  db: Kysely<DB>;
  storeCache: StoreCache;
  clock: Clock;
  clocks: SupplierClocks;
  config: Pick<Config, 'timezone' | 'currencyDecimals' | 'publicUrl'>;
  placeStoreOrder: StoreOrderPlacer;
  workAccepted(queue: 'webhooks'): void;
}

export const storeAppContext = (deps: StoreAppDeps): StoreAppContext => ({
  db: deps.db,
  cache: deps.storeCache,
  today: todayIn(deps.clock, deps.config.timezone),
  clocks: deps.clocks,
  timezone: deps.config.timezone,
  currencyDecimals: deps.config.currencyDecimals,
  publicUrl: deps.config.publicUrl,
  placeOrder: deps.placeStoreOrder,
  wake: () => deps.workAccepted('webhooks'),
});

/** Today for the supplier's rules, by its clock (a test twin's may have been moved). */
export const todayOf = (ctx: StoreAppContext, supplierId: number) => todayFor(ctx.clocks, supplierId, ctx.timezone);
