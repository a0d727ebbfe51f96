import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ordersQuery } from '../../lib/api.ts';
import type { MessageKey } from '../../lib/i18n.ts';
import { useSession } from '../../lib/session.ts';
import { QueuedOrders } from '../components/OrderQueue.tsx';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.tsx';

// Rendered only while a store is chosen: once the session ends (signing out, a refused
// token) the page asks for nothing, never `/stores/{storeId}/…` with no store (issue 34).
export default function Orders() {
  const storeId = useSession().storeId;
  return storeId === undefined ? null : <StoreOrders storeId={storeId} />;
}

function StoreOrders({ storeId }: { storeId: number }) {
  const t = useT();
  const f = useFormat();
  const orders = useQuery(ordersQuery(storeId));
  return (
    <section>
      <h1>{t('orders.title')}</h1>
      <QueuedOrders storeId={storeId} />
      {orders.isPending ? (
        <Loading />
      ) : orders.error ? (
        <ErrorBox error={orders.error} retry={() => void orders.refetch()} />
      ) : orders.data.data.length === 0 ? (
        <Empty>{t('orders.empty')}</Empty>
      ) : (
        <ul className="list">
          {orders.data.data.map((o) => (
            <li key={o.id}>
              <Link to="/orders/$id" params={{ id: String(o.id) }} className="row" data-order={o.id}>
                <strong>{t('orders.order', { id: o.id })}</strong>
                <span className={`status status-${o.status.toLowerCase()}`}>{t(`status.${o.status}` as MessageKey)}</span>
                <span className="muted small">
                  {f.dateTime(o.createdAt)} · {t('orders.items', { count: o.products.length })}
                  {o.placedBy && ` · ${t('orders.placedBy', { name: o.placedBy.name })}`}
                </span>
                <strong>{f.money(o.total)}</strong>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
