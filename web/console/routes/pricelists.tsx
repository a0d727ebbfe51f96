// The supplier's price lists by code, paged on the server (GET /pricelist, without their
// prices), the search, the state filter and the page in the URL; each opens its prices, and
// a role that may write price lists can enable or disable one (asked, then confirmed).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { client, useCan } from '../lib/api.ts';
import { catalogKeys } from '../lib/catalog.ts';
import { EnabledBadge, EnabledFilter, EnabledSwitch, SearchForm } from '../components/catalog.tsx';
import { Listed, Pager } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

const TAKE = 25;
type Search = { search?: string; enabled?: boolean; page?: number };

export default function PriceLists() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const search = useSearch({ from: '/pricelists' }) as Search;
  const navigate = useNavigate();
  const go = (next: Partial<Search>) => void navigate({ to: '/pricelists', search: { ...search, ...next } });
  const page = search.page ?? 1;
  const query = { search: search.search, enabled: search.enabled, page, take: TAKE };
  const lists = useQuery({
    queryKey: catalogKeys.priceLists(query),
    queryFn: () => client.get('/pricelist', { params: { query } }),
    placeholderData: keepPreviousData,
  });
  const canWrite = can('supplier/pricelist.write');
  return (
    <section>
      <h1>{t('pricelists.title')}</h1>
      <SearchForm key={search.search ?? ''} id="pricelist-search" label={t('pricelists.search')} value={search.search} apply={(s) => go({ search: s, page: undefined })}>
        <EnabledFilter id="pricelist-enabled" value={search.enabled} change={(enabled) => go({ enabled, page: undefined })} />
      </SearchForm>
      <Listed query={lists} empty={t('pricelists.empty')}>
        {(found) => (
          <>
            <div className="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('catalog.code')}</th>
                    <th scope="col">{t('catalog.name')}</th>
                    <th scope="col" className="num">
                      {t('pricelists.stores')}
                    </th>
                    <th scope="col">{t('catalog.updated')}</th>
                    <th scope="col">{t('catalog.state')}</th>
                    {canWrite && (
                      <th scope="col">
                        <span className="visually-hidden">{t('catalog.actions')}</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {found.data.map((l) => (
                    <tr key={l.internalCode} data-pricelist={l.internalCode}>
                      <td>
                        <Link to="/pricelists/$code" params={{ code: l.internalCode }}>
                          <code>{l.internalCode}</code>
                        </Link>
                      </td>
                      <td>{l.name ?? '—'}</td>
                      <td className="num">{f.number(l.storeCount)}</td>
                      <td>{f.dateTime(l.updatedAt)}</td>
                      <td>
                        <EnabledBadge enabled={l.enabled} />
                      </td>
                      {canWrite && (
                        <td>
                          <EnabledSwitch kind="pricelist" code={l.internalCode} name={l.name ?? l.internalCode} enabled={l.enabled} invalidate={['pricelists', 'pricelist']} />
                        </td>
                      )}
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
