// A realistic supplier for the store-side benchmarks (bench:store-catalog, bench:orders),
// loaded through the service's own batch API, as a supplier's integration would:
// BENCH_STORE_PRODUCTS products (default 10,000) in 3 package sizes, 20 price lists (every
// product priced in every list, in every size), 200 stores spread over the lists, 4 stock
// groupers each marking about 2 % of the products or sizes unavailable, 5 promotion
// groupers, and 500 promotions in force of the four types (a fifth of them for one
// segment only). Then a store user for the first store, with a token.
import { sql } from 'kysely';
import { call, createSupplier, envInt, type RunningService, type Supplier, waitForBatches } from './lib.ts';

export const SIZES = [1, 6, 24];
const LISTS = 20;
const STORES = 200;
const PROMOTIONS = 500;
const STOCK_GROUPERS = 4;
const SEGMENTS = 5;
const PER_REQUEST = 50_000;

export interface StoreSupplier {
  supplier: Supplier;
  products: string[];
  /** The first store's id, the token of a user of it (store S0, price list L0). */
  storeId: number;
  token: string;
}

const chunks = <T>(items: T[], size: number) => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

export async function loadStoreSupplier(service: RunningService, log: (message: string) => void): Promise<StoreSupplier> {
  const count = envInt('BENCH_STORE_PRODUCTS', 10_000);
  const s = await createSupplier(service, 'STORE_SIDE');
  const base = service.baseUrl;
  const as = { headers: s.headers };
  const send = async (url: string, body: unknown) => (await call(base, 'POST', url, { ...as, body, expect: 202 })).body.batchId as string[];
  const started = performance.now();

  for (let c = 0; c < 10; c++) await call(base, 'PUT', '/category', { ...as, body: { internalCode: `C${c}`, name: `Category ${c}` }, expect: 200 });
  for (let g = 0; g < STOCK_GROUPERS; g++) await call(base, 'POST', '/grouper/stock', { ...as, body: { internalCode: `W${g}`, name: `Warehouse ${g}` }, expect: 200 });
  for (let g = 0; g < SEGMENTS; g++) await call(base, 'POST', '/grouper/promotion', { ...as, body: { internalCode: `SEG${g}`, name: `Segment ${g}` }, expect: 200 });
  for (let l = 0; l < LISTS; l++) await call(base, 'POST', '/pricelist', { ...as, body: { internalCode: `L${l}` }, expect: 200 });
  await waitForBatches(service, s, await send('/batch/brand', Array.from({ length: 50 }, (_, b) => ({ internalCode: `B${b}`, name: `Brand ${b}` }))));

  // Names that do not sort like codes, so the page order is the name's, as a real catalogue's.
  const products = Array.from({ length: count }, (_, i) => `P${String(i).padStart(5, '0')}`);
  const productBodies = products.map((code, i) => ({
    internalCode: code,
    name: `${['Arroz', 'Café', 'Leche', 'Aceite', 'Jabón', 'Galletas', 'Atún', 'Harina'][i % 8]} ${(i * 7919) % count}`,
    description: `A product of the bench, ${code}`,
    brandInternalCode: `B${i % 50}`,
    categoryInternalCode: `C${i % 10}`,
    displayProducts: [{ units: 1, name: 'Unit' }, { units: 6, name: 'Pack of 6' }, { units: 24, name: 'Box of 24' }],
  }));
  let ids: string[] = [];
  for (const part of chunks(productBodies, PER_REQUEST)) ids.push(...(await send('/batch/product', { upsert: part })));
  await waitForBatches(service, s, ids);

  ids = [];
  const entries = (l: number) => products.flatMap((code, i) => SIZES.map((units) => ({ priceListInternalCode: `L${l}`, productInternalCode: code, units, price: Math.round((1000 + i + l * 13) * units * (units === 1 ? 1 : 0.95)) })));
  for (let l = 0; l < LISTS; l++) for (const part of chunks(entries(l), PER_REQUEST)) ids.push(...(await send('/batch/pricelist', { upsert: { products: part } })));
  const stores = Array.from({ length: STORES }, (_, i) => ({
    internalCode: `S${i}`,
    name: `Store ${i}`,
    priceListCode: `L${i % LISTS}`,
    stockGrouperCode: `W${i % STOCK_GROUPERS}`,
    promotionGrouperCodes: [`SEG${i % SEGMENTS}`],
    addresses: [{ street: `Calle ${i}`, city: 'Bogotá', default: true }],
  }));
  ids.push(...(await send('/batch/store', { upsert: stores })));
  const rules = Array.from({ length: STOCK_GROUPERS }, (_, g) =>
    products.flatMap((code, i) => ((i + g) % 50 === 0 ? [{ grouperCode: `W${g}`, productInternalCode: code, available: false }] : (i + g) % 50 === 25 ? [{ grouperCode: `W${g}`, productInternalCode: code, units: 24, available: false }] : [])),
  ).flat();
  ids.push(...(await send('/batch/stock/grouper', { upsert: rules })));
  await waitForBatches(service, s, ids);

  // 500 promotions in force: each names 2 to 10 products spread over the catalogue.
  const window = { start: '2020-01-01', end: '2099-12-31', enabled: true };
  const named = (p: number, n: number) => Array.from({ length: n }, (_, k) => ({ internalCode: products[(p * 37 + k * 997) % count]! }));
  const simple: object[] = [], multiple: object[] = [], individual: object[] = [], crossed: object[] = [];
  for (let p = 0; p < PROMOTIONS; p++) {
    const common = { ...window, internalCode: `PR${p}`, name: `Promotion ${p}`, ...(p % 5 === 0 ? { promotionGrouperCodes: [`SEG${p % SEGMENTS}`] } : {}) };
    const many = named(p, 2 + (p % 9));
    if (p % 4 === 0) simple.push({ ...common, products: many[0], discountTiersData: [{ min: 3, max: 9, discountPercentage: 5 }, { min: 10, discountPercentage: 10 }] });
    else if (p % 4 === 1) multiple.push({ ...common, products: many, discountTiersDataCash: [{ min: 50_000, max: 199_999, discountPercentage: 3 }, { min: 200_000, discountAmount: 8000 }] });
    else if (p % 4 === 2) individual.push({ ...common, products: many[0], bonusTierData: { quantityRequired: 12, quantityGiven: 1, units: 1 } });
    else crossed.push({ ...common, products: many, bonusTierData: { quantityRequired: 20, quantityGiven: 2, units: 1, productInternalCode: products[(p * 11) % count] } });
  }
  await waitForBatches(service, s, await send('/batch/promotion', { upsert: { discount: { simple, multiple }, bonus: { individual, crossed } } }));

  // Autovacuum analyzes freshly loaded tables within a minute or so; the bench does not
  // wait for it. Without statistics the planner takes 600,000 prices for a handful.
  await sql`analyze`.execute(service.deps.db);

  const phone = '+573009990000';
  await call(base, 'POST', '/store/S0/add/user', { ...as, body: { users: [{ phone, name: 'Bench buyer' }] }, expect: 200 });
  const token = (await call(base, 'POST', '/admin/store-users/token', { headers: { authorization: `Bearer ${service.adminToken}` }, body: { phone }, expect: 200 })).body.access_token as string;
  const storeId = (await call(base, 'GET', '/app/me', { headers: { authorization: `Bearer ${token}` }, expect: 200 })).body.stores[0].id as number;
  log(`supplier loaded in ${((performance.now() - started) / 1000).toFixed(1)} s: ${count} products × ${SIZES.length} sizes, ${LISTS} price lists (${count * SIZES.length * LISTS} prices), ${STORES} stores, ${rules.length} stock rules, ${PROMOTIONS} promotions`);
  return { supplier: s, products, storeId, token };
}

/**
 * The cart of the benchmarks: 20 lines of products that promotions name (so discounts and
 * bonuses apply), in several sizes, all available to store S0 (its warehouse W0 marks
 * products 0, 50, ... unavailable and the boxes of 25, 75, ...).
 */
export function benchCart(products: string[]) {
  const named = Array.from({ length: PROMOTIONS }, (_, p) => (p * 37) % products.length).filter((i) => i % 50 !== 0 && i % 50 !== 25);
  const picked = [...new Set(named.filter((_, n) => n % 7 === 1))].slice(0, 20);
  return picked.map((i, k) => ({ productInternalCode: products[i]!, units: SIZES[k % SIZES.length]!, quantity: 3 + ((k * 5) % 22) }));
}
