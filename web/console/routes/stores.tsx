// The supplier's stores by code, paged on the server (GET /store), the search, the state
// filter and the page in the URL: each with its price list, stock grouper and promotion
// groupers (links to them), its default address and its minimum order.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { client, useCan } from '../lib/api.ts';
import { catalogKeys, type Store } from '../lib/catalog.ts';
import { EnabledBadge, EnabledFilter, SearchForm } from '../components/catalog.tsx';
import { Listed, Pager } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

const TAKE = 25;
type Search = { search?: string; enabled?: boolean; page?: number };

function address(s: Store) {
  const a = s.addresses.find((x) => x.default) ?? s.addresses[0];
  return a ? `${a.street}, ${a.city}` : '—';
}

export default function Stores() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const search = useSearch({ from: '/stores' }) as Search;
  const navigate = useNavigate();
  const go = (next: Partial<Search>) => void navigate({ to: '/stores', search: { ...search, ...next } });
  const page = search.page ?? 1;
  const query = { search: search.search, enabled: search.enabled, page, take: TAKE };
  const stores = useQuery({
    queryKey: catalogKeys.stores(query),
    queryFn: () => client.get('/store', { params: { query } }),
    placeholderData: keepPreviousData,
  });
  const pricelists = can('supplier/pricelist.read');
  const groupers = can('supplier/grouper.read');
  return (
    <section>
      <h1>{t('stores.title')}</h1>
      <SearchForm key={search.search ?? ''} id="store-search" label={t('stores.search')} value={search.search} apply={(s) => go({ search: s, page: undefined })}>
        <EnabledFilter id="store-enabled" value={search.enabled} change={(enabled) => go({ enabled, page: undefined })} />
      </SearchForm>
      <Listed query={stores} empty={t('stores.empty')}>
        {(found) => (
          <>
            <div className="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('catalog.code')}</th>
                    <th scope="col">{t('catalog.name')}</th>
                    <th scope="col">{t('stores.address')}</th>
                    <th scope="col">{t('stores.priceList')}</th>
                    <th scope="col">{t('stores.stockGrouper')}</th>
                    <th scope="col">{t('stores.promotionGroupers')}</th>
                    <th scope="col" className="num">
                      {t('stores.minimum')}
                    </th>
                    <th scope="col">{t('catalog.state')}</th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.map((s) => (
                    <tr key={s.internalCode} data-store={s.internalCode}>
                      <td>
                        <code>{s.internalCode}</code>
                      </td>
                      <td>
                        {s.name}
                        {s.ownerName && <span className="muted small"> · {s.ownerName}</span>}
                      </td>
                      <td>{address(s)}</td>
                      <td>
                        {s.priceListCode === null ? (
                          <span className="muted">{t('stores.noPriceList')}</span>
                        ) : pricelists ? (
                          <Link to="/pricelists/$code" params={{ code: s.priceListCode }} search={{}}>
                            <code>{s.priceListCode}</code>
                          </Link>
                        ) : (
                          <code>{s.priceListCode}</code>
                        )}
                      </td>
                      <td>
                        {s.stockGrouperCode === null ? (
                          <span className="muted">{t('stores.noStockGrouper')}</span>
                        ) : groupers ? (
                          <Link to="/groupers/stock/$code" params={{ code: s.stockGrouperCode }} search={{}}>
                            <code>{s.stockGrouperCode}</code>
                          </Link>
                        ) : (
                          <code>{s.stockGrouperCode}</code>
                        )}
                      </td>
                      <td>{s.promotionGrouperCodes.length === 0 ? '—' : s.promotionGrouperCodes.map((g, i) => <code key={g}>{(i > 0 ? ', ' : '') + g}</code>)}</td>
                      <td className="num">{s.settings.dropSize === null ? '—' : f.money(s.settings.dropSize)}</td>
                      <td>
                        <EnabledBadge enabled={s.enabled} />
                      </td>
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
