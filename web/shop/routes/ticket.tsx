// One ticket: the conversation, and the answer form while the supplier asks for information.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { client, keys } from '../../lib/api.ts';
import type { MessageKey } from '../../lib/i18n.ts';
import { ErrorBox, Loading, useOnline } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.tsx';

export default function TicketPage() {
  const t = useT();
  const f = useFormat();
  const online = useOnline();
  const id = Number(useParams({ from: '/tickets/$id' }).id);
  const queryClient = useQueryClient();
  const [answer, setAnswer] = useState('');
  const ticket = useQuery({ queryKey: keys.ticket(id), queryFn: () => client.get('/app/tickets/{id}', { params: { path: { id } } }) });
  const send = useMutation({
    networkMode: 'online',
    mutationFn: () => client.post('/app/tickets/{id}/answer', { params: { path: { id } }, body: { message: answer.trim() } }),
    onSuccess: (updated) => {
      setAnswer('');
      queryClient.setQueryData(keys.ticket(id), updated);
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
    },
  });
  if (ticket.isPending) return <Loading rows={3} />;
  if (ticket.error) return <ErrorBox error={ticket.error} retry={() => void ticket.refetch()} />;
  const k = ticket.data;
  return (
    <section>
      <h1>{t('tickets.ticket', { id: k.id })}</h1>
      <p>
        <span className="status" data-testid="ticket-status">
          {t(`ticket.${k.status}` as MessageKey)}
        </span>
        {k.orderId && (
          <>
            {' · '}
            <Link to="/orders/$id" params={{ id: String(k.orderId) }}>
              {t('orders.order', { id: k.orderId })}
            </Link>
          </>
        )}
      </p>
      <ol className="conversation">
        {k.messages.map((m, i) => (
          <li key={i} className={m.from === 'STORE' ? 'mine' : 'theirs'}>
            <span className="small muted">
              {m.from === 'STORE' ? t('tickets.fromStore') : t('tickets.fromSupplier')} · {f.dateTime(m.at)}
            </span>
            <p>{m.message}</p>
          </li>
        ))}
      </ol>
      {k.status === 'ADDITIONAL_INFO_REQUESTED' && (
        <form
          className="panel"
          onSubmit={(e) => {
            e.preventDefault();
            send.mutate();
          }}
        >
          <p role="status">{t('tickets.asked')}</p>
          <label htmlFor="answer">{t('tickets.answer')}</label>
          <textarea id="answer" required rows={3} maxLength={5000} value={answer} onChange={(e) => setAnswer(e.target.value)} />
          {send.error && <ErrorBox error={send.error} />}
          <button type="submit" className="primary" disabled={!online || !answer.trim() || send.isPending}>
            {t('tickets.send')}
          </button>
        </form>
      )}
    </section>
  );
}
