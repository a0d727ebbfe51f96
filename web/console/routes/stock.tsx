// One stock grouper: its summary (found through GET /grouper/stock's search), the switch
// for writers, and its stock rules paged on the server (GET /grouper/{code}/stock/rules),
// the search, the availability filter and the page in the URL. A rule without a package
// size is for every size of the product.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { client, useCan } from '../lib/api.ts';
import { catalogKeys, findGrouper } from '../lib/catalog.ts';
import { EnabledBadge, EnabledSwitch, SearchForm } from '../components/catalog.tsx';
import { ErrorBox, Listed, Loading, Pager } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

const TAKE = 25;
type Search = { search?: string; available?: boolean; page?: number };

function Summary({ code }: { code: string }) {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const summary = useQuery({ queryKey: catalogKeys.grouper('stock', code), queryFn: () => findGrouper('stock', code) });
  if (summary.isPending) return <Loading rows={1} />;
  if (summary.error) return <ErrorBox error={summary.error} retry={() => void summary.refetch()} />;
  if (!summary.data) return null;
  const g = summary.data;
  return (
    <div className="panel">
      <dl className="facts">
        <dt>{t('catalog.name')}</dt>
        <dd>{g.name}</dd>
        <dt>{t('catalog.state')}</dt>
        <dd>
          <EnabledBadge enabled={g.enabled} />
        </dd>
        <dt>{t('groupers.stores')}</dt>
        <dd>{f.number(g.storeCount)}</dd>
      </dl>
      {can('supplier/grouper.write') && <EnabledSwitch kind="stock-grouper" code={g.internalCode} name={g.name} enabled={g.enabled} invalidate={['groupers', 'grouper']} />}
    </div>
  );
}

export default function StockGrouper() {
  const t = useT();
  const f = useFormat();
  const code = useParams({ from: '/groupers/stock/$code' }).code;
  const search = useSearch({ from: '/groupers/stock/$code' }) as Search;
  const navigate = useNavigate();
  const go = (next: Partial<Search>) => void navigate({ to: '/groupers/stock/$code', params: { code }, search: { ...search, ...next } });
  const page = search.page ?? 1;
  const query = { search: search.search, available: search.available, page, take: TAKE };
  const rules = useQuery({
    queryKey: catalogKeys.stockRules(code, query),
    queryFn: () => client.get('/grouper/{code}/stock/rules', { params: { path: { code }, query } }),
    placeholderData: keepPreviousData,
  });
  return (
    <section>
      <p>
        <Link to="/groupers" search={{ kind: 'stock' }}>
          {t('stock.back')}
        </Link>
      </p>
      <h1>{t('stock.title', { code })}</h1>
      <Summary code={code} />
      <h2>{t('stock.rules')}</h2>
      <p className="help">{t('stock.about')}</p>
      <SearchForm key={search.search ?? ''} id="rule-search" label={t('pricelist.search')} value={search.search} apply={(s) => go({ search: s, page: undefined })}>
        <div>
          <label htmlFor="rule-available">{t('stock.availability')}</label>
          <select
            id="rule-available"
            value={search.available === undefined ? '' : String(search.available)}
            onChange={(e) => go({ available: e.target.value === '' ? undefined : e.target.value === 'true', page: undefined })}
          >
            <option value="">{t('catalog.all')}</option>
            <option value="true">{t('stock.available')}</option>
            <option value="false">{t('stock.unavailable')}</option>
          </select>
        </div>
      </SearchForm>
      <Listed query={rules} empty={t('stock.empty')}>
        {(found) => (
          <>
            <div className="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('catalog.code')}</th>
                    <th scope="col">{t('pricelist.product')}</th>
                    <th scope="col">{t('pricelist.size')}</th>
                    <th scope="col">{t('stock.availability')}</th>
                    <th scope="col">{t('catalog.updated')}</th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.map((r) => (
                    <tr key={`${r.productInternalCode}/${r.units ?? '*'}`} data-rule={r.productInternalCode}>
                      <td>
                        <code>{r.productInternalCode}</code>
                      </td>
                      <td>{r.productName}</td>
                      <td>{r.units === null ? t('stock.everySize') : f.number(r.units)}</td>
                      <td>
                        <span className={r.available ? 'status status-on' : 'status status-off'}>{r.available ? t('stock.available') : t('stock.unavailable')}</span>
                      </td>
                      <td>{f.dateTime(r.updatedAt)}</td>
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
