// One file import: its facts and counts, a progress bar read again every second while its
// batches run, then its failed rows in line order (the line, the row as it was in the
// file, every reason in words) paged on the server with the page in the URL, and the
// failed rows as a file to fix and upload again (downloaded with the session's token and
// saved through an <a download>).
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { CONSOLE_CATALOGS } from '../words.ts';
import type { SupplierScope } from 'surtido/console-client';
import { client, keys, useCan, type FailedRow, type Import } from '../lib/api.ts';
import { ListPage, useList } from '../components/list/ListPage.tsx';
import { ErrorBox, Loading, Notice } from '../components/states.tsx';
import { useFormat, useT, type ConsoleKey, type Translate } from '../i18n.ts';
import { ImportStatus, kindLabel, saveFile, uploader } from './imports.tsx';
import { useSession } from '../lib/session.ts';


/** A reason's words: the console's for its code when it has them, else none (the service's message is shown beside). */
function reasonWords(t: Translate, code: string): string | undefined {
  for (const prefix of ['importReason.', 'batchReason.']) {
    const key = `${prefix}${code}`;
    if (key in CONSOLE_CATALOGS.es) return t(key as ConsoleKey);
  }
  return undefined;
}

function Values({ row }: { row: FailedRow }) {
  if (!row.values) return <code className="row-text">{row.text}</code>;
  return (
    <ul className="values">
      {Object.entries(row.values).map(([name, value]) => (
        <li key={name}>
          <span className="muted">{name}</span> {value === '' ? <span className="muted">—</span> : <span>{typeof value === 'string' ? value : JSON.stringify(value)}</span>}
        </li>
      ))}
    </ul>
  );
}

function Failures({ imported }: { imported: Import }) {
  const t = useT();
  const failures = useList({
    query: (_s: { page?: number }, page) => ({ page, take: 25 }),
    key: (query) => keys.importFailures(imported.id, query),
    fetch: (query) => client.get('/import/{id}/failures', { params: { path: { id: imported.id }, query } }),
  });
  const { language } = useSession();
  const download = useMutation({
    // In the console's language: a byte-order mark, the upload's separator, the reasons in words (the service's, README of imports).
    mutationFn: () => client.download('/import/{id}/failures/file', { params: { path: { id: imported.id } }, headers: { 'accept-language': language } }),
    onSuccess: ({ blob, fileName }) => saveFile(blob, fileName ?? `${imported.kind}.failed.${imported.format}`),
  });
  return (
    <section aria-labelledby="failures">
      <h2 id="failures">{t('import.failures')}</h2>
      <p>{t('import.fixHint')}</p>
      <div className="actions">
        <button type="button" className="primary" disabled={download.isPending} onClick={() => download.mutate()}>
          {t('import.download')}
        </button>
      </div>
      {download.data && <Notice>{t('import.downloaded', { name: download.data.fileName ?? '' })}</Notice>}
      {download.error && <ErrorBox error={download.error} />}
      <ListPage
        list={failures}
        empty={t('import.allApplied')}
        rowKey={(row) => `${row.line}-${row.text}`}
        rowAttrs={(row) => ({ 'data-line': row.line })}
        columns={[
          { header: t('import.line'), align: 'num', cell: (row) => row.line },
          { header: t('import.values'), cell: (row) => <Values row={row} /> },
          {
            header: t('import.reasons'),
            className: 'reason',
            cell: (row) =>
              row.problems.map((p, i) => (
                <p key={i} data-code={p.code}>
                  <strong>{reasonWords(t, p.code) ?? p.message}</strong>
                  {p.field && <span> · {t('import.field', { field: p.field })}</span>}
                  <br />
                  <span className="muted small">
                    <code>{p.code}</code> {p.message}
                  </span>
                </p>
              )),
          },
        ]}
      />
    </section>
  );
}

function Figure({ name, label, n }: { name?: string; label: string; n: number }) {
  const f = useFormat();
  return (
    <span data-figure={name} className="term">
      <span className="figure">{f.number(n)}</span> <span>{label}</span>
    </span>
  );
}

export default function ImportPage() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const { id } = useParams({ from: '/imports/$id' });
  const kinds = useQuery({ queryKey: keys.importKinds, queryFn: () => client.get('/import/kinds'), staleTime: Infinity });
  const imported = useQuery({
    queryKey: keys.import(id),
    queryFn: () => client.get('/import/{id}', { params: { path: { id } } }),
    // Read again every second while its batches run: the progress bar follows them.
    refetchInterval: (q) => (q.state.data?.status === 'processing' ? 1000 : false),
  });
  const back = (
    <Link to="/imports" className="small">
      {t('import.back')}
    </Link>
  );
  if (imported.isPending) return <Loading />;
  if (imported.error) {
    return (
      <section>
        {back}
        <ErrorBox error={imported.error} retry={() => void imported.refetch()} />
      </section>
    );
  }
  const i = imported.data;
  const { counts } = i;
  const done = counts.rowsRead - counts.pending;
  const processing = i.status === 'processing';
  const kind = kinds.data?.find((k) => k.name === i.kind);
  return (
    <section>
      {back}
      <h1>
        {t('import.title', { name: i.fileName })} <ImportStatus status={i.status} />
      </h1>
      <dl className="facts">
        <dt>{t('import.kind')}</dt>
        <dd>
          {kindLabel(t, i.kind)}
          {i.remove && ` · ${t('import.removing')}`}
        </dd>
        <dt>{t('import.format')}</dt>
        <dd>{i.format === 'csv' ? 'CSV' : 'JSON Lines'}</dd>
        <dt>{t('import.uploaded')}</dt>
        <dd>{f.dateTime(i.createdAt)}</dd>
        <dt>{t('import.by')}</dt>
        <dd>{uploader(t, i)}</dd>
      </dl>
      <section className="panel" aria-labelledby="import-progress">
        <h2 id="import-progress">{t('import.progress')}</h2>
        <progress aria-labelledby="import-progress" max={Math.max(counts.rowsRead, 1)} value={done} />
        <p role="status" aria-live="polite" data-testid="progress-text">
          {t('import.progressText', { done: f.number(done), total: f.number(counts.rowsRead) })}
        </p>
        {/* The counts as sums, so they add up at a glance: read = applied + failed + to process; failed = refused when read + failed when applied. */}
        <p className="figures-sum" data-testid="counts-sum">
          <Figure name="rowsRead" label={t('import.rowsRead')} n={counts.rowsRead} /> = <Figure name="applied" label={t('import.applied')} n={counts.applied} /> +{' '}
          <Figure name="failed" label={t('import.failed')} n={counts.failed} /> + <Figure name="pending" label={t('import.pending')} n={counts.pending} />
        </p>
        {counts.failed > 0 && (
          <p className="figures-sum" data-testid="failed-sum">
            <Figure label={t('import.failed')} n={counts.failed} /> = <Figure name="refused" label={t('import.refused')} n={counts.refused} /> +{' '}
            <Figure name="failedWhenApplied" label={t('import.whenApplied')} n={counts.failedWhenApplied} />
          </p>
        )}
        {i.batchIds.length > 0 && (
          <>
            <h3>{t('import.batches')}</h3>
            <ul className="batch-ids">
              {i.batchIds.map((uuid) => (
                <li key={uuid}>
                  <Link to="/batches/$uuid" params={{ uuid }}>
                    <code>{uuid}</code>
                  </Link>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      {processing ? (
        <p className="muted">{t('import.waiting')}</p>
      ) : counts.failed === 0 ? (
        <Notice>{t('import.allApplied')}</Notice>
      ) : (
        <>
          <Failures imported={i} />
          {kind && can(kind.scope as SupplierScope) && (
            <p>
              <Link to="/imports" search={{ kind: i.kind }}>
                {t('import.uploadAgain')}
              </Link>
            </p>
          )}
        </>
      )}
    </section>
  );
}
