// The supplier's orders, newest first, paged on the server (GET /order); the filters and
// the page live in the URL, so a filtered list can be reloaded, shared and gone back to
// (the overview links here with a status and today's date).
import { Link } from '@tanstack/react-router';
import { client, keys, ORDER_STATUSES, type OrderStatus } from '../lib/api.ts';
import { choices, ListPage, useList } from '../components/list/ListPage.tsx';
import { orderPerson } from '../components/Person.tsx';
import { useFormat, useT } from '../i18n.ts';

type Search = { status?: OrderStatus; store?: string; from?: string; to?: string; page?: number };

export default function Orders() {
  const t = useT();
  const f = useFormat();
  const list = useList({
    query: (s: Search, page) => ({ status: s.status, store: s.store, from: s.from, to: s.to, page, take: 25 }),
    key: keys.orders,
    fetch: (query) => client.get('/order', { params: { query } }),
  });
  return (
    <section>
      <h1>{t('orders.title')}</h1>
      <ListPage
        list={list}
        filters={{
          label: t('orders.filters'),
          submit: t('orders.apply'),
          filters: [
            { kind: 'select', key: 'status', id: 'status', label: t('orders.status'), all: t('orders.all'), options: choices(ORDER_STATUSES, (s) => t(`status.${s}`)) },
            { kind: 'day', key: 'from', id: 'from', label: t('orders.from') },
            { kind: 'day', key: 'to', id: 'to', label: t('orders.to') },
            { kind: 'text', key: 'store', id: 'store', label: t('orders.store') },
          ],
        }}
        empty={t('orders.empty')}
        rowKey={(o) => o.id}
        rowAttrs={(o) => ({ 'data-order': o.id })}
        columns={[
          {
            header: t('orders.id'),
            cell: (o) => (
              <Link to="/orders/$id" params={{ id: String(o.id) }}>
                #{o.id}
              </Link>
            ),
          },
          { header: t('orders.created'), cell: (o) => f.dateTime(o.createdAt) },
          {
            header: t('orders.buyer'),
            cell: (o) => (
              <>
                {o.buyer.storeName} <span className="muted small">{o.buyer.storeInternalCode}</span>
              </>
            ),
          },
          // Who placed it: the store user, the store's seller or the ERP, from the order itself (its buyer as placed).
          { header: t('orders.person'), attrs: { 'data-testid': 'order-person' }, cell: (o) => orderPerson(t, o) },
          { header: t('orders.status'), cell: (o) => <span className={`status status-${o.status.toLowerCase()}`}>{t(`status.${o.status}`)}</span> },
          { header: t('orders.total'), align: 'num', cell: (o) => f.money(o.total) },
          { header: t('orders.delivery'), cell: (o) => (o.deliveryDate ? f.date(o.deliveryDate) : '—') },
        ]}
      />
    </section>
  );
}
