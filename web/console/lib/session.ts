// What the console keeps in the browser, all under one prefix so signing out clears it
// (the computer may be shared): the session's token and when it ends, and the language.
// The supplier the session acts for lives on the session itself (PUT /console/me/supplier).
import { useSyncExternalStore } from 'react';
import { LANGUAGE_NAMES, pickLanguage, type Language } from '../../lib/i18n.ts';

const PREFIX = 'surtido.console.';
const listeners = new Set<() => void>();
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
    // Private mode or a full disk: the console still works for this visit.
  }
  snapshot = load();
  listeners.forEach((l) => l());
};

export interface ConsoleSession {
  token: string | undefined;
  language: Language;
}

function load(): ConsoleSession {
  const token = read('token') ?? undefined;
  const live = token && Number(read('expiresAt')) > Date.now() ? token : undefined;
  const stored = read('language');
  const language = stored && stored in LANGUAGE_NAMES ? (stored as Language) : pickLanguage(typeof navigator === 'undefined' ? [] : navigator.languages);
  return { token: live, language };
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
  setLanguage(language: Language) {
    write('language', language);
  },
  /** Forgets the session (the language stays). */
  signOut() {
    write('token', null);
    write('expiresAt', null);
  },
};

export function useSession(): ConsoleSession {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}
