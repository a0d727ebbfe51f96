// The supplier's support tickets, newest first, paged on the server (GET /support/ticket);
// the status filter and the page live in the URL, as the orders' do.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { client, keys, TICKET_STATUSES, type TicketStatus } from '../lib/api.ts';
import { Listed, Pager } from '../components/states.tsx';
import { TicketBadge } from '../components/TicketBadge.tsx';
import { useFormat, useT } from '../i18n.ts';

const TAKE = 25;
type Search = { status?: TicketStatus; page?: number };

export default function Tickets() {
  const t = useT();
  const f = useFormat();
  const search = useSearch({ from: '/tickets' }) as Search;
  const navigate = useNavigate();
  const go = (next: Partial<Search>) => void navigate({ to: '/tickets', search: { ...search, ...next } });
  const query = { status: search.status, page: search.page ?? 1, take: TAKE };
  const tickets = useQuery({
    queryKey: keys.tickets(query),
    queryFn: () => client.get('/support/ticket', { params: { query } }),
    placeholderData: keepPreviousData,
  });

  return (
    <section>
      <h1>{t('tickets.title')}</h1>
      <div className="filters" role="group" aria-label={t('tickets.filters')}>
        <div>
          <label htmlFor="ticket-status">{t('tickets.status')}</label>
          <select id="ticket-status" value={search.status ?? ''} onChange={(e) => go({ status: (e.target.value || undefined) as TicketStatus | undefined, page: undefined })}>
            <option value="">{t('tickets.all')}</option>
            {TICKET_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`ticketStatus.${s}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Listed query={tickets} empty={t('tickets.empty')}>
        {(found) => (
          <>
            <div className="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('tickets.id')}</th>
                    <th scope="col">{t('tickets.created')}</th>
                    <th scope="col">{t('tickets.store')}</th>
                    <th scope="col">{t('tickets.status')}</th>
                    <th scope="col">{t('tickets.message')}</th>
                    <th scope="col">{t('tickets.updated')}</th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.map((ticket) => (
                    <tr key={ticket.id} data-ticket={ticket.id}>
                      <td>
                        <Link to="/tickets/$id" params={{ id: String(ticket.id) }}>
                          #{ticket.id}
                        </Link>
                      </td>
                      <td>{f.dateTime(ticket.createdAt)}</td>
                      <td>{ticket.platformInternalCode}</td>
                      <td>
                        <TicketBadge status={ticket.status} />
                      </td>
                      <td className="excerpt">{ticket.userMessage}</td>
                      <td>{f.dateTime(ticket.updatedAt)}</td>
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
