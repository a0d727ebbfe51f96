// One batch: what it is (endpoint, when, who sent it), its counts (refreshed while it runs)
// and its items one by one, paged on the server (GET /batch/{uuid}/detail), filtered by
// state in the URL (the batches list opens a batch's failed items): each failure with its
// reason, the problem code in words and the service's message, and the item as it was sent.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { client, keys, type BatchItem } from '../lib/api.ts';
import { Actor } from '../components/Actor.tsx';
import { BatchBadge, endpointName, ITEM_STATES, ItemBadge, reasonWords, type ItemState } from '../components/Batch.tsx';
import { choices, ListPage, useList } from '../components/list/ListPage.tsx';
import { ErrorBox, Loading } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

type Search = { status?: ItemState; page?: number };

function Reason({ item }: { item: BatchItem }) {
  const t = useT();
  if (!item.errorCode && !item.message) return <span className="muted">—</span>;
  const words = reasonWords(t, item.errorCode);
  return (
    <div className="reason" data-testid="reason">
      {words && <p>{words}</p>}
      <p className="small">
        {item.errorCode && <code>{item.errorCode}</code>}
        {item.errorCode && item.message && ': '}
        {item.message}
      </p>
    </div>
  );
}

export default function BatchPage() {
  const t = useT();
  const f = useFormat();
  const { uuid } = useParams({ from: '/batches/$uuid' });
  const status = useQuery({
    queryKey: keys.batch(uuid),
    queryFn: () => client.get('/batch/{uuid}/status', { params: { path: { uuid } } }),
    refetchInterval: (q) => (q.state.data?.status === 'processing' ? 2_000 : false),
  });
  const running = status.data?.status === 'processing';
  const items = useList({
    query: (s: Search, page) => ({ status: s.status, page, take: 50 }),
    // The items move while the batch runs: their page is read again as its count does.
    key: (query) => keys.batchDetail(uuid, { ...query, processed: status.data?.processed }),
    fetch: (query) => client.get('/batch/{uuid}/detail', { params: { path: { uuid }, query } }).then((d) => ({ ...d, data: d.detail })),
    enabled: status.isSuccess,
  });
  const b = status.data;
  return (
    <section>
      <p>
        <Link to="/batches">{t('batch.back')}</Link>
      </p>
      <h1>
        {t('batch.title', { id: uuid.slice(0, 8) })} {b && <BatchBadge status={b.status} />}
      </h1>
      {status.isPending ? (
        <Loading rows={2} />
      ) : status.error ? (
        <ErrorBox error={status.error} retry={() => void status.refetch()} />
      ) : (
        <>
          <div className="panel">
            <dl className="facts">
              <dt>{t('batch.id')}</dt>
              <dd>
                <code>{b!.batchId}</code>
              </dd>
              <dt>{t('batches.endpoint')}</dt>
              <dd>
                {endpointName(t, b!.endpoint)} <code className="muted small">{b!.endpoint}</code>
              </dd>
              <dt>{t('batches.sentBy')}</dt>
              <dd data-testid="sent-by">
                <Actor actor={b!.sentBy} />
              </dd>
              <dt>{t('batches.created')}</dt>
              <dd>{f.dateTime(b!.createdAt)}</dd>
              <dt>{t('batch.finished')}</dt>
              <dd>{b!.finishedAt ? f.dateTime(b!.finishedAt) : t('batch.notYet')}</dd>
            </dl>
            <ul className="figures" aria-label={t('batch.counts')}>
              {(
                [
                  ['total', b!.total, t('batches.items')],
                  ['completed', b!.completed, t('batches.completed')],
                  ['failed', b!.failed, t('batches.failed')],
                  ['waiting', b!.total - b!.processed, t('batch.waiting')],
                ] as const
              ).map(([name, n, label]) => (
                <li key={name} data-figure={`batch-${name}`} className="figure-box">
                  <span className="figure">{f.number(n)}</span> <span>{label}</span>
                </li>
              ))}
            </ul>
            {running && <progress max={b!.total} value={b!.processed} aria-label={t('batch.progress')} />}
          </div>
          <h2>{t('batch.items')}</h2>
          <ListPage
            list={items}
            filters={{
              label: t('batches.filters'),
              filters: [{ kind: 'select', key: 'status', id: 'item-status', label: t('batch.show'), all: t('batch.allItems'), options: choices(ITEM_STATES, (s) => t(`batchItem.${s}`)) }],
            }}
            empty={t('batch.empty')}
            rowKey={(_item, i) => `${items.page}-${i}`}
            rowAttrs={(item) => ({ 'data-item': item.code, 'data-status': item.status })}
            columns={[
              { header: t('batch.code'), cell: (item) => <code>{item.code}</code> },
              { header: t('batch.action'), cell: (item) => <code>{item.action}</code> },
              { header: t('batches.status'), cell: (item) => <ItemBadge status={item.status} /> },
              { header: t('batch.reason'), cell: (item) => <Reason item={item} /> },
              {
                header: t('batch.sent'),
                cell: (item) => (
                  <details>
                    <summary>{t('batch.sentItem')}</summary>
                    <pre className="item-json">{JSON.stringify(JSON.parse(item.batchItem), null, 2)}</pre>
                  </details>
                ),
              },
            ]}
          />
        </>
      )}
    </section>
  );
}
