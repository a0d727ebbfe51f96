// The supplier's stores by code, paged on the server (GET /store), the search, the state
// filter and the page in the URL: each with its price list, stock grouper and promotion
// groupers (links to them), its default address and its minimum order. A store's code
// opens its page (store.tsx), where its buyers are managed.
import { Link } from '@tanstack/react-router';
import { client, useCan } from '../lib/api.ts';
import { catalogKeys, type Store } from '../lib/catalog.ts';
import { EnabledBadge, enabledFilter, searchFilter } from '../components/catalog.tsx';
import { ListPage, useList } from '../components/list/ListPage.tsx';
import { useFormat, useT } from '../i18n.ts';

type Search = { search?: string; enabled?: boolean; page?: number };

function address(s: Store) {
  const a = s.addresses.find((x) => x.default) ?? s.addresses[0];
  return a ? `${a.street}, ${a.city}` : '—';
}

/** A code the store points to: a link where the role may read it, the code alone else, the words for none. */
function CodeLink({ code, none, to, may }: { code: string | null; none: string; to: '/pricelists/$code' | '/groupers/stock/$code'; may: boolean }) {
  if (code === null) return <span className="muted">{none}</span>;
  if (!may) return <code>{code}</code>;
  return (
    <Link to={to} params={{ code }} search={{}}>
      <code>{code}</code>
    </Link>
  );
}

export default function Stores() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const list = useList({
    query: (s: Search, page) => ({ search: s.search, enabled: s.enabled, page, take: 25 }),
    key: catalogKeys.stores,
    fetch: (query) => client.get('/store', { params: { query } }),
  });
  return (
    <section>
      <h1>{t('stores.title')}</h1>
      <ListPage
        list={list}
        filters={{ filters: [searchFilter('store-search', t('stores.search')), enabledFilter(t, 'store-enabled')] }}
        empty={t('stores.empty')}
        rowKey={(s) => s.internalCode}
        rowAttrs={(s) => ({ 'data-store': s.internalCode })}
        columns={[
          {
            header: t('catalog.code'),
            cell: (s) => (
              <Link to="/stores/$code" params={{ code: s.internalCode }}>
                <code>{s.internalCode}</code>
              </Link>
            ),
          },
          {
            header: t('catalog.name'),
            cell: (s) => (
              <>
                {s.name}
                {s.ownerName && <span className="muted small"> · {s.ownerName}</span>}
              </>
            ),
          },
          { header: t('stores.address'), cell: address },
          { header: t('stores.priceList'), cell: (s) => <CodeLink code={s.priceListCode} none={t('stores.noPriceList')} to="/pricelists/$code" may={can('supplier/pricelist.read')} /> },
          { header: t('stores.stockGrouper'), cell: (s) => <CodeLink code={s.stockGrouperCode} none={t('stores.noStockGrouper')} to="/groupers/stock/$code" may={can('supplier/grouper.read')} /> },
          { header: t('stores.promotionGroupers'), cell: (s) => (s.promotionGrouperCodes.length === 0 ? '—' : s.promotionGrouperCodes.map((g, i) => <code key={g}>{(i > 0 ? ', ' : '') + g}</code>)) },
          { header: t('stores.minimum'), align: 'num', cell: (s) => (s.settings.dropSize === null ? '—' : f.money(s.settings.dropSize)) },
          { header: t('catalog.state'), cell: (s) => <EnabledBadge enabled={s.enabled} /> },
        ]}
      />
    </section>
  );
}
