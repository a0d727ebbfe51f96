// One stock grouper: its summary (found through GET /grouper/stock's search), the switch
// for writers, and its stock rules paged on the server (GET /grouper/{code}/stock/rules),
// the search, the availability filter and the page in the URL. A rule without a package
// size is for every size of the product.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { client, useCan } from '../lib/api.ts';
import { catalogKeys, findGrouper } from '../lib/catalog.ts';
import { EnabledBadge, EnabledSwitch, searchFilter } from '../components/catalog.tsx';
import { ListPage, useList } from '../components/list/ListPage.tsx';
import { ErrorBox, Loading } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

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
  const list = useList({
    query: (s: Search, page) => ({ search: s.search, available: s.available, page, take: 25 }),
    key: (query) => catalogKeys.stockRules(code, query),
    fetch: (query) => client.get('/grouper/{code}/stock/rules', { params: { path: { code }, query } }),
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
      <ListPage
        list={list}
        filters={{
          filters: [
            searchFilter('rule-search', t('pricelist.search')),
            {
              kind: 'flag',
              key: 'available',
              id: 'rule-available',
              label: t('stock.availability'),
              all: t('catalog.all'),
              options: [
                [true, t('stock.available')],
                [false, t('stock.unavailable')],
              ],
            },
          ],
        }}
        empty={t('stock.empty')}
        rowKey={(r) => `${r.productInternalCode}/${r.units ?? '*'}`}
        rowAttrs={(r) => ({ 'data-rule': r.productInternalCode })}
        columns={[
          { header: t('catalog.code'), cell: (r) => <code>{r.productInternalCode}</code> },
          { header: t('pricelist.product'), cell: (r) => r.productName },
          { header: t('pricelist.size'), cell: (r) => (r.units === null ? t('stock.everySize') : f.number(r.units)) },
          { header: t('stock.availability'), cell: (r) => <span className={r.available ? 'status status-on' : 'status status-off'}>{r.available ? t('stock.available') : t('stock.unavailable')}</span> },
          { header: t('catalog.updated'), cell: (r) => f.dateTime(r.updatedAt) },
        ]}
      />
    </section>
  );
}
