// "Lo de siempre", "Sugerido para ti" and "Repetir": the shop's reads and writes of the
// order guide and the store's recommendations (src/modules/order-guide/README.md). Every
// rule (usual quantities, the par's fill, prices, availability) is the service's; the
// app adds what it answers to the cart.
import { useQuery } from '@tanstack/react-query';
import type { ResponseData } from 'surtido/client';
import { client } from './api.ts';
import { addItem, type CartItem } from './cart-state.ts';

export type OrderGuide = ResponseData<'/app/stores/{storeId}/order-guide', 'get'>;
export type GuideItem = OrderGuide['data'][number];
export type StoreRecommendation = ResponseData<'/app/stores/{storeId}/recommendations', 'get'>['data'][number];
export type GuideSort = OrderGuide['sort'];

export const guideKeys = {
  guide: (storeId: number, sort: GuideSort) => ['order-guide', storeId, sort] as const,
  all: (storeId: number) => ['order-guide', storeId] as const,
  recommendations: (storeId: number) => ['recommendations', storeId] as const,
};

export const useOrderGuide = (storeId: number, sort: GuideSort) =>
  useQuery({
    queryKey: guideKeys.guide(storeId, sort),
    queryFn: () => client.get('/app/stores/{storeId}/order-guide', { params: { path: { storeId }, query: { sort } } }),
  });

export const useRecommendations = (storeId: number) =>
  useQuery({
    queryKey: guideKeys.recommendations(storeId),
    queryFn: async () => (await client.get('/app/stores/{storeId}/recommendations', { params: { path: { storeId } } })).data,
    staleTime: 60_000,
  });

/** Adds lines to a cart (a size already there grows); answers the cart and how many lines were added. */
export function addLines(cart: readonly CartItem[], lines: readonly CartItem[]): { items: CartItem[]; added: number } {
  let items = [...cart];
  let added = 0;
  for (const line of lines) {
    if (line.quantity <= 0) continue;
    items = addItem(items, line);
    added++;
  }
  return { items, added };
}
