// What a page shows first, asked before the page renders (issue 34). On a cheap phone the
// catalog's answer used to be asked only once the app had booted, the page's chunk had
// loaded and the page had rendered its skeleton; the answer then re-rendered every card at
// once, in one long task (an answer from the query cache is a blocking React update).
//
// Now the app asks as it boots (main.tsx, with the page's chunk), and each page's route
// loader waits for the same answers (the cache holds each query once, so nothing is asked
// twice): the page's first render already has its data, inside the router's transition,
// which React renders in slices that leave the phone responsive. The wait is bounded
// (FIRST_DATA_WAIT_MS): on a slow or lost network the page renders with its own loading,
// error and offline states, as before. Answers are never awaited for their value: a
// failed one stays in the cache and the page shows it (prefetch never throws).
import type { QueryClient } from '@tanstack/react-query';
import { accountQuery, catalogFiltersQuery, catalogQuery, deliveryOptionsQuery, meQuery, ordersQuery, pricedCartQuery, promotionsQuery, unreadQuery } from '../lib/api.ts';
import { cartLines } from '../lib/cart-state.ts';
import { session } from '../lib/session.ts';

/** The longest a page waits for its first data before rendering its own loading state. */
const FIRST_DATA_WAIT_MS = 2_500;

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** The catalog's search in the URL (its route's validateSearch, and what is asked early). */
export const catalogSearch = (s: Record<string, unknown>) => ({ search: text(s.search), category: text(s.category), brand: text(s.brand) });

type Asks = (queryClient: QueryClient, storeId: number, search: Record<string, unknown>) => Promise<unknown>[];

/** Each page's first data beyond what every signed-in page shows (the person, the unread count). */
const PAGES: Record<string, Asks> = {
  '/catalog': (q, storeId, search) => [
    q.prefetchInfiniteQuery(catalogQuery(storeId, catalogSearch(search))),
    // Each card shows the promotions it takes part in: their late arrival re-rendered every card.
    q.prefetchQuery(promotionsQuery(storeId)),
    q.prefetchQuery(catalogFiltersQuery(storeId)),
  ],
  '/promotions': (q, storeId) => [q.prefetchQuery(promotionsQuery(storeId))],
  // Everything the cart lays out: its lines' prices, the delivery bar, the payment choice
  // and the gifts' names. Arriving one by one after the page, each pushed the page down
  // (layout shifts) and re-rendered it.
  '/cart': (q, storeId) => {
    const items = session.cart(storeId);
    return [
      q.prefetchQuery(promotionsQuery(storeId)),
      q.prefetchQuery(deliveryOptionsQuery(storeId)),
      q.prefetchQuery(accountQuery(storeId)),
      // Priced only with a network, as the page asks it: offline the page shows the last
      // prices it kept, and would otherwise wait out this prefetch's retries first.
      ...(items.length > 0 && navigator.onLine ? [q.prefetchQuery(pricedCartQuery(storeId, cartLines(items), undefined))] : []),
    ];
  },
  '/orders': (q, storeId) => [q.prefetchQuery(ordersQuery(storeId))],
};

/**
 * Asks for what the page at `path` (without the app's base) shows first, for the session
 * on the phone, and answers when it has arrived or FIRST_DATA_WAIT_MS have passed.
 */
export function firstData(queryClient: QueryClient, path: string, search: Record<string, unknown>): Promise<void> {
  const { token, storeId } = session.get();
  if (!token) return Promise.resolve();
  const asks: Promise<unknown>[] = [queryClient.prefetchQuery(meQuery), queryClient.prefetchQuery(unreadQuery)];
  if (storeId !== undefined) asks.push(...(PAGES[path]?.(queryClient, storeId, search) ?? []));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_DATA_WAIT_MS)));
  return Promise.race([Promise.all(asks).then(() => undefined), waited]).finally(() => clearTimeout(timer));
}
