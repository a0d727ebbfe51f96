// The supplier's orders, newest first, paged on the server (GET /order); the filters and
// the page live in the URL, so a filtered list can be reloaded, shared and gone back to
// (the overview links here with a status and today's date).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { client, keys, ORDER_STATUSES, type OrderStatus } from '../lib/api.ts';
import { Listed, Pager } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

const TAKE = 25;

export default function Orders() {
  const t = useT();
  const f = useFormat();
  const search = useSearch({ from: '/orders' }) as { status?: OrderStatus; store?: string; from?: string; to?: string; page?: number };
  const navigate = useNavigate();
  const page = search.page ?? 1;
  const [store, setStore] = useState(search.store ?? '');
  const go = (next: Partial<typeof search>) => void navigate({ to: '/orders', search: { ...search, ...next } });
  const query = { status: search.status, storeInternalCode: search.store, from: search.from, to: search.to, page, take: TAKE };
  const orders = useQuery({
    queryKey: keys.orders(query),
    queryFn: () => client.get('/order', { params: { query } }),
    placeholderData: keepPreviousData,
  });

  return (
    <section>
      <h1>{t('orders.title')}</h1>
      <form
        className="filters"
        aria-label={t('orders.filters')}
        onSubmit={(e) => {
          e.preventDefault();
          go({ store: store.trim() || undefined, page: undefined });
        }}
      >
        <div>
          <label htmlFor="status">{t('orders.status')}</label>
          <select id="status" value={search.status ?? ''} onChange={(e) => go({ status: (e.target.value || undefined) as OrderStatus | undefined, page: undefined })}>
            <option value="">{t('orders.all')}</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`status.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="from">{t('orders.from')}</label>
          <input id="from" type="date" value={search.from ?? ''} onChange={(e) => go({ from: e.target.value || undefined, page: undefined })} />
        </div>
        <div>
          <label htmlFor="to">{t('orders.to')}</label>
          <input id="to" type="date" value={search.to ?? ''} onChange={(e) => go({ to: e.target.value || undefined, page: undefined })} />
        </div>
        <div>
          <label htmlFor="store">{t('orders.store')}</label>
          <input id="store" value={store} onChange={(e) => setStore(e.target.value)} />
        </div>
        <button type="submit">{t('orders.apply')}</button>
      </form>
      <Listed query={orders} empty={t('orders.empty')}>
        {(found) => (
          <>
            <div className="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('orders.id')}</th>
                    <th scope="col">{t('orders.created')}</th>
                    <th scope="col">{t('orders.buyer')}</th>
                    <th scope="col">{t('orders.status')}</th>
                    <th scope="col" className="num">
                      {t('orders.total')}
                    </th>
                    <th scope="col">{t('orders.delivery')}</th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.map((o) => (
                    <tr key={o.id} data-order={o.id}>
                      <td>
                        <Link to="/orders/$id" params={{ id: String(o.id) }}>
                          #{o.id}
                        </Link>
                      </td>
                      <td>{f.dateTime(o.createdAt)}</td>
                      <td>
                        {o.buyer.storeName} <span className="muted small">{o.buyer.storeInternalCode}</span>
                      </td>
                      <td>
                        <span className={`status status-${o.status.toLowerCase()}`}>{t(`status.${o.status}`)}</span>
                      </td>
                      <td className="num">{f.money(o.total)}</td>
                      <td>{o.deliveryDate ? f.date(o.deliveryDate) : '—'}</td>
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
