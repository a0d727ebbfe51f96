// The supplier's groupers, promotion groupers (which stores see which promotions) and stock
// groupers (which products a store's warehouse has), by code and paged on the server
// (GET /grouper/promotion, GET /grouper/stock): the kind, the search, the state filter and
// the page in the URL. A stock grouper opens its rules; a role that may write groupers can
// enable or disable one (asked, then confirmed).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { client, useCan } from '../lib/api.ts';
import { catalogKeys, GROUPER_KINDS, type GrouperKind } from '../lib/catalog.ts';
import { EnabledBadge, EnabledFilter, EnabledSwitch, SearchForm } from '../components/catalog.tsx';
import { Listed, Pager } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

const TAKE = 25;
type Search = { kind?: GrouperKind; search?: string; enabled?: boolean; page?: number };

export default function Groupers() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const search = useSearch({ from: '/groupers' }) as Search;
  const navigate = useNavigate();
  const go = (next: Partial<Search>) => void navigate({ to: '/groupers', search: { ...search, ...next } });
  const kind = search.kind ?? 'promotion';
  const page = search.page ?? 1;
  const query = { search: search.search, enabled: search.enabled, page, take: TAKE };
  const groupers = useQuery({
    queryKey: catalogKeys.groupers(kind, query),
    queryFn: () => (kind === 'stock' ? client.get('/grouper/stock', { params: { query } }) : client.get('/grouper/promotion', { params: { query } })),
    placeholderData: keepPreviousData,
  });
  const canWrite = can('supplier/grouper.write');
  return (
    <section>
      <h1>{t('groupers.title')}</h1>
      <nav aria-label={t('groupers.kinds')} className="tabs">
        <ul>
          {GROUPER_KINDS.map((k) => (
            <li key={k}>
              <Link to="/groupers" search={{ kind: k === 'promotion' ? undefined : k }} aria-current={k === kind ? 'page' : undefined}>
                {t(`groupers.kind.${k}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="help">{t(`groupers.about.${kind}`)}</p>
      <SearchForm key={`${kind}/${search.search ?? ''}`} id="grouper-search" label={t('groupers.search')} value={search.search} apply={(s) => go({ search: s, page: undefined })}>
        <EnabledFilter id="grouper-enabled" value={search.enabled} change={(enabled) => go({ enabled, page: undefined })} />
      </SearchForm>
      <Listed query={groupers} empty={t('groupers.empty')}>
        {(found) => (
          <>
            <div className="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('catalog.code')}</th>
                    <th scope="col">{t('catalog.name')}</th>
                    <th scope="col" className="num">
                      {t('groupers.stores')}
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
                  {found.data.map((g) => (
                    <tr key={g.internalCode} data-grouper={g.internalCode}>
                      <td>
                        {kind === 'stock' ? (
                          <Link to="/groupers/stock/$code" params={{ code: g.internalCode }} search={{}}>
                            <code>{g.internalCode}</code>
                          </Link>
                        ) : (
                          <code>{g.internalCode}</code>
                        )}
                      </td>
                      <td>{g.name}</td>
                      <td className="num">{f.number(g.storeCount)}</td>
                      <td>{f.dateTime(g.updatedAt)}</td>
                      <td>
                        <EnabledBadge enabled={g.enabled} />
                      </td>
                      {canWrite && (
                        <td>
                          <EnabledSwitch
                            kind={kind === 'stock' ? 'stock-grouper' : 'promotion-grouper'}
                            code={g.internalCode}
                            name={g.name}
                            enabled={g.enabled}
                            invalidate={['groupers', 'grouper']}
                          />
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
