// Small fixtures many test files share, written once: the file's app (with one supplier), the
// timestamp every answer writes, a status-checked JSON answer, price list entries, and
// imported PENDING orders.
import { afterAll, beforeAll, expect } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from './app.ts';

/** An ISO 8601 UTC timestamp with milliseconds, as every answer writes one. */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** `createdAt` and `updatedAt` as ISO timestamps, for an entity compared whole. */
export const stamps = { createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) };

/**
 * The app a test file builds once, with one supplier of its own:
 * `beforeAll(async () => { ({ t, s } = await appWithSupplier()); })`, then `afterAll(() => t.close())`.
 */
export async function appWithSupplier(options?: Parameters<typeof createTestApp>[0]): Promise<{ t: TestApp; s: TestSupplier }> {
  const t = await createTestApp(options);
  return { t, s: await t.supplier() };
}

/**
 * Builds the file's app before its tests and closes it after them, handing it to `use` once
 * built: `let t: TestApp; appForFile((app) => (t = app));`.
 */
export function appForFile(use: (t: TestApp) => void, options?: Parameters<typeof createTestApp>[0]) {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await createTestApp(options);
    use(t);
  });
  afterAll(() => t?.close());
}

/** The answer's JSON body, after checking its status (200 unless said). */
export async function json(res: Promise<{ statusCode: number; body: string }>, status = 200) {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return JSON.parse(r.body);
}

/** Price list entries of `list`, one per `[product, units, price]`, as POST /batch/pricelist takes them. */
export const priceEntries = (list: string, rows: readonly (readonly [product: string, units: number, price: number])[]) =>
  rows.map(([productInternalCode, units, price]) => ({ priceListInternalCode: list, productInternalCode, units, price }));

/** An order line as the history import takes it. */
export interface ImportedLine {
  internalCode: string;
  units: number;
  quantity: number;
  unitPrice: number;
}

/**
 * Imports PENDING orders of store S1 placed on 2026-03-01 (the quickest way to have orders
 * in a known state), one per `[externalId, lines]`, waits for the import, and answers
 * their ids in the same order.
 */
export async function importPendingOrders(t: TestApp, s: TestSupplier, orders: readonly (readonly [externalId: string, lines: ImportedLine[]])[]): Promise<number[]> {
  await t.runBatch(s, '/order/bulk-import', {
    orders: orders.map(([externalId, products]) => ({ externalId, storeInternalCode: 'S1', createdAt: '2026-03-01T10:00:00Z', status: 'PENDING', products })),
  });
  const list = (await as(t, s, 'GET', '/order?take=50')).json().data as { id: number; externalId: string }[];
  return orders.map(([externalId]) => list.find((x) => x.externalId === externalId)!.id);
}
