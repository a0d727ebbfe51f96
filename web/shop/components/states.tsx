// The states every page shows the same way: loading, empty, error, offline.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { errorText } from '../../lib/api.ts';
import { useT } from '../i18n.tsx';

const subscribe = (cb: () => void) => {
  addEventListener('online', cb);
  addEventListener('offline', cb);
  return () => {
    removeEventListener('online', cb);
    removeEventListener('offline', cb);
  };
};
export const useOnline = () => useSyncExternalStore(subscribe, () => navigator.onLine, () => true);

export function Loading({ rows = 3 }: { rows?: number }) {
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

export function Empty({ children }: { children: React.ReactNode }) {
  return <p className="empty">{children}</p>;
}

export function ErrorBox({ error, retry }: { error: unknown; retry?: () => void }) {
  const t = useT();
  return (
    <div role="alert" className="error">
      <p>{errorText(t, error)}</p>
      {retry && (
        <button type="button" onClick={retry}>
          {t('state.retry')}
        </button>
      )}
    </div>
  );
}

export function OfflineBanner() {
  const t = useT();
  const online = useOnline();
  const [shown, setShown] = useState(!online);
  useEffect(() => setShown(!online), [online]);
  if (!shown) return null;
  return (
    <p role="status" className="offline">
      {t('state.offline')}
    </p>
  );
}
