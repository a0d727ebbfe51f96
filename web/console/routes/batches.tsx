// The supplier's batches, newest first, paged on the server (GET /batch): whatever sent them
// (the ERP through the API, an import, the console), with the endpoint, when, who sent it
// (the audit entry written with it) and the count of its items in each state. The status
// and endpoint filters and the page live in the URL; the status choices carry the counts
// the API answers for them. A batch's failed count opens its failed items.
import { Link } from '@tanstack/react-router';
import { client, keys } from '../lib/api.ts';
import { Actor } from '../components/Actor.tsx';
import { BATCH_ENDPOINTS, BATCH_STATES, BatchBadge, endpointName, type BatchEndpoint, type BatchState } from '../components/Batch.tsx';
import { choices, ListPage, useList } from '../components/list/ListPage.tsx';
import { useFormat, useT } from '../i18n.ts';

type Search = { status?: BatchState; endpoint?: BatchEndpoint; page?: number };

export default function Batches() {
  const t = useT();
  const f = useFormat();
  const list = useList({
    query: (s: Search, page) => ({ status: s.status, endpoint: s.endpoint, page, take: 25 }),
    key: keys.batches,
    fetch: (query) => client.get('/batch', { params: { query } }),
    // While one runs, its counts move.
    refetchInterval: (found) => (found?.data.some((b) => b.status === 'processing') ? 2_000 : false),
  });
  const counts = list.answer.data?.counts;
  const all = counts ? counts.processing + counts.processed + counts.failed : undefined;
  return (
    <section>
      <h1>{t('batches.title')}</h1>
      <p className="help">{t('batches.help')}</p>
      <ListPage
        list={list}
        filters={{
          label: t('batches.filters'),
          filters: [
            {
              kind: 'select',
              key: 'status',
              id: 'batch-status',
              label: t('batches.status'),
              all: all === undefined ? t('batches.all') : t('batches.counted', { label: t('batches.all'), count: all }),
              options: choices(BATCH_STATES, (s) => (counts ? t('batches.counted', { label: t(`batch.${s}`), count: counts[s] }) : t(`batch.${s}`))),
            },
            { kind: 'select', key: 'endpoint', id: 'batch-endpoint', label: t('batches.endpoint'), all: t('batches.allEndpoints'), options: choices(BATCH_ENDPOINTS, (e) => `${t(`batchEndpoint.${e}`)} (${e})`) },
          ],
        }}
        empty={t('batches.empty')}
        rowKey={(b) => b.batchId}
        rowAttrs={(b) => ({ 'data-batch': b.batchId, 'data-status': b.status })}
        columns={[
          {
            header: t('batches.batch'),
            cell: (b) => (
              <Link to="/batches/$uuid" params={{ uuid: b.batchId }} aria-label={t('batches.open', { id: b.batchId })}>
                <code>{b.batchId.slice(0, 8)}</code>
              </Link>
            ),
          },
          {
            header: t('batches.endpoint'),
            cell: (b) => (
              <>
                {endpointName(t, b.endpoint)} <code className="muted small">{b.endpoint}</code>
              </>
            ),
          },
          { header: t('batches.created'), cell: (b) => f.dateTime(b.createdAt) },
          { header: t('batches.sentBy'), cell: (b) => <Actor actor={b.sentBy} /> },
          { header: t('batches.status'), cell: (b) => <BatchBadge status={b.status} /> },
          { header: t('batches.items'), align: 'num', cell: (b) => f.number(b.total) },
          { header: t('batches.completed'), align: 'num', cell: (b) => f.number(b.completed) },
          {
            header: t('batches.failed'),
            align: 'num',
            attrs: { 'data-testid': 'failed' },
            cell: (b) =>
              b.failed > 0 ? (
                <Link to="/batches/$uuid" params={{ uuid: b.batchId }} search={{ status: 'failed' }} aria-label={t('batches.openFailed', { count: b.failed, id: b.batchId })}>
                  {f.number(b.failed)}
                </Link>
              ) : (
                f.number(0)
              ),
          },
        ]}
      />
    </section>
  );
}
