// The supplier's groupers, promotion groupers (which stores see which promotions) and stock
// groupers (which products a store's warehouse has), by code and paged on the server
// (GET /grouper/promotion, GET /grouper/stock): the kind, the search, the state filter and
// the page in the URL. A stock grouper opens its rules; a role that may write groupers can
// enable or disable one (asked, then confirmed).
import { Link } from '@tanstack/react-router';
import { client, useCan } from '../lib/api.ts';
import { catalogKeys, GROUPER_KINDS, type GrouperKind } from '../lib/catalog.ts';
import { EnabledBadge, enabledFilter, EnabledSwitch, searchFilter } from '../components/catalog.tsx';
import { ListPage, useList } from '../components/list/ListPage.tsx';
import { useFormat, useT } from '../i18n.ts';

type Search = { kind?: GrouperKind; search?: string; enabled?: boolean; page?: number };

export default function Groupers() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const list = useList({
    query: (s: Search, page) => ({ kind: s.kind ?? 'promotion', search: s.search, enabled: s.enabled, page, take: 25 }),
    key: ({ kind, ...query }) => catalogKeys.groupers(kind, query),
    fetch: ({ kind, ...query }) => (kind === 'stock' ? client.get('/grouper/stock', { params: { query } }) : client.get('/grouper/promotion', { params: { query } })),
  });
  const kind = list.search.kind ?? 'promotion';
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
      <ListPage
        list={list}
        filters={{ filters: [searchFilter('grouper-search', t('groupers.search')), enabledFilter(t, 'grouper-enabled')] }}
        empty={t('groupers.empty')}
        rowKey={(g) => g.internalCode}
        rowAttrs={(g) => ({ 'data-grouper': g.internalCode })}
        columns={[
          {
            header: t('catalog.code'),
            cell: (g) =>
              kind === 'stock' ? (
                <Link to="/groupers/stock/$code" params={{ code: g.internalCode }} search={{}}>
                  <code>{g.internalCode}</code>
                </Link>
              ) : (
                <code>{g.internalCode}</code>
              ),
          },
          { header: t('catalog.name'), cell: (g) => g.name },
          { header: t('groupers.stores'), align: 'num', cell: (g) => f.number(g.storeCount) },
          { header: t('catalog.updated'), cell: (g) => f.dateTime(g.updatedAt) },
          { header: t('catalog.state'), cell: (g) => <EnabledBadge enabled={g.enabled} /> },
          {
            header: t('catalog.actions'),
            quietHeader: true,
            when: can('supplier/grouper.write'),
            cell: (g) => <EnabledSwitch kind={kind === 'stock' ? 'stock-grouper' : 'promotion-grouper'} code={g.internalCode} name={g.name} enabled={g.enabled} invalidate={['groupers', 'grouper']} />,
          },
        ]}
      />
    </section>
  );
}
