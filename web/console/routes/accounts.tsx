// Receivables by age (GET /account/aging): every store's open invoice balances in the
// buckets the service counts to today (current, 1–30, 31–60, over 60 days past due), the
// totals first, the stores paged on the server; the store code filter and the page in the
// URL. Each store links to its account. Amounts are numbers (no console route answers the
// currency, web/README.md).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { client } from '../lib/api.ts';
import { SearchForm } from '../components/catalog.tsx';
import { ErrorBox, Listed, Loading, Pager } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

const TAKE = 25;
type Search = { store?: string; page?: number };
const BUCKETS = ['current', 'days1to30', 'days31to60', 'over60', 'total'] as const;

export default function Accounts() {
  const t = useT();
  const f = useFormat();
  const search = useSearch({ from: '/accounts' }) as Search;
  const navigate = useNavigate();
  const go = (next: Partial<Search>) => void navigate({ to: '/accounts', search: { ...search, ...next } });
  const query = { storeInternalCode: search.store, page: search.page ?? 1, take: TAKE };
  const aging = useQuery({
    queryKey: ['aging', query],
    queryFn: () => client.get('/account/aging', { params: { query } }),
    placeholderData: keepPreviousData,
  });
  return (
    <section>
      <h1>{t('accounts.title')}</h1>
      <SearchForm key={search.store ?? ''} id="aging-store" label={t('accounts.search')} value={search.store} apply={(store) => go({ store, page: undefined })} />
      {aging.isPending ? (
        <Loading />
      ) : aging.error && !aging.data ? (
        <ErrorBox error={aging.error} retry={() => void aging.refetch()} />
      ) : (
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
      <Listed query={aging} empty={t('accounts.empty')}>
        {(found) => (
          <>
            <div className="table-wrap" tabIndex={0} role="region" aria-label={t('accounts.title')}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('accounts.store')}</th>
                    {BUCKETS.map((b) => (
                      <th key={b} scope="col" className="num">
                        {t(`accounts.${b}`)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {found.data.map((row) => (
                    <tr key={row.storeInternalCode} data-store={row.storeInternalCode}>
                      <th scope="row">
                        <Link to="/accounts/$code" params={{ code: row.storeInternalCode }} aria-label={t('accounts.open', { name: row.storeName })}>
                          {row.storeName}
                        </Link>{' '}
                        <code className="muted small">{row.storeInternalCode}</code>
                      </th>
                      {BUCKETS.map((b) => (
                        <td key={b} className={b === 'over60' && row.over60 > 0 ? 'num overdue' : 'num'} data-bucket={b}>
                          {f.money(row[b])}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={found.page} totalPages={found.totalPages} total={found.total} go={(p) => go({ page: p === 1 ? undefined : p })} />
          </>
        )}
      </Listed>
    </section>
  );
}
