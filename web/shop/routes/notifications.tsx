// What happened that concerns the person's stores; opening one marks it read.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { client, keys, type Notification } from '../../lib/api.ts';
import type { MessageKey } from '../../lib/i18n.ts';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.tsx';

export default function Notifications() {
  const t = useT();
  const f = useFormat();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: keys.notifications, queryFn: () => client.get('/app/notifications', { params: { query: { take: 50 } } }) });
  const read = useMutation({
    mutationFn: (ids: number[]) => client.post('/app/notifications/read', { body: { ids } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.notifications }),
  });
  // A delivery of fewer packages than ordered says so, and how many came (issue 34).
  const text = (n: Notification) =>
    n.type === 'ORDER_DELIVERED' && n.packages && n.packages.delivered < n.packages.ordered
      ? t('notification.ORDER_DELIVERED_PART', { order: n.orderId ?? '', delivered: f.number(n.packages.delivered), ordered: f.number(n.packages.ordered) })
      : t(`notification.${n.type}` as MessageKey, { ticket: n.ticketId ?? '', order: n.orderId ?? '' });
  return (
    <section>
      <h1>{t('notifications.title')}</h1>
      {list.isPending ? (
        <Loading />
      ) : list.error ? (
        <ErrorBox error={list.error} retry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <Empty>{t('notifications.empty')}</Empty>
      ) : (
        <ul className="list">
          {list.data.data.map((n) => (
            <li key={n.id} className={n.read ? 'panel' : 'panel unread'} data-notification={n.id}>
              {!n.read && <span className="badge">{t('notifications.unread')}</span>}
              <p>
                {n.ticketId ? (
                  <Link to="/tickets/$id" params={{ id: String(n.ticketId) }} onClick={() => !n.read && read.mutate([n.id])}>
                    {text(n)}
                  </Link>
                ) : n.orderId ? (
                  <Link to="/orders/$id" params={{ id: String(n.orderId) }} onClick={() => !n.read && read.mutate([n.id])}>
                    {text(n)}
                  </Link>
                ) : (
                  text(n)
                )}
              </p>
              {n.message && <p className="small">“{n.message}”</p>}
              <p className="muted small">
                {n.store.name} · {f.dateTime(n.createdAt)}
              </p>
              {!n.read && (
                <button type="button" className="link" onClick={() => read.mutate([n.id])}>
                  {t('notifications.markRead')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
