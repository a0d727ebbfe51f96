// The supplier's promotions by start date, then code, paged on the server (GET /promotion):
// the search, type, state and date filters and the page in the URL (from/to keep the
// promotions running on some day between them, as the service decides). Each opens its
// detail; a role that may write promotions can enable or disable one (asked, confirmed).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { client, useCan } from '../lib/api.ts';
import { catalogKeys, PROMOTION_TYPES, type PromotionType } from '../lib/catalog.ts';
import { EnabledBadge, EnabledFilter, EnabledSwitch, SearchForm } from '../components/catalog.tsx';
import { Listed, Pager } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

const TAKE = 25;
type Search = { search?: string; type?: PromotionType; enabled?: boolean; from?: string; to?: string; page?: number };

export default function Promotions() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const search = useSearch({ from: '/promotions' }) as Search;
  const navigate = useNavigate();
  const go = (next: Partial<Search>) => void navigate({ to: '/promotions', search: { ...search, ...next } });
  const page = search.page ?? 1;
  const query = { search: search.search, type: search.type, enabled: search.enabled, from: search.from, to: search.to, page, take: TAKE };
  const promotions = useQuery({
    queryKey: catalogKeys.promotions(query),
    queryFn: () => client.get('/promotion', { params: { query } }),
    placeholderData: keepPreviousData,
  });
  const canWrite = can('supplier/promotion.write');
  return (
    <section>
      <h1>{t('promotions.title')}</h1>
      <SearchForm key={search.search ?? ''} id="promotion-search" label={t('promotions.search')} value={search.search} apply={(s) => go({ search: s, page: undefined })}>
        <div>
          <label htmlFor="promotion-type">{t('promotions.type')}</label>
          <select id="promotion-type" value={search.type ?? ''} onChange={(e) => go({ type: (e.target.value || undefined) as PromotionType | undefined, page: undefined })}>
            <option value="">{t('catalog.all')}</option>
            {PROMOTION_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(`promotionType.${type}`)}
              </option>
            ))}
          </select>
        </div>
        <EnabledFilter id="promotion-enabled" value={search.enabled} change={(enabled) => go({ enabled, page: undefined })} />
        <div>
          <label htmlFor="promotion-from">{t('promotions.from')}</label>
          <input id="promotion-from" type="date" value={search.from ?? ''} onChange={(e) => go({ from: e.target.value || undefined, page: undefined })} />
        </div>
        <div>
          <label htmlFor="promotion-to">{t('promotions.to')}</label>
          <input id="promotion-to" type="date" value={search.to ?? ''} onChange={(e) => go({ to: e.target.value || undefined, page: undefined })} />
        </div>
      </SearchForm>
      <Listed query={promotions} empty={t('promotions.empty')}>
        {(found) => (
          <>
            <div className="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('catalog.code')}</th>
                    <th scope="col">{t('catalog.name')}</th>
                    <th scope="col">{t('promotions.type')}</th>
                    <th scope="col">{t('promotions.runs')}</th>
                    <th scope="col">{t('catalog.state')}</th>
                    {canWrite && (
                      <th scope="col">
                        <span className="visually-hidden">{t('catalog.actions')}</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {found.data.map((p) => (
                    <tr key={p.internalCode} data-promotion={p.internalCode}>
                      <td>
                        <Link to="/promotions/$code" params={{ code: p.internalCode }}>
                          <code>{p.internalCode}</code>
                        </Link>
                      </td>
                      <td>{p.name}</td>
                      <td>{t(`promotionType.${p.type}`)}</td>
                      <td>{t('promotions.range', { start: f.date(p.start), end: f.date(p.end) })}</td>
                      <td>
                        <EnabledBadge enabled={p.enabled} />
                        {p.active && <span className="status status-active"> {t('promotions.active')}</span>}
                      </td>
                      {canWrite && (
                        <td>
                          <EnabledSwitch kind="promotion" code={p.internalCode} name={p.name} enabled={p.enabled} invalidate={['promotions', 'promotion']} />
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
