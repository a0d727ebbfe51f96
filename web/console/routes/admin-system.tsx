// Operators: what waits in each queue and since when, which suppliers' webhook deliveries
// are failing (their last attempt failed), and what runs (GET /admin/system).
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { client, keys } from '../lib/api.ts';
import { ListTable } from '../components/list/ListPage.tsx';
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
      <ListTable
        tableAttrs={{ 'data-testid': 'queues' }}
        rows={s.queues}
        rowKey={(q) => q.queue}
        rowAttrs={(q) => ({ 'data-queue': q.queue })}
        columns={[
          { header: t('system.queue'), cell: (q) => (isQueue(q.queue) ? t(`queue.${q.queue}`) : q.queue) },
          { header: t('system.depth'), align: 'num', cell: (q) => f.number(q.depth) },
          { header: t('system.oldest'), align: 'num', cell: (q) => (q.depth === 0 ? '—' : t('system.seconds', { n: f.number(Math.round(q.oldestAgeSeconds)) })) },
        ]}
      />
      <h2>{t('system.failing')}</h2>
      {s.failingDeliveries.length === 0 ? (
        <Empty>{t('system.noFailing')}</Empty>
      ) : (
        <ListTable
          tableAttrs={{ 'data-testid': 'failing' }}
          rows={s.failingDeliveries}
          rowKey={(d) => d.supplier.id}
          rowAttrs={(d) => ({ 'data-supplier': d.supplier.code })}
          columns={[
            {
              header: t('admin.name'),
              cell: (d) => (
                <Link to="/admin/suppliers/$id" params={{ id: String(d.supplier.id) }}>
                  {d.supplier.name}
                </Link>
              ),
            },
            { header: t('system.failingCount'), align: 'num', cell: (d) => f.number(d.failing) },
          ]}
        />
      )}
    </section>
  );
}
