// Operators: what waits in each queue and since when, which suppliers' webhook deliveries
// are failing (their last attempt failed), and what runs (GET /admin/system).
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { client, keys } from '../lib/api.ts';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

const QUEUES = ['batches', 'webhook_deliveries', 'image_downloads', 'messages'] as const;
const isQueue = (q: string): q is (typeof QUEUES)[number] => (QUEUES as readonly string[]).includes(q);

export default function AdminSystem() {
  const t = useT();
  const f = useFormat();
  // Refreshed every 10 s while the page is open: queues move.
  const system = useQuery({ queryKey: keys.system, queryFn: () => client.get('/admin/system'), refetchInterval: 10_000 });
  if (system.isPending) return <Loading />;
  if (system.error) return <ErrorBox error={system.error} retry={() => void system.refetch()} />;
  const s = system.data;
  return (
    <section>
      <h1>{t('system.title')}</h1>
      <dl className="facts">
        <dt>{t('system.version')}</dt>
        <dd>{s.version}</dd>
        <dt>{t('system.database')}</dt>
        <dd>{s.database === 'postgres' ? 'PostgreSQL' : t('system.embedded')}</dd>
      </dl>
      <h2>{t('system.queues')}</h2>
      <div className="table-wrap" tabIndex={0}>
        <table data-testid="queues">
          <thead>
            <tr>
              <th scope="col">{t('system.queue')}</th>
              <th scope="col" className="num">
                {t('system.depth')}
              </th>
              <th scope="col" className="num">
                {t('system.oldest')}
              </th>
            </tr>
          </thead>
          <tbody>
            {s.queues.map((q) => (
              <tr key={q.queue} data-queue={q.queue}>
                <td>{isQueue(q.queue) ? t(`queue.${q.queue}`) : q.queue}</td>
                <td className="num">{f.number(q.depth)}</td>
                <td className="num">{q.depth === 0 ? '—' : t('system.seconds', { n: f.number(Math.round(q.oldestAgeSeconds)) })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>{t('system.failing')}</h2>
      {s.failingDeliveries.length === 0 ? (
        <Empty>{t('system.noFailing')}</Empty>
      ) : (
        <div className="table-wrap" tabIndex={0}>
          <table data-testid="failing">
            <thead>
              <tr>
                <th scope="col">{t('admin.name')}</th>
                <th scope="col" className="num">
                  {t('system.failingCount')}
                </th>
              </tr>
            </thead>
            <tbody>
              {s.failingDeliveries.map((d) => (
                <tr key={d.supplier.id} data-supplier={d.supplier.code}>
                  <td>
                    <Link to="/admin/suppliers/$id" params={{ id: String(d.supplier.id) }}>
                      {d.supplier.name}
                    </Link>
                  </td>
                  <td className="num">{f.number(d.failing)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
