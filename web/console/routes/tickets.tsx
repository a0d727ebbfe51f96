// The supplier's support tickets, newest first, paged on the server (GET /support/ticket
// with names=true: each store by its name and who opened each ticket, read in the page's
// one statement); the status filter and the page live in the URL, as the orders' do.
import { Link } from '@tanstack/react-router';
import { client, keys, TICKET_STATUSES, type TicketStatus } from '../lib/api.ts';
import { choices, ListPage, useList } from '../components/list/ListPage.tsx';
import { TicketBadge } from '../components/TicketBadge.tsx';
import { ticketPerson } from '../components/Person.tsx';
import { useFormat, useT } from '../i18n.ts';

type Search = { status?: TicketStatus; page?: number };

export default function Tickets() {
  const t = useT();
  const f = useFormat();
  const list = useList({
    query: (s: Search, page) => ({ status: s.status, names: true, page, take: 25 }),
    key: keys.tickets,
    fetch: (query) => client.get('/support/ticket', { params: { query } }),
  });
  return (
    <section>
      <h1>{t('tickets.title')}</h1>
      <ListPage
        list={list}
        filters={{
          label: t('tickets.filters'),
          filters: [{ kind: 'select', key: 'status', id: 'ticket-status', label: t('tickets.status'), all: t('tickets.all'), options: choices(TICKET_STATUSES, (s) => t(`ticketStatus.${s}`)) }],
        }}
        empty={t('tickets.empty')}
        rowKey={(ticket) => ticket.id}
        rowAttrs={(ticket) => ({ 'data-ticket': ticket.id })}
        columns={[
          {
            header: t('tickets.id'),
            cell: (ticket) => (
              <Link to="/tickets/$id" params={{ id: String(ticket.id) }}>
                #{ticket.id}
              </Link>
            ),
          },
          { header: t('tickets.created'), cell: (ticket) => f.dateTime(ticket.createdAt) },
          {
            header: t('tickets.store'),
            attrs: { 'data-testid': 'ticket-store' },
            cell: (ticket) => (
              <>
                {ticket.storeName ?? ticket.platformInternalCode} {ticket.storeName !== undefined && <span className="muted small">{ticket.platformInternalCode}</span>}
              </>
            ),
          },
          { header: t('tickets.person'), attrs: { 'data-testid': 'ticket-person' }, cell: (ticket) => ticketPerson(t, ticket) ?? '—' },
          { header: t('tickets.status'), cell: (ticket) => <TicketBadge status={ticket.status} /> },
          { header: t('tickets.message'), className: 'excerpt', cell: (ticket) => ticket.userMessage },
          { header: t('tickets.updated'), cell: (ticket) => f.dateTime(ticket.updatedAt) },
        ]}
      />
    </section>
  );
}
