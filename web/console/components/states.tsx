// The states every page shows the same way: loading, empty and error are the kit's in the
// console's words (web/kit/states.tsx); a done notice, the pager and a listed page are the
// console's own.
import type { UseQueryResult } from '@tanstack/react-query';
import { createStates } from '../../kit/states.tsx';
import { problemMessage, useT } from '../i18n.ts';

export const { Loading, Empty, ErrorBox } = createStates(useT, problemMessage);

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
