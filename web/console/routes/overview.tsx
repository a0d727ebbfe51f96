// Where a supplier's member starts: today's orders by status, the open tickets, the failing
// webhook deliveries and the recent batches with failed items, each panel shown when the
// role reads it. A count is the `total` of a one-row page of the list's own query, and
// links to that list with the same filters in its URL. "Today" is the browser's calendar
// day: no console route answers the platform's timezone (web/README.md, known gaps).
import { useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { client, keys, ORDER_STATUSES, useCan, useMe, type TicketStatus } from '../lib/api.ts';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

const OPEN_TICKETS: readonly TicketStatus[] = ['PENDING', 'IN_PROGRESS', 'ADDITIONAL_INFO_REQUESTED'];
/** How many of the latest batches are looked at for failed items (the list's largest page). */
const RECENT_BATCHES = 50;
const pad = (n: number) => String(n).padStart(2, '0');
const today = (d = new Date()) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The panel's state while any of its counts is loading or failed; null once all answered. */
function Pending({ results }: { results: UseQueryResult[] }) {
  const failed = results.find((r) => r.error);
  if (failed) return <ErrorBox error={failed.error} retry={() => results.forEach((r) => void r.refetch())} />;
  if (results.some((r) => r.isPending)) return <Loading rows={1} />;
  return null;
}

function Count({ n, label }: { n: number; label: string }) {
  return (
    <>
      <span className="figure">{n}</span> <span>{label}</span>
    </>
  );
}

function TodayOrders() {
  const t = useT();
  const f = useFormat();
  const day = today();
  const counts = useQueries({
    queries: ORDER_STATUSES.map((status) => {
      const query = { status, from: day, to: day, page: 1, take: 1 };
      return { queryKey: keys.orders(query), queryFn: () => client.get('/order', { params: { query } }) };
    }),
  });
  return (
    <section className="panel" aria-labelledby="today-orders">
      <h2 id="today-orders">{t('overview.todayOrders', { day: f.date(day) })}</h2>
      <Pending results={counts} />
      {counts.every((c) => c.data) && (
        <ul className="figures">
          {ORDER_STATUSES.map((status, i) => (
            <li key={status} data-figure={`orders-${status}`}>
              <Link to="/orders" search={{ status, from: day, to: day }}>
                <Count n={counts[i]!.data!.total} label={t(`status.${status}`)} />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function OpenTickets() {
  const t = useT();
  const counts = useQueries({
    queries: OPEN_TICKETS.map((status) => {
      const query = { status, page: 1, take: 1 };
      return { queryKey: keys.tickets(query), queryFn: () => client.get('/support/ticket', { params: { query } }) };
    }),
  });
  const answered = counts.every((c) => c.data);
  return (
    <section className="panel" aria-labelledby="open-tickets">
      <h2 id="open-tickets" data-testid="open-tickets">
        {answered ? t('overview.openTickets', { count: counts.reduce((sum, c) => sum + c.data!.total, 0) }) : t('nav.tickets')}
      </h2>
      <Pending results={counts} />
      {answered && (
        <ul className="figures">
          {OPEN_TICKETS.map((status, i) => (
            <li key={status} data-figure={`tickets-${status}`}>
              <Link to="/tickets" search={{ status }}>
                <Count n={counts[i]!.data!.total} label={t(`ticketStatus.${status}`)} />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function FailingDeliveries() {
  const t = useT();
  const query = { failing: true, page: 1, take: 1 };
  const failing = useQuery({ queryKey: keys.deliveries(query), queryFn: () => client.get('/webhook/deliveries', { params: { query } }) });
  return (
    <section className="panel" aria-labelledby="overview-webhooks">
      <h2 id="overview-webhooks">{t('overview.webhooks')}</h2>
      <Pending results={[failing]} />
      {failing.data && (
        <ul className="figures">
          <li data-figure="deliveries-failing">
            <Link to="/webhooks" search={{ failing: true }}>
              <Count n={failing.data.total} label={t('overview.failing')} />
            </Link>
          </li>
        </ul>
      )}
    </section>
  );
}

function FailedBatches() {
  const t = useT();
  const f = useFormat();
  const query = { page: 1, take: RECENT_BATCHES };
  const batches = useQuery({ queryKey: keys.batches(query), queryFn: () => client.get('/batch', { params: { query } }) });
  const failed = batches.data?.data.filter((b) => b.failed > 0).slice(0, 5);
  return (
    <section className="panel" aria-labelledby="overview-batches">
      <h2 id="overview-batches">{t('overview.batches')}</h2>
      <p className="help">{t('overview.batchesHelp', { count: RECENT_BATCHES })}</p>
      <Pending results={[batches]} />
      {failed && failed.length === 0 && <Empty>{t('overview.noBatches')}</Empty>}
      {failed && failed.length > 0 && (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('overview.batch')}</th>
                <th scope="col">{t('overview.endpoint')}</th>
                <th scope="col">{t('overview.created')}</th>
                <th scope="col">{t('overview.state')}</th>
                <th scope="col" className="num">
                  {t('overview.failed')}
                </th>
              </tr>
            </thead>
            <tbody>
              {failed.map((b) => (
                <tr key={b.batchId} data-batch={b.batchId}>
                  <td>
                    <Link to="/batches/$uuid" params={{ uuid: b.batchId }} search={{ status: 'failed' }} title={b.batchId} aria-label={t('batches.openFailed', { count: b.failed, id: b.batchId })}>
                      <code>{b.batchId.slice(0, 8)}</code>
                    </Link>
                  </td>
                  <td>
                    <code>{b.endpoint}</code>
                  </td>
                  <td>{f.dateTime(b.createdAt)}</td>
                  <td>{t(`batch.${b.status}`)}</td>
                  <td className="num" data-testid="batch-failed">
                    {f.number(b.failed)} / {f.number(b.total)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export default function Overview() {
  const t = useT();
  const can = useCan();
  const me = useMe();
  return (
    <section>
      <h1>{t('overview.title')}</h1>
      {me.isPending && <Loading />}
      {me.error && <ErrorBox error={me.error} retry={() => void me.refetch()} />}
      {can('supplier/order.read') && <TodayOrders />}
      {can('supplier/support.read') && <OpenTickets />}
      {can('supplier/webhook.read') && <FailingDeliveries />}
      {can('supplier/batch.read') && <FailedBatches />}
    </section>
  );
}
