// GET /sandbox/checklist (README.md, "The checklist"): the twin's progress along the
// supplier API's 14-step load order, read from what the twin holds. The order is the
// contract's recommended load order (docs/integrating.md lists it), its groupers' two steps
// as one and its last step (order webhooks and status updates) as two: a webhook that
// answered each event type, and an order taken from confirmed to delivered.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { SANDBOX_EVENTS } from './sandbox.events.ts';
import * as repo from './sandbox.repository.ts';

type Counts = Awaited<ReturnType<typeof repo.twinCounts>>;

interface StepRule {
  key: string;
  title: string;
  /** Where it shows in the console. */
  link: string;
  count: (c: Counts) => number;
}

/** The load order, in its order. */
export const CHECKLIST: readonly StepRule[] = [
  { key: 'token', title: 'A test credential and its token (POST /login)', link: '/console/credentials', count: (c) => c.credentials },
  { key: 'groupers', title: 'Stock and promotion groupers', link: '/console/groupers', count: (c) => c.groupers },
  { key: 'brands', title: 'Brands', link: '/console/products', count: (c) => c.brands },
  { key: 'categories', title: 'Categories, then subcategories', link: '/console/products', count: (c) => c.categories },
  { key: 'products', title: 'Products', link: '/console/products', count: (c) => c.products },
  { key: 'stock', title: 'Stock: stores in stock groupers, availability per grouper', link: '/console/groupers', count: (c) => c.stock },
  { key: 'priceLists', title: 'Price lists', link: '/console/pricelists', count: (c) => c.priceLists },
  { key: 'stores', title: 'Stores', link: '/console/stores', count: (c) => c.stores },
  { key: 'users', title: "Stores' users", link: '/console/stores', count: (c) => c.users },
  { key: 'prices', title: 'Prices (POST /batch/pricelist)', link: '/console/pricelists', count: (c) => c.prices },
  { key: 'promotions', title: 'Promotions', link: '/console/promotions', count: (c) => c.promotions },
  { key: 'ordersImported', title: 'Historical orders imported (POST /order/bulk-import)', link: '/console/orders', count: (c) => c.importedOrders },
  { key: 'webhook', title: 'A webhook endpoint that answered 2xx to each event type', link: '/console/webhooks', count: () => 0 },
  { key: 'orderDelivered', title: 'An order confirmed and delivered', link: '/console/orders', count: (c) => c.deliveredOrders },
];

export async function checklist(db: Kysely<DB>, twinId: number) {
  const [counts, answered] = await Promise.all([repo.twinCounts(db, twinId), repo.deliveredEventTypes(db, twinId)]);
  const steps = CHECKLIST.map((rule, i) => {
    if (rule.key === 'webhook') {
      const missing = SANDBOX_EVENTS.filter((type) => !answered.includes(type));
      return { step: i + 1, key: rule.key, title: rule.title, done: missing.length === 0, count: SANDBOX_EVENTS.length - missing.length, missing, link: rule.link };
    }
    const count = rule.count(counts);
    return { step: i + 1, key: rule.key, title: rule.title, done: count > 0, count, link: rule.link };
  });
  return { complete: steps.every((s) => s.done), done: steps.filter((s) => s.done).length, steps };
}
