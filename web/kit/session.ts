// A session store for a web app: what it keeps in the browser's localStorage, all under one
// prefix so signing out can forget it (the phone or computer may be shared), read by React
// through useSyncExternalStore. Every store keeps the token and when it ends (`token`,
// `expiresAt`: an expired token reads as none) and the language (`language`, else the
// browser's); an app adds what else it keeps with `extra` and the `read`/`write` it is given.
import { useSyncExternalStore } from 'react';
import { isLanguage, pickLanguage, type Language } from './i18n.ts';

export interface SessionBase {
  token: string | undefined;
  language: Language;
}

export interface SessionStoreOptions<E extends object> {
  /** `surtido.shop.`: every key the app keeps starts with it. */
  prefix: string;
  /** What else the session carries, read from the app's own keys. */
  extra: (read: (key: string) => string | null) => E;
  /**
   * What signing out forgets: `everything` (every key under the prefix but the language,
   * then `forgetMore`, e.g. the offline copies), or `token` (the token and its end only).
   */
  forget: 'everything' | 'token';
  forgetMore?: () => Promise<void>;
}

export function createSessionStore<E extends object>(options: SessionStoreOptions<E>) {
  const { prefix } = options;
  type S = SessionBase & E;
  const listeners = new Set<() => void>();
  const read = (key: string): string | null => {
    try {
      return localStorage.getItem(prefix + key);
    } catch {
      return null;
    }
  };
  const load = (): S => {
    const token = read('token') ?? undefined;
    const live = token && Number(read('expiresAt')) > Date.now() ? token : undefined;
    const stored = read('language');
    const language = isLanguage(stored) ? stored : pickLanguage(typeof navigator === 'undefined' ? [] : navigator.languages);
    return { ...options.extra(read), token: live, language };
  };
  let snapshot = load();
  const changed = () => {
    snapshot = load();
    listeners.forEach((l) => l());
  };
  const put = (key: string, value: string | null) => {
    try {
      if (value === null) localStorage.removeItem(prefix + key);
      else localStorage.setItem(prefix + key, value);
    } catch {
      // Private mode or a full disk: the app still works for this visit.
    }
  };
  const write = (key: string, value: string | null) => {
    put(key, value);
    changed();
  };

  const session = {
    get: (): S => snapshot,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    signIn(token: string, expiresInSeconds: number) {
      write('expiresAt', String(Date.now() + expiresInSeconds * 1000));
      write('token', token);
    },
    setLanguage(language: Language) {
      write('language', language);
    },
    /** Forgets what `forget` says; the language stays. Listeners hear once, when it is all gone. */
    async signOut() {
      if (options.forget === 'token') {
        put('token', null);
        put('expiresAt', null);
      } else {
        try {
          for (const key of Object.keys(localStorage)) if (key.startsWith(prefix) && key !== `${prefix}language`) localStorage.removeItem(key);
        } catch {
          // nothing kept
        }
        await options.forgetMore?.();
      }
      changed();
    },
  };
  const useSession = (): S => useSyncExternalStore(session.subscribe, session.get, session.get);
  return { session, read, write, useSession };
}
