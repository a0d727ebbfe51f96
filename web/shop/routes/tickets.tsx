// Help requests: the store's tickets, and a form to open one (optionally about an order).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { client, keys } from '../../lib/api.ts';
import type { MessageKey } from '../../lib/i18n.ts';
import { useSession } from '../../lib/session.ts';
import { Empty, ErrorBox, Loading, useOnline } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.tsx';

// Rendered only while a store is chosen: once the session ends (signing out, a refused
// token) the page asks for nothing, never `/stores/{storeId}/…` with no store (issue 34).
export default function Tickets() {
  const storeId = useSession().storeId;
  return storeId === undefined ? null : <StoreTickets storeId={storeId} />;
}

function StoreTickets({ storeId }: { storeId: number }) {
  const t = useT();
  const f = useFormat();
  const online = useOnline();
  const { order } = useSearch({ from: '/tickets' });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState('');
  const [orderId, setOrderId] = useState(order ? String(order) : '');
  const tickets = useQuery({ queryKey: keys.tickets(storeId), queryFn: () => client.get('/app/stores/{storeId}/tickets', { params: { path: { storeId }, query: { take: 50 } } }) });
  const orders = useQuery({ queryKey: keys.orders(storeId), queryFn: () => client.get('/app/stores/{storeId}/orders', { params: { path: { storeId }, query: { take: 50 } } }) });
  const open = useMutation({
    networkMode: 'online',
    mutationFn: () => client.post('/app/stores/{storeId}/tickets', { params: { path: { storeId } }, body: { message: message.trim(), ...(orderId ? { orderId: Number(orderId) } : {}) } }),
    onSuccess: async (ticket) => {
      await queryClient.invalidateQueries({ queryKey: keys.tickets(storeId) });
      await navigate({ to: '/tickets/$id', params: { id: String(ticket.id) } });
    },
  });
  return (
    <section>
      <h1>{t('tickets.title')}</h1>
      <form
        className="panel"
        onSubmit={(e) => {
          e.preventDefault();
          open.mutate();
        }}
      >
        <h2>{t('tickets.new')}</h2>
        <label htmlFor="ticket-message">{t('tickets.message')}</label>
        <textarea id="ticket-message" required rows={3} maxLength={5000} value={message} onChange={(e) => setMessage(e.target.value)} />
        <label htmlFor="ticket-order">{t('tickets.order')}</label>
        <select id="ticket-order" value={orderId} onChange={(e) => setOrderId(e.target.value)}>
          <option value="">{t('tickets.noOrder')}</option>
          {orders.data?.data.map((o) => (
            <option key={o.id} value={o.id}>
              {t('orders.order', { id: o.id })} · {f.dateTime(o.createdAt)}
            </option>
          ))}
          {order && !orders.data?.data.some((o) => o.id === order) && <option value={order}>{t('orders.order', { id: order })}</option>}
        </select>
        {open.error && <ErrorBox error={open.error} />}
        <button type="submit" className="primary" disabled={!online || !message.trim() || open.isPending}>
          {t('tickets.open')}
        </button>
      </form>
      {tickets.isPending ? (
        <Loading />
      ) : tickets.error ? (
        <ErrorBox error={tickets.error} retry={() => void tickets.refetch()} />
      ) : tickets.data.data.length === 0 ? (
        <Empty>{t('tickets.empty')}</Empty>
      ) : (
        <ul className="list">
          {tickets.data.data.map((k) => (
            <li key={k.id}>
              <Link to="/tickets/$id" params={{ id: String(k.id) }} className="row" data-ticket={k.id}>
                <strong>{t('tickets.ticket', { id: k.id })}</strong>
                <span className="status">{t(`ticket.${k.status}` as MessageKey)}</span>
                <span className="muted small clip">{k.userMessage}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
