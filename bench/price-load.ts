// The price load that batch.bench.ts and refresh.bench.ts send: `entries` prices over
// entries / 10 products (package sizes 1 to 10), each price known in advance, so that a
// run checks its result by the row count and the exact sum of prices.
import { call, checkBatches, ranges, waitForBatches, type RunningService, type Supplier } from './lib.ts';

export const PER_REQUEST = 50_000; // the contract's largest batch request
export const PACKAGE_SIZES = 10; // units 1..10 per product: products × 10 distinct (product, units) keys

export const productCode = (p: number) => `P${String(p + 1).padStart(7, '0')}`;
/** Entry i: product i / 10, units i % 10 + 1, a price of 1.00 .. 999.99 held as whole cents. */
export const entryOf = (i: number) => ({ p: Math.floor(i / PACKAGE_SIZES), units: (i % PACKAGE_SIZES) + 1, cents: 100 + ((i * 7919) % 99_900) });

/** Seeds through the API: one category, one brand, `products` products (productCode), then the price lists. */
export async function seedCatalog(service: RunningService, supplier: Supplier, products: number, priceLists: { internalCode: string; name: string }[]) {
  const as = { headers: supplier.headers };
  await call(service.baseUrl, 'PUT', '/category', { ...as, body: { internalCode: 'BENCH-CAT', name: 'Bench category' }, expect: 200 });
  const brand = await call(service.baseUrl, 'POST', '/batch/brand', { ...as, body: { upsert: [{ internalCode: 'BENCH-BRAND', name: 'Bench brand' }] }, expect: 202 });
  checkBatches('brand seed', await waitForBatches(service, supplier, brand.body.batchId));
  const ids: string[] = [];
  for (const [start, end] of ranges(products, PER_REQUEST)) {
    const upsert = [];
    for (let p = start; p < end; p++) {
      upsert.push({ internalCode: productCode(p), name: `Product ${p + 1}`, brandInternalCode: 'BENCH-BRAND', categoryInternalCode: 'BENCH-CAT' });
    }
    ids.push(...(await call(service.baseUrl, 'POST', '/batch/product', { ...as, body: { upsert }, expect: 202 })).body.batchId);
  }
  checkBatches('product seed', await waitForBatches(service, supplier, ids));
  for (const list of priceLists) await call(service.baseUrl, 'POST', '/pricelist', { ...as, body: list, expect: 200 });
}
