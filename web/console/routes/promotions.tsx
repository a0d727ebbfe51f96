// The supplier's promotions by start date, then code, paged on the server (GET /promotion):
// the search, type, state and date filters and the page in the URL (from/to keep the
// promotions running on some day between them, as the service decides). Each opens its
// detail; a role that may write promotions can enable or disable one (asked, confirmed).
import { Link } from '@tanstack/react-router';
import { client, useCan } from '../lib/api.ts';
import { catalogKeys, PROMOTION_TYPES, type PromotionType } from '../lib/catalog.ts';
import { EnabledBadge, enabledFilter, EnabledSwitch, searchFilter } from '../components/catalog.tsx';
import { choices, ListPage, useList } from '../components/list/ListPage.tsx';
import { useFormat, useT } from '../i18n.ts';

type Search = { search?: string; type?: PromotionType; enabled?: boolean; from?: string; to?: string; page?: number };

export default function Promotions() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const list = useList({
    query: (s: Search, page) => ({ search: s.search, type: s.type, enabled: s.enabled, from: s.from, to: s.to, page, take: 25 }),
    key: catalogKeys.promotions,
    fetch: (query) => client.get('/promotion', { params: { query } }),
  });
  return (
    <section>
      <h1>{t('promotions.title')}</h1>
      <ListPage
        list={list}
        filters={{
          filters: [
            searchFilter('promotion-search', t('promotions.search')),
            { kind: 'select', key: 'type', id: 'promotion-type', label: t('promotions.type'), all: t('catalog.all'), options: choices(PROMOTION_TYPES, (type) => t(`promotionType.${type}`)) },
            enabledFilter(t, 'promotion-enabled'),
            { kind: 'day', key: 'from', id: 'promotion-from', label: t('promotions.from') },
            { kind: 'day', key: 'to', id: 'promotion-to', label: t('promotions.to') },
          ],
        }}
        empty={t('promotions.empty')}
        rowKey={(p) => p.internalCode}
        rowAttrs={(p) => ({ 'data-promotion': p.internalCode })}
        columns={[
          {
            header: t('catalog.code'),
            cell: (p) => (
              <Link to="/promotions/$code" params={{ code: p.internalCode }}>
                <code>{p.internalCode}</code>
              </Link>
            ),
          },
          { header: t('catalog.name'), cell: (p) => p.name },
          { header: t('promotions.type'), cell: (p) => t(`promotionType.${p.type}`) },
          { header: t('promotions.runs'), cell: (p) => t('promotions.range', { start: f.date(p.start), end: f.date(p.end) }) },
          {
            header: t('catalog.state'),
            cell: (p) => (
              <>
                <EnabledBadge enabled={p.enabled} />
                {p.active && <span className="status status-active"> {t('promotions.active')}</span>}
              </>
            ),
          },
          {
            header: t('catalog.actions'),
            quietHeader: true,
            when: can('supplier/promotion.write'),
            cell: (p) => <EnabledSwitch kind="promotion" code={p.internalCode} name={p.name} enabled={p.enabled} invalidate={['promotions', 'promotion']} />,
          },
        ]}
      />
    </section>
  );
}
