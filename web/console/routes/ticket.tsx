// One support ticket: its facts, the whole conversation oldest first (who wrote each
// message), and what the role may do with it now. The buttons follow the role's scopes and
// the service's own transition table (ALLOWED_FROM of tickets.rules.ts); a change refused
// anyway (the ticket moved meanwhile) is said in words and the ticket is read again.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { ALLOWED_FROM } from 'surtido/console-client';
import { client, keys, useCan, type Ticket } from '../lib/api.ts';
import { ErrorBox, Loading, Notice } from '../components/states.tsx';
import { TicketBadge } from '../components/TicketBadge.tsx';
import { ticketPerson } from '../components/Person.tsx';
import { useFormat, useT } from '../i18n.ts';

type Action = { op: 'requestInfo' } | { op: 'status'; status: 'IN_PROGRESS' | 'SOLVED' } | { op: 'message' } | { op: 'close' };

function useAct(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, message }: { action: Action; message: string }) => {
      const said = message.trim() ? { message: message.trim() } : {};
      if (action.op === 'requestInfo') return client.post('/support/ticket/additional-info', { body: { ticketId: id, ...said } });
      if (action.op === 'close') return client.put('/support/ticket/close', { body: { ticketId: id, ...said } });
      const body = action.op === 'status' ? { status: action.status, ...said } : said;
      return client.put('/support/ticket/{id}', { params: { path: { id } }, body });
    },
    onSuccess: (ticket) => {
      // A change's answer is the contract's ticket, without names: the store's name and who
      // opened it do not change with a move, so the ones read with the ticket are kept.
      queryClient.setQueryData(keys.ticket(id), (before: Ticket | undefined) => ({ ...ticket, storeName: before?.storeName, openedBy: before?.openedBy }));
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
    },
    // Refused: show the ticket as it is now, so the buttons match its state again.
    onError: () => void queryClient.invalidateQueries({ queryKey: keys.ticket(id) }),
  });
}

function Actions({ ticket, act }: { ticket: Ticket; act: ReturnType<typeof useAct> }) {
  const t = useT();
  const [message, setMessage] = useState('');
  const allowed = (op: keyof typeof ALLOWED_FROM) => ALLOWED_FROM[op].includes(ticket.status);
  const run = (action: Action) => act.mutate({ action, message }, { onSuccess: () => setMessage('') });
  return (
    <section className="panel" aria-labelledby="ticket-actions">
      <h2 id="ticket-actions">{t('ticket.actions')}</h2>
      <label htmlFor="ticket-message">{t('ticket.message')}</label>
      <textarea id="ticket-message" rows={3} maxLength={5000} value={message} onChange={(e) => setMessage(e.target.value)} />
      <div className="actions">
        {allowed('requestInfo') && (
          <button type="button" className="primary" disabled={act.isPending} onClick={() => run({ op: 'requestInfo' })}>
            {t('ticket.requestInfo')}
          </button>
        )}
        {allowed('update') && ticket.status !== 'IN_PROGRESS' && (
          <button type="button" disabled={act.isPending} onClick={() => run({ op: 'status', status: 'IN_PROGRESS' })}>
            {t('ticket.inProgress')}
          </button>
        )}
        {allowed('update') && ticket.status !== 'SOLVED' && (
          <button type="button" disabled={act.isPending} onClick={() => run({ op: 'status', status: 'SOLVED' })}>
            {t('ticket.solve')}
          </button>
        )}
        {allowed('update') && (
          <button type="button" disabled={act.isPending || !message.trim()} onClick={() => run({ op: 'message' })}>
            {t('ticket.send')}
          </button>
        )}
        {allowed('close') && (
          <button type="button" className="danger" disabled={act.isPending} onClick={() => run({ op: 'close' })}>
            {t('ticket.close')}
          </button>
        )}
      </div>
    </section>
  );
}

export default function TicketPage() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const id = Number(useParams({ from: '/tickets/$id' }).id);
  const ticket = useQuery({ queryKey: keys.ticket(id), queryFn: () => client.get('/support/ticket/{id}', { params: { path: { id }, query: { names: true } } }) });
  const act = useAct(id);
  if (ticket.isPending) return <Loading />;
  if (ticket.error) return <ErrorBox error={ticket.error} retry={() => void ticket.refetch()} />;
  const tk = ticket.data;
  const person = ticketPerson(t, tk);
  // The store's messages: the first is the one the ticket was opened with, by the person
  // who opened it; the store's later answers may come from any of its users (not recorded).
  const storeWho = tk.storeName ?? t('ticket.fromStore', { store: tk.platformInternalCode });
  const storeSaid = (i: number) => (i === 0 && tk.openedBy ? `${person} · ${storeWho}` : storeWho);
  return (
    <section>
      <p>
        <Link to="/tickets">{t('ticket.back')}</Link>
      </p>
      <h1>
        {t('ticket.title', { id: tk.id })} <TicketBadge status={tk.status} />
      </h1>
      <dl className="facts">
        <dt>{t('tickets.store')}</dt>
        <dd data-testid="ticket-store">{tk.storeName !== undefined ? `${tk.storeName} (${tk.platformInternalCode})` : tk.platformInternalCode}</dd>
        {person !== undefined && (
          <>
            <dt>{t('tickets.person')}</dt>
            <dd data-testid="ticket-person">{person}</dd>
          </>
        )}
        <dt>{t('tickets.created')}</dt>
        <dd>{f.dateTime(tk.createdAt)}</dd>
        {tk.orderId !== null && (
          <>
            <dt>{t('ticket.order')}</dt>
            <dd>
              {can('supplier/order.read') ? (
                <Link to="/orders/$id" params={{ id: String(tk.orderId) }}>
                  #{tk.orderId}
                </Link>
              ) : (
                `#${tk.orderId}`
              )}
            </dd>
          </>
        )}
        {tk.externalTicketId !== null && (
          <>
            <dt>{t('ticket.external')}</dt>
            <dd>
              <code>{tk.externalTicketId}</code>
            </dd>
          </>
        )}
        {tk.resolvedAt !== null && (
          <>
            <dt>{t('ticket.resolved')}</dt>
            <dd>{f.dateTime(tk.resolvedAt)}</dd>
          </>
        )}
      </dl>
      {act.isSuccess && <Notice>{t('ticket.done', { status: t(`ticketStatus.${act.data.status}`) })}</Notice>}
      {act.error && <ErrorBox error={act.error} />}
      {can('supplier/support.write') && tk.status !== 'CLOSED' && <Actions ticket={tk} act={act} />}
      <h2>{t('ticket.conversation')}</h2>
      <ol className="conversation">
        {tk.messages.map((m, i) => (
          <li key={i} className={`from-${m.from.toLowerCase()}`} data-from={m.from}>
            <p className="who">
              <strong>{m.from === 'STORE' ? storeSaid(i) : t('ticket.fromSupplier')}</strong> ·{' '}
              <time dateTime={m.at}>{f.dateTime(m.at)}</time>
            </p>
            <p className="said">{m.message}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
