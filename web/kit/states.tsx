// The states every page shows the same way in both apps: loading (a skeleton), empty, an
// error (translated where the app's catalog knows the problem's code, else the problem's
// own detail) and whether the browser is online. Each app builds them once with its own
// words (`state.loading`, `state.retry`, `state.error`, `error.NETWORK_ERROR`).
import { useSyncExternalStore, type ReactNode } from 'react';
import { SurtidoApiError } from 'surtido/client';

/** The words the states say: any app translator whose catalog has these keys. */
export type StateWords = (key: 'state.loading' | 'state.retry' | 'state.error' | 'error.NETWORK_ERROR') => string;

/** What to tell the person about a failed call: the translated code, else the problem's own detail. */
export function errorText<T extends StateWords>(t: T, error: unknown, problemMessage: (t: T, code: string) => string | undefined): string {
  // A refusal naming fields whose code the page has no words for (one problem's code, such
  // as INVALID_LENGTH, stands as the top code) reads as the check-the-data message; the
  // service's detail (English, with JSON Pointers) is the last resort.
  if (error instanceof SurtidoApiError) return problemMessage(t, error.code) ?? (error.errors.length > 0 ? problemMessage(t, 'VALIDATION_FAILED') : undefined) ?? error.detail;
  if (error && typeof error === 'object' && 'code' in error && (error as { code: unknown }).code === 'NETWORK_ERROR') return t('error.NETWORK_ERROR');
  if (error instanceof TypeError) return t('error.NETWORK_ERROR');
  return error instanceof Error ? error.message : t('state.error');
}

const subscribe = (cb: () => void) => {
  addEventListener('online', cb);
  addEventListener('offline', cb);
  return () => {
    removeEventListener('online', cb);
    removeEventListener('offline', cb);
  };
};
export const useOnline = () => useSyncExternalStore(subscribe, () => navigator.onLine, () => true);

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** The loading and error states in an app's words (`useT`) and problem messages. */
export function createStates<T extends StateWords>(useT: () => T, problemMessage: (t: T, code: string) => string | undefined) {
  function Loading({ rows = 3 }: { rows?: number }) {
    const t = useT();
    return (
      <div role="status" aria-live="polite" className="loading">
        <span className="visually-hidden">{t('state.loading')}</span>
        {Array.from({ length: rows }, (_, i) => (
          <div key={i} className="skeleton" aria-hidden="true" />
        ))}
      </div>
    );
  }

  function ErrorBox({ error, retry }: { error: unknown; retry?: () => void }) {
    const t = useT();
    return (
      <div role="alert" className="error">
        <p>{errorText(t, error, problemMessage)}</p>
        {retry && (
          <button type="button" onClick={retry}>
            {t('state.retry')}
          </button>
        )}
      </div>
    );
  }

  return { Loading, ErrorBox, Empty };
}
