// One batch: what it is (endpoint, when, who sent it), its counts (refreshed while it runs)
// and its items one by one, paged on the server (GET /batch/{uuid}/detail), filtered by
// state in the URL (the batches list opens a batch's failed items): each failure with its
// reason, the problem code in words and the service's message, and the item as it was sent.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { client, keys, type BatchItem } from '../lib/api.ts';
import { Actor } from '../components/Actor.tsx';
import { BatchBadge, endpointName, ITEM_STATES, ItemBadge, reasonWords, type ItemState } from '../components/Batch.tsx';
import { Empty, ErrorBox, Loading, Pager } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

const TAKE = 50;
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
  const search = useSearch({ from: '/batches/$uuid' }) as Search;
  const navigate = useNavigate();
  const go = (next: Partial<Search>) => void navigate({ to: '/batches/$uuid', params: { uuid }, search: { ...search, ...next } });
  const status = useQuery({
    queryKey: keys.batch(uuid),
    queryFn: () => client.get('/batch/{uuid}/status', { params: { path: { uuid } } }),
    refetchInterval: (q) => (q.state.data?.status === 'processing' ? 2_000 : false),
  });
  const running = status.data?.status === 'processing';
  const query = { status: search.status, page: search.page ?? 1, take: TAKE };
  const detail = useQuery({
    queryKey: keys.batchDetail(uuid, { ...query, processed: status.data?.processed }),
    queryFn: () => client.get('/batch/{uuid}/detail', { params: { path: { uuid }, query } }),
    placeholderData: keepPreviousData,
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
          <div className="filters" role="group" aria-label={t('batches.filters')}>
            <div>
              <label htmlFor="item-status">{t('batch.show')}</label>
              <select id="item-status" value={search.status ?? ''} onChange={(e) => go({ status: (e.target.value || undefined) as ItemState | undefined, page: undefined })}>
                <option value="">{t('batch.allItems')}</option>
                {ITEM_STATES.map((s) => (
                  <option key={s} value={s}>
                    {t(`batchItem.${s}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {detail.isPending ? (
            <Loading />
          ) : detail.error ? (
            <ErrorBox error={detail.error} retry={() => void detail.refetch()} />
          ) : detail.data.detail.length === 0 ? (
            <Empty>{t('batch.empty')}</Empty>
          ) : (
            <>
              <div className="table-wrap" tabIndex={0}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">{t('batch.code')}</th>
                      <th scope="col">{t('batch.action')}</th>
                      <th scope="col">{t('batches.status')}</th>
                      <th scope="col">{t('batch.reason')}</th>
                      <th scope="col">{t('batch.sent')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {detail.data.detail.map((item, i) => (
                      <tr key={`${detail.data.page}-${i}`} data-item={item.code} data-status={item.status}>
                        <td>
                          <code>{item.code}</code>
                        </td>
                        <td>
                          <code>{item.action}</code>
                        </td>
                        <td>
                          <ItemBadge status={item.status} />
                        </td>
                        <td>
                          <Reason item={item} />
                        </td>
                        <td>
                          <details>
                            <summary>{t('batch.sentItem')}</summary>
                            <pre className="item-json">{JSON.stringify(JSON.parse(item.batchItem), null, 2)}</pre>
                          </details>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager page={detail.data.page} totalPages={detail.data.totalPages} total={detail.data.total} go={(p) => go({ page: p === 1 ? undefined : p })} />
            </>
          )}
        </>
      )}
    </section>
  );
}
