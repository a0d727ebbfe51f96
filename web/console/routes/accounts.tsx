// Receivables by age (GET /account/aging): every store's open invoice balances in the
// buckets the service counts to today (current, 1–30, 31–60, over 60 days past due), the
// totals first, the stores paged on the server; the store code filter and the page in the
// URL. Each store links to its account. Amounts are numbers (no console route answers the
// currency, web/README.md).
import { Link } from '@tanstack/react-router';
import { client } from '../lib/api.ts';
import { ListPage, useList } from '../components/list/ListPage.tsx';
import { useFormat, useT } from '../i18n.ts';

type Search = { store?: string; page?: number };
const BUCKETS = ['current', 'days1to30', 'days31to60', 'over60', 'total'] as const;

export default function Accounts() {
  const t = useT();
  const f = useFormat();
  const list = useList({
    query: (s: Search, page) => ({ storeInternalCode: s.store, page, take: 25 }),
    key: (query) => ['aging', query],
    fetch: (query) => client.get('/account/aging', { params: { query } }),
  });
  const aging = list.answer;
  return (
    <section>
      <h1>{t('accounts.title')}</h1>
      <ListPage
        list={list}
        filters={{ filters: [{ kind: 'text', searchbox: true, key: 'store', id: 'aging-store', label: t('accounts.search') }] }}
        empty={t('accounts.empty')}
        label={t('accounts.title')}
        rowKey={(row) => row.storeInternalCode}
        rowAttrs={(row) => ({ 'data-store': row.storeInternalCode })}
        columns={[
          {
            header: t('accounts.store'),
            rowHeader: true,
            cell: (row) => (
              <>
                <Link to="/accounts/$code" params={{ code: row.storeInternalCode }} aria-label={t('accounts.open', { name: row.storeName })}>
                  {row.storeName}
                </Link>{' '}
                <code className="muted small">{row.storeInternalCode}</code>
              </>
            ),
          },
          ...BUCKETS.map((b) => ({
            header: t(`accounts.${b}`),
            align: 'num' as const,
            attrs: { 'data-bucket': b },
            className: (row: { over60: number }) => (b === 'over60' && row.over60 > 0 ? 'overdue' : undefined),
            cell: (row: Record<(typeof BUCKETS)[number], number>) => f.money(row[b]),
          })),
        ]}
      >
        {/* The totals of every store, above the page of stores (the states are the list's). */}
        {aging.data && (
          <>
            <p className="muted">{t('accounts.asOf', { date: f.date(aging.data.asOf) })}</p>
            <ul className="figures" aria-label={t('accounts.all')} data-testid="aging-totals">
              {BUCKETS.map((b) => (
                <li key={b} className="figure-box" data-bucket={b}>
                  <span className="figure">{f.money(aging.data.totals[b])}</span> {t(`accounts.${b}`)}
                </li>
              ))}
            </ul>
          </>
        )}
      </ListPage>
    </section>
  );
}
