// What the shop keeps on the phone, all under `surtido.shop.` so signing out clears all of
// it but the language, and the offline copies too (the phone may be shared): the token and
// when it ends, the chosen store, the language and each store's cart. The store itself is
// the kit's (web/kit/session.ts); the keys and their shapes are the ones phones already have.
import { useSyncExternalStore } from 'react';
import { createSessionStore } from '../kit/session.ts';
import { parseCart, type CartItem } from './cart-state.ts';

const store = createSessionStore({
  prefix: 'surtido.shop.',
  extra: (read) => ({ storeId: Number(read('storeId')) || undefined }),
  forget: 'everything',
  async forgetMore() {
    if (typeof caches !== 'undefined') for (const name of await caches.keys()) if (name.startsWith('surtido-data')) await caches.delete(name);
  },
});
const { read, write } = store;


export const session = {
  ...store.session,
  chooseStore(storeId: number | undefined) {
    write('storeId', storeId === undefined ? null : String(storeId));
  },
  cart(storeId: number): CartItem[] {
    return parseCart(read(`cart.${storeId}`));
  },
  saveCart(storeId: number, items: CartItem[]) {
    write(`cart.${storeId}`, items.length ? JSON.stringify(items) : null);
  },
};

export const useSession = store.useSession;

/** The cart of a store, kept across visits. */
export function useCart(storeId: number): [CartItem[], (next: CartItem[]) => void] {
  const raw = useSyncExternalStore(session.subscribe, () => read(`cart.${storeId}`), () => null);
  const items = parseCart(raw);
  return [items, (next) => session.saveCart(storeId, next)];
}
