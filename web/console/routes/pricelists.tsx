// The supplier's price lists by code, paged on the server (GET /pricelist, without their
// prices), the search, the state filter and the page in the URL; each opens its prices, and
// a role that may write price lists can enable or disable one (asked, then confirmed).
import { Link } from '@tanstack/react-router';
import { client, useCan } from '../lib/api.ts';
import { catalogKeys } from '../lib/catalog.ts';
import { EnabledBadge, enabledFilter, EnabledSwitch, searchFilter } from '../components/catalog.tsx';
import { ListPage, useList } from '../components/list/ListPage.tsx';
import { useFormat, useT } from '../i18n.ts';

type Search = { search?: string; enabled?: boolean; page?: number };

export default function PriceLists() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const list = useList({
    query: (s: Search, page) => ({ search: s.search, enabled: s.enabled, page, take: 25 }),
    key: catalogKeys.priceLists,
    fetch: (query) => client.get('/pricelist', { params: { query } }),
  });
  return (
    <section>
      <h1>{t('pricelists.title')}</h1>
      <ListPage
        list={list}
        filters={{ filters: [searchFilter('pricelist-search', t('pricelists.search')), enabledFilter(t, 'pricelist-enabled')] }}
        empty={t('pricelists.empty')}
        rowKey={(l) => l.internalCode}
        rowAttrs={(l) => ({ 'data-pricelist': l.internalCode })}
        columns={[
          {
            header: t('catalog.code'),
            cell: (l) => (
              <Link to="/pricelists/$code" params={{ code: l.internalCode }}>
                <code>{l.internalCode}</code>
              </Link>
            ),
          },
          { header: t('catalog.name'), cell: (l) => l.name ?? '—' },
          { header: t('pricelists.stores'), align: 'num', cell: (l) => f.number(l.storeCount) },
          { header: t('catalog.updated'), cell: (l) => f.dateTime(l.updatedAt) },
          { header: t('catalog.state'), cell: (l) => <EnabledBadge enabled={l.enabled} /> },
          {
            header: t('catalog.actions'),
            quietHeader: true,
            when: can('supplier/pricelist.write'),
            cell: (l) => <EnabledSwitch kind="pricelist" code={l.internalCode} name={l.name ?? l.internalCode} enabled={l.enabled} invalidate={['pricelists', 'pricelist']} />,
          },
        ]}
      />
    </section>
  );
}
