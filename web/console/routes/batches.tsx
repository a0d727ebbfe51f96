// The supplier's batches, newest first, paged on the server (GET /batch): whatever sent them
// (the ERP through the API, an import, the console), with the endpoint, when, who sent it
// (the audit entry written with it) and the count of its items in each state. The status
// and endpoint filters and the page live in the URL; the status choices carry the counts
// the API answers for them. A batch's failed count opens its failed items.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { client, keys } from '../lib/api.ts';
import { Actor } from '../components/Actor.tsx';
import { BATCH_ENDPOINTS, BATCH_STATES, BatchBadge, endpointName, type BatchEndpoint, type BatchState } from '../components/Batch.tsx';
import { Listed, Pager } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

const TAKE = 25;
type Search = { status?: BatchState; endpoint?: BatchEndpoint; page?: number };

export default function Batches() {
  const t = useT();
  const f = useFormat();
  const search = useSearch({ from: '/batches' }) as Search;
  const navigate = useNavigate();
  const go = (next: Partial<Search>) => void navigate({ to: '/batches', search: { ...search, ...next } });
  const query = { status: search.status, endpoint: search.endpoint, page: search.page ?? 1, take: TAKE };
  const batches = useQuery({
    queryKey: keys.batches(query),
    queryFn: () => client.get('/batch', { params: { query } }),
    placeholderData: keepPreviousData,
    // While one runs, its counts move.
    refetchInterval: (q) => (q.state.data?.data.some((b) => b.status === 'processing') ? 2_000 : false),
  });
  const counts = batches.data?.counts;
  const all = counts ? counts.processing + counts.processed + counts.failed : undefined;

  return (
    <section>
      <h1>{t('batches.title')}</h1>
      <p className="help">{t('batches.help')}</p>
      <div className="filters" role="group" aria-label={t('batches.filters')}>
        <div>
          <label htmlFor="batch-status">{t('batches.status')}</label>
          <select id="batch-status" value={search.status ?? ''} onChange={(e) => go({ status: (e.target.value || undefined) as BatchState | undefined, page: undefined })}>
            <option value="">{all === undefined ? t('batches.all') : t('batches.counted', { label: t('batches.all'), count: all })}</option>
            {BATCH_STATES.map((s) => (
              <option key={s} value={s}>
                {counts ? t('batches.counted', { label: t(`batch.${s}`), count: counts[s] }) : t(`batch.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="batch-endpoint">{t('batches.endpoint')}</label>
          <select id="batch-endpoint" value={search.endpoint ?? ''} onChange={(e) => go({ endpoint: (e.target.value || undefined) as BatchEndpoint | undefined, page: undefined })}>
            <option value="">{t('batches.allEndpoints')}</option>
            {BATCH_ENDPOINTS.map((e) => (
              <option key={e} value={e}>
                {t(`batchEndpoint.${e}`)} ({e})
              </option>
            ))}
          </select>
        </div>
      </div>
      <Listed query={batches} empty={t('batches.empty')}>
        {(found) => (
          <>
            <div className="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('batches.batch')}</th>
                    <th scope="col">{t('batches.endpoint')}</th>
                    <th scope="col">{t('batches.created')}</th>
                    <th scope="col">{t('batches.sentBy')}</th>
                    <th scope="col">{t('batches.status')}</th>
                    <th scope="col" className="num">
                      {t('batches.items')}
                    </th>
                    <th scope="col" className="num">
                      {t('batches.completed')}
                    </th>
                    <th scope="col" className="num">
                      {t('batches.failed')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.map((b) => (
                    <tr key={b.batchId} data-batch={b.batchId} data-status={b.status}>
                      <td>
                        <Link to="/batches/$uuid" params={{ uuid: b.batchId }} aria-label={t('batches.open', { id: b.batchId })}>
                          <code>{b.batchId.slice(0, 8)}</code>
                        </Link>
                      </td>
                      <td>
                        {endpointName(t, b.endpoint)} <code className="muted small">{b.endpoint}</code>
                      </td>
                      <td>{f.dateTime(b.createdAt)}</td>
                      <td>
                        <Actor actor={b.sentBy} />
                      </td>
                      <td>
                        <BatchBadge status={b.status} />
                      </td>
                      <td className="num">{f.number(b.total)}</td>
                      <td className="num">{f.number(b.completed)}</td>
                      <td className="num" data-testid="failed">
                        {b.failed > 0 ? (
                          <Link to="/batches/$uuid" params={{ uuid: b.batchId }} search={{ status: 'failed' }} aria-label={t('batches.openFailed', { count: b.failed, id: b.batchId })}>
                            {f.number(b.failed)}
                          </Link>
                        ) : (
                          f.number(0)
                        )}
                      </td>
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
