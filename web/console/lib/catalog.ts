// The catalog pages' data (products, price lists, stores, groupers and stock, promotions):
// the answers' types as the console client names them, query keys, and the one lookup the
// supplier API offers no direct read for (a price list's or a stock grouper's summary
// without its entries).
import type { ConsoleResponse } from 'surtido/console-client';
import { client, valuesOf } from './api.ts';

export type Product = ConsoleResponse<'/product', 'get'>['data'][number];
export type PriceListSummary = ConsoleResponse<'/pricelist', 'get'>['data'][number];
export type PriceEntry = ConsoleResponse<'/pricelist/{code}/entries', 'get'>['data'][number];
export type Store = ConsoleResponse<'/store', 'get'>['data'][number];
export type GrouperSummary = ConsoleResponse<'/grouper/stock', 'get'>['data'][number];
export type Promotion = ConsoleResponse<'/promotion/{code}', 'get'>;
export type PromotionType = Promotion['type'];
export type CartAnswer = ConsoleResponse<'/store/{code}/cart', 'post'>;
export type GrouperKind = 'promotion' | 'stock';

export const PROMOTION_TYPES = valuesOf<PromotionType>({ DISCOUNT_SIMPLE: true, DISCOUNT_MULTIPLE: true, BONUS_INDIVIDUAL: true, BONUS_CROSSED: true });
export const GROUPER_KINDS = valuesOf<GrouperKind>({ promotion: true, stock: true });

export const catalogKeys = {
  products: (q: object) => ['products', q] as const,
  productSearch: (search: string) => ['product-search', search] as const,
  priceLists: (q: object) => ['pricelists', q] as const,
  priceList: (code: string) => ['pricelist', code] as const,
  entries: (code: string, q: object) => ['pricelist-entries', code, q] as const,
  stores: (q: object) => ['stores', q] as const,
  storeSearch: (search: string) => ['store-search', search] as const,
  groupers: (kind: GrouperKind, q: object) => ['groupers', kind, q] as const,
  grouper: (kind: GrouperKind, code: string) => ['grouper', kind, code] as const,
  stockRules: (code: string, q: object) => ['stock-rules', code, q] as const,
  promotions: (q: object) => ['promotions', q] as const,
  promotion: (code: string) => ['promotion', code] as const,
};

/** The most pages a summary lookup walks before saying the entity is not there (50 a page). */
const LOOKUP_PAGES = 20;

/**
 * A price list's summary (name, state, stores) without its prices: GET /pricelist/{code}
 * answers every price, which a 50,000-entry list makes heavy, so the page looks the code up
 * in GET /pricelist's search (its code or name contains the text) and keeps the exact code.
 * Null when there is none.
 */
export async function findPriceList(code: string): Promise<PriceListSummary | null> {
  for (let page = 1; page <= LOOKUP_PAGES; page++) {
    const found = await client.get('/pricelist', { params: { query: { search: code, take: 50, page } } });
    const hit = found.data.find((l) => l.internalCode === code);
    if (hit) return hit;
    if (page >= found.totalPages) break;
  }
  return null;
}

/** A grouper's summary, found the same way (GET /grouper/{kind} by search, the exact code kept). */
export async function findGrouper(kind: GrouperKind, code: string): Promise<GrouperSummary | null> {
  for (let page = 1; page <= LOOKUP_PAGES; page++) {
    const query = { search: code, take: 50, page };
    const found = kind === 'stock' ? await client.get('/grouper/stock', { params: { query } }) : await client.get('/grouper/promotion', { params: { query } });
    const hit = found.data.find((g) => g.internalCode === code);
    if (hit) return hit;
    if (page >= found.totalPages) break;
  }
  return null;
}

/** What has an enabled flag the console can switch, each through its own status route. */
export type Switchable = 'pricelist' | 'promotion' | 'promotion-grouper' | 'stock-grouper';

/** Sets an entity's enabled flag (the service's own write; the answer is not needed). */
export async function setEnabled(kind: Switchable, code: string, enabled: boolean): Promise<void> {
  const params = { path: { code } };
  const body = { enabled };
  if (kind === 'pricelist') await client.put('/pricelist/{code}/status', { params, body });
  else if (kind === 'promotion') await client.put('/promotion/{code}/status', { params, body });
  else if (kind === 'stock-grouper') await client.put('/grouper/{code}/status/stock', { params, body });
  else await client.put('/grouper/{code}/status/promotion', { params, body });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How a one-price batch ended: completed, failed (with the item's code and words), or still running at the deadline. */
export type PriceChange = { outcome: 'completed' } | { outcome: 'failed'; code: string | null; message: string | null } | { outcome: 'running' };

/**
 * Changes one price: the supplier API writes prices only in bulk (POST /batch/pricelist), so
 * this sends a batch of one upsert and follows it (GET /batch/{uuid}/status) until it ends,
 * answering its outcome. Every rule (an unknown product, a price out of range) is the
 * service's: a refused body throws, a failed item comes back with its code and message.
 */
export async function changePrice(
  entry: { priceListInternalCode: string; productInternalCode: string; units: number; price: number },
  options: { everyMs?: number; timeoutMs?: number } = {},
): Promise<PriceChange> {
  const { batchId } = await client.post('/batch/pricelist', { body: { upsert: { products: [entry] } } });
  const uuid = batchId[0]!;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const status = await client.get('/batch/{uuid}/status', { params: { path: { uuid } } });
    if (status.status !== 'processing') {
      if (status.failed === 0) return { outcome: 'completed' };
      const detail = await client.get('/batch/{uuid}/detail', { params: { path: { uuid }, query: { status: 'failed', take: 1 } } });
      const item = detail.detail[0];
      return { outcome: 'failed', code: item?.errorCode ?? null, message: item?.message ?? null };
    }
    if (Date.now() > deadline) return { outcome: 'running' };
    await sleep(options.everyMs ?? 400);
  }
}
