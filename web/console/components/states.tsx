// The states every page shows the same way: loading, empty, error, and a done notice.
import type { UseQueryResult } from '@tanstack/react-query';
import { errorText } from '../lib/api.ts';
import { useT } from '../i18n.ts';

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

/** What a write did, said once where the person looks. */
export function Notice({ children }: { children: React.ReactNode }) {
  return (
    <p role="status" className="notice">
      {children}
    </p>
  );
}

/** A server page's position and its previous/next links (the page lives in the URL). */
export function Pager({ page, totalPages, total, go }: { page: number; totalPages: number; total: number; go: (page: number) => void }) {
  const t = useT();
  if (total === 0) return null;
  return (
    <nav className="pager" aria-label={t('pager.label')}>
      <button type="button" disabled={page <= 1} onClick={() => go(page - 1)}>
        {t('pager.previous')}
      </button>
      <span>{t('pager.page', { page, pages: Math.max(totalPages, 1), total })}</span>
      <button type="button" disabled={page >= totalPages} onClick={() => go(page + 1)}>
        {t('pager.next')}
      </button>
    </nav>
  );
}

/**
 * A page of a list query, once it is there: the loading skeleton while it is pending, the
 * error with a retry, `empty` when the page has no rows, else `children` with the page.
 */
export function Listed<P extends { data: readonly unknown[] }>({ query, empty, children }: { query: UseQueryResult<P>; empty: React.ReactNode; children: (page: P) => React.ReactNode }) {
  if (query.isPending) return <Loading />;
  if (query.error) return <ErrorBox error={query.error} retry={() => void query.refetch()} />;
  if (query.data.data.length === 0) return <Empty>{empty}</Empty>;
  return children(query.data);
}
