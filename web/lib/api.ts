// The shop's data access: one client (surtido/client's browser entry, typed by the
// service's OpenAPI document), query keys, and the hooks pages read through.
import { infiniteQueryOptions, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { createStoreAppClient, type ResponseData } from 'surtido/client';
import { session } from './session.ts';
import type { Language } from './i18n.ts';
import type { cartLines } from './cart-state.ts';
import type { DeliveryOption } from './delivery.ts';

export const client = createStoreAppClient({
  baseUrl: typeof location === 'undefined' ? 'http://localhost' : location.origin,
  token: () => session.get().token,
  onUnauthorized: () => void session.signOut(),
  fetch: (input, init) => takeEarly(String(input), init) ?? fetch(input, init),
});

declare global {
  /** What web/shop/early.ts asked as the page loaded, by address (path and query). */
  var surtidoEarly: Map<string, Promise<Response>> | undefined;
}

/**
 * The answer web/shop/early.ts asked for this address as the page loaded, taken once (a
 * later read of the same address asks the network); none for a write or another address.
 * The call's own time limit still holds.
 */
function takeEarly(url: string, init: RequestInit | undefined): Promise<Response> | undefined {
  const early = globalThis.surtidoEarly;
  if (!early || (init?.method ?? 'GET') !== 'GET') return undefined;
  const { pathname, search } = new URL(url, location.origin);
  const asked = early.get(pathname + search);
  if (!asked) return undefined;
  early.delete(pathname + search);
  const signal = init?.signal;
  return new Promise((resolve, reject) => {
    asked.then(resolve, reject);
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * Signing out ends the session on the service (DELETE /app/session), so the token stops
 * working even where a copy of it survives; the phone forgets everything whatever the
 * answer (offline, the session ends on its own when the token expires).
 */
export async function signOut() {
  if (session.get().token) await client.delete('/app/session').catch(() => undefined);
  await session.signOut();
}

export type CatalogPage = ResponseData<'/app/stores/{storeId}/catalog', 'get'>;
export type CatalogItem = CatalogPage['data'][number];
/** The priced cart (POST /app/stores/{storeId}/cart): the pricing engine's result, described field by field in openapi.json. */
export type PricedCart = ResponseData<'/app/stores/{storeId}/cart', 'post'>;
export type Notification = ResponseData<'/app/notifications', 'get'>['data'][number];

export type { Promotion } from './promotion-types.ts';

export const keys = {
  me: ['me'] as const,
  catalog: (storeId: number, q: { search?: string; category?: string; brand?: string; take: number }) => ['catalog', storeId, q] as const,
  filters: (storeId: number) => ['catalog-filters', storeId] as const,
  promotions: (storeId: number) => ['promotions', storeId] as const,
  orders: (storeId: number) => ['orders', storeId] as const,
  order: (id: number) => ['order', id] as const,
  tickets: (storeId: number) => ['tickets', storeId] as const,
  ticket: (id: number) => ['ticket', id] as const,
  notifications: ['notifications'] as const,
  cancelCodes: (storeId: number) => ['cancel-codes', storeId] as const,
};

// The queries a page reads first are declared once here (key, call, freshness): the page
// reads them through these, and web/shop/first-data.ts asks for the same ones as the app
// boots and before a page renders, so the page finds them in the cache (issue 34).

export const meQuery = queryOptions({ queryKey: keys.me, queryFn: () => client.get('/app/me'), staleTime: 60_000 });
export const useMe = () => useQuery(meQuery);

/** The categories and brands of what the store can buy, with names: the catalog filters' choices. */
export const catalogFiltersQuery = (storeId: number) =>
  queryOptions({
    queryKey: keys.filters(storeId),
    queryFn: () => client.get('/app/stores/{storeId}/catalog/filters', { params: { path: { storeId } } }),
    staleTime: 300_000,
  });
export const useCatalogFilters = (storeId: number) => useQuery(catalogFiltersQuery(storeId));

export const promotionsQuery = (storeId: number) =>
  queryOptions({
    queryKey: keys.promotions(storeId),
    queryFn: async () => (await client.get('/app/stores/{storeId}/promotions', { params: { path: { storeId } } })).data,
    staleTime: 60_000,
  });
export const usePromotions = (storeId: number) => useQuery(promotionsQuery(storeId));

/** The store's delivery dates (none for a store without a delivery zone). */
export const deliveryOptionsQuery = (storeId: number) =>
  queryOptions({
    queryKey: ['delivery-options', storeId] as const,
    queryFn: async (): Promise<DeliveryOption[]> => (await client.get('/app/stores/{storeId}/delivery-options', { params: { path: { storeId } } })).data,
    staleTime: 60_000,
  });

/** The store's account with its supplier: payment methods and credit (none set: nothing to choose). */
export const accountQuery = (storeId: number) =>
  queryOptions({
    queryKey: ['account', storeId] as const,
    queryFn: () => client.get('/app/stores/{storeId}/account', { params: { path: { storeId } } }),
    staleTime: 30_000,
  });

/** The cart's lines priced by the service, for a delivery date or none. */
export const pricedCartQuery = (storeId: number, lines: ReturnType<typeof cartLines>, deliveryDate: string | undefined) =>
  queryOptions({
    queryKey: ['cart', storeId, lines, deliveryDate] as const,
    queryFn: async (): Promise<PricedCart> =>
      client.post('/app/stores/{storeId}/cart', { params: { path: { storeId } }, body: { lines, ...(deliveryDate ? { deliveryDate } : {}) } }),
  });

/** The catalog's pages: `CATALOG_PAGE` products each, filtered by the URL's search, category and brand. */
export const CATALOG_PAGE = 24;
export type CatalogFilter = { search?: string; category?: string; brand?: string };
export const catalogQuery = (storeId: number, { search, category, brand }: CatalogFilter) => {
  const filter = { search, category, brand, take: CATALOG_PAGE };
  return infiniteQueryOptions({
    queryKey: keys.catalog(storeId, filter),
    queryFn: ({ pageParam }) => client.get('/app/stores/{storeId}/catalog', { params: { path: { storeId }, query: { ...filter, page: pageParam } } }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page < last.totalPages ? last.page + 1 : undefined),
  });
};

/** The store's latest orders (the orders page, and the orders a ticket may be about). */
export const ordersQuery = (storeId: number) =>
  queryOptions({ queryKey: keys.orders(storeId), queryFn: () => client.get('/app/stores/{storeId}/orders', { params: { path: { storeId }, query: { take: 50 } } }) });

export const unreadQuery = queryOptions({
  queryKey: [...keys.notifications, 'unread'],
  queryFn: async () => (await client.get('/app/notifications', { params: { query: { unread: true, take: 1 } } })).total,
  refetchInterval: 60_000,
});
export const useUnreadCount = () => useQuery({ ...unreadQuery, enabled: Boolean(session.get().token) });

/**
 * The language switch: kept on the phone at once and, when signed in, saved with the
 * person (PUT /app/me/preferences), whose language the shop adopts at every sign-in. A
 * save that fails (offline) leaves the person's saved language as it was.
 */
export function chooseLanguage(language: Language) {
  session.setLanguage(language);
  if (session.get().token) void client.put('/app/me/preferences', { body: { language } }).catch(() => undefined);
}

export function invalidateStore(queryClient: QueryClient, storeId: number) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: keys.orders(storeId) }),
    queryClient.invalidateQueries({ queryKey: keys.notifications }),
    // An order takes the store's credit (pending) and counts toward that date's minimum.
    queryClient.invalidateQueries({ queryKey: ['account', storeId] }),
  ]);
}

/** Names of products the page only knows by code (a gift), from the store's catalog. */
export function useProductNames(storeId: number, codes: readonly string[]) {
  const wanted = [...new Set(codes)].sort();
  const query = useQuery({
    queryKey: ['names', storeId, wanted],
    enabled: wanted.length > 0,
    staleTime: 300_000,
    queryFn: async () => {
      const found = await Promise.all(
        wanted.map(async (code) => (await client.get('/app/stores/{storeId}/catalog', { params: { path: { storeId }, query: { search: code, take: 50 } } })).data.find((p) => p.internalCode === code)),
      );
      return new Map(found.filter((p) => p !== undefined).map((p) => [p.internalCode, p.name]));
    },
  });
  return (code: string) => query.data?.get(code) ?? code;
}
