// What the app keeps on the phone, all under one prefix so signing out clears all of it
// (the phone may be shared): the token and when it ends, the chosen store, the language
// and each store's cart. A tiny store React reads with useSyncExternalStore.
import { useSyncExternalStore } from 'react';
import { parseCart, type CartItem } from './cart-state.ts';
import { pickLanguage, type Language, LANGUAGES } from './i18n.ts';

const PREFIX = 'surtido.shop.';
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
const read = (key: string) => {
  try {
    return localStorage.getItem(PREFIX + key);
  } catch {
    return null;
  }
};
const write = (key: string, value: string | null) => {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, value);
  } catch {
    // Private mode or a full disk: the app still works for this visit.
  }
  snapshot = load();
  emit();
};

export interface Session {
  token: string | undefined;
  storeId: number | undefined;
  language: Language;
}

function load(): Session {
  const expiresAt = Number(read('expiresAt'));
  const token = read('token') ?? undefined;
  const live = token && expiresAt > Date.now() ? token : undefined;
  const stored = read('language');
  const language = stored && stored in LANGUAGES ? (stored as Language) : pickLanguage(typeof navigator === 'undefined' ? [] : navigator.languages);
  const storeId = Number(read('storeId')) || undefined;
  return { token: live, storeId, language };
}

let snapshot = load();

export const session = {
  get: () => snapshot,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  signIn(token: string, expiresInSeconds: number) {
    write('expiresAt', String(Date.now() + expiresInSeconds * 1000));
    write('token', token);
  },
  chooseStore(storeId: number | undefined) {
    write('storeId', storeId === undefined ? null : String(storeId));
  },
  setLanguage(language: Language) {
    write('language', language);
  },
  /** Forgets everything this app kept, the offline copies included. */
  async signOut() {
    const language = snapshot.language;
    try {
      for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
    } catch {
      // nothing kept
    }
    if (typeof caches !== 'undefined') for (const name of await caches.keys()) if (name.startsWith('surtido-data')) await caches.delete(name);
    write('language', language);
  },
  cart(storeId: number): CartItem[] {
    return parseCart(read(`cart.${storeId}`));
  },
  saveCart(storeId: number, items: CartItem[]) {
    write(`cart.${storeId}`, items.length ? JSON.stringify(items) : null);
  },
};

export function useSession(): Session {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}

/** The cart of a store, kept across visits. */
export function useCart(storeId: number): [CartItem[], (next: CartItem[]) => void] {
  const raw = useSyncExternalStore(session.subscribe, () => read(`cart.${storeId}`), () => null);
  const items = parseCart(raw);
  return [items, (next) => session.saveCart(storeId, next)];
}
