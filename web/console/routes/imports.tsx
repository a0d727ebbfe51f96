// File imports: upload a CSV or JSON Lines file of any import kind (the kinds, the scope
// each needs and their columns come from GET /import/kinds: the integrator CLI's own
// declaration, src/integrator/kinds.ts), and the supplier's imports newest first, paged on
// the server with the kind filter and the page in the URL. The upload shows only for the
// kinds the role may send (each kind's batch endpoint scope); a viewer sees the list alone.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import type { ConsoleUploadPath, paths } from 'surtido/console-client';
import type { SupplierScope } from 'surtido/console-client';
import { client, keys, useCan, type Import, type ImportKind } from '../lib/api.ts';
import { ListPage, useList } from '../components/list/ListPage.tsx';
import { ErrorBox, Loading } from '../components/states.tsx';
import { useFormat, useT, type ConsoleKey, type Translate } from '../i18n.ts';
import { useSession } from '../lib/session.ts';

type Search = { kind?: string; page?: number };
type KindFilter = NonNullable<NonNullable<paths['/import']['get']['parameters']['query']>['kind']>;

/** The format a file's name says (the service is told it: ?format). */
export function formatOfName(name: string): 'csv' | 'jsonl' | undefined {
  if (/\.csv$/i.test(name)) return 'csv';
  if (/\.(jsonl|ndjson)$/i.test(name)) return 'jsonl';
  return undefined;
}

export const kindLabel = (t: Translate, name: string) => t(`importKind.${name}` as ConsoleKey);
export const uploader = (t: Translate, i: Pick<Import, 'uploadedBy'>) => (i.uploadedBy.kind === 'person' ? i.uploadedBy.id : t('imports.credential', { id: i.uploadedBy.id }));

export function ImportStatus({ status }: { status: Import['status'] }) {
  const t = useT();
  return <span className={`status import-${status}`}>{t(`importStatus.${status}`)}</span>;
}

function Columns({ kind, remove }: { kind: ImportKind; remove: boolean }) {
  const t = useT();
  const nodes = remove ? (kind.remove ?? []) : kind.write;
  return (
    <div className="columns-help" data-testid="columns">
      <h3>{remove ? `${t('imports.columns')} · ${t('imports.removeColumns')}` : t('imports.columns')}</h3>
      {kind.typeColumn && !remove && <p>{t('imports.typeColumn', { column: kind.typeColumn })}</p>}
      {nodes.map((n) => (
        <div key={n.node}>
          {n.type && kind.typeColumn && (
            <p className="small">
              <code>{t('imports.typed', { column: kind.typeColumn, type: n.type })}</code>
            </p>
          )}
          <p>
            <code>{n.columns.join(', ')}</code>
          </p>
        </div>
      ))}
      <p className="muted small">{t('imports.columnsHelp')}</p>
    </div>
  );
}

/** Saves a downloaded file through an <a download> (the session's token went with the request). */
export function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The kind's CSV template from the service (GET /import/kinds/{kind}/template: the columns
 * the importer reads and an example row), in the console's language: for Spanish and
 * Portuguese with `;` and a decimal comma, as Excel there writes it.
 */
function Template({ kind }: { kind: ImportKind }) {
  const t = useT();
  const { language } = useSession();
  const template = useMutation({
    mutationFn: () => client.download('/import/kinds/{kind}/template', { params: { path: { kind: kind.name as never } }, headers: { 'accept-language': language } }),
    onSuccess: ({ blob, fileName }) => saveFile(blob, fileName ?? `${kind.name}.template.csv`),
  });
  return (
    <div className="template">
      <button type="button" aria-describedby="template-hint" disabled={template.isPending} onClick={() => template.mutate()}>
        {t('imports.template')}
      </button>
      <p id="template-hint" className="muted small">
        {t('imports.templateHint')}
      </p>
      {template.error && <ErrorBox error={template.error} />}
    </div>
  );
}

function Upload({ kinds, initial }: { kinds: ImportKind[]; initial: string | undefined }) {
  const t = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [kindName, setKindName] = useState(kinds.some((k) => k.name === initial) ? initial! : kinds[0]!.name);
  const [remove, setRemove] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string>();
  const kind = kinds.find((k) => k.name === kindName)!;
  const upload = useMutation({
    mutationFn: async (chosen: File) => {
      const format = formatOfName(chosen.name)!;
      const text = await chosen.text();
      // Every import kind's route takes the same query and answers the same import.
      const path = `/import/${kind.name}` as ConsoleUploadPath;
      return client.upload(path, text, format === 'csv' ? 'text/csv' : 'application/x-ndjson', {
        params: { query: { format, name: chosen.name, ...(remove && kind.remove ? { remove: true } : {}) } },
      });
    },
    onSuccess: (imported) => {
      void queryClient.invalidateQueries({ queryKey: ['imports'] });
      void navigate({ to: '/imports/$id', params: { id: imported.id } });
    },
  });
  return (
    <form
      className="panel upload"
      aria-labelledby="upload-title"
      onSubmit={(e) => {
        e.preventDefault();
        if (!file) return setProblem(t('imports.noFile'));
        if (!formatOfName(file.name)) return setProblem(t('imports.badName'));
        setProblem(undefined);
        upload.mutate(file);
      }}
    >
      <h2 id="upload-title">{t('imports.upload')}</h2>
      <div className="upload-grid">
        <div>
          <label htmlFor="import-kind">{t('imports.kind')}</label>
          <select
            id="import-kind"
            value={kindName}
            onChange={(e) => {
              setKindName(e.target.value);
              setRemove(false);
            }}
          >
            {kinds.map((k) => (
              <option key={k.name} value={k.name}>
                {kindLabel(t, k.name)}
              </option>
            ))}
          </select>
          {kind.remove && (
            <label className="check">
              <input type="checkbox" checked={remove} onChange={(e) => setRemove(e.target.checked)} />
              {t('imports.remove')}
            </label>
          )}
          <Template kind={kind} />
          <label htmlFor="import-file">{t('imports.file')}</label>
          <input
            id="import-file"
            type="file"
            accept=".csv,.jsonl,.ndjson,text/csv,application/x-ndjson"
            aria-describedby="import-file-hint"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setProblem(undefined);
            }}
          />
          <p id="import-file-hint" className="muted small">
            {t('imports.fileHint')}
          </p>
          <button type="submit" className="primary" disabled={upload.isPending}>
            {upload.isPending ? t('imports.sending') : t('imports.send')}
          </button>
          {problem && (
            <p role="alert" className="error">
              {problem}
            </p>
          )}
          {upload.error && <ErrorBox error={upload.error} />}
        </div>
        <Columns kind={kind} remove={remove} />
      </div>
    </form>
  );
}

function List({ kinds }: { kinds: ImportKind[] }) {
  const t = useT();
  const f = useFormat();
  const list = useList({
    query: (s: Search, page) => ({ kind: s.kind as KindFilter | undefined, page, take: 20 }),
    key: keys.imports,
    fetch: (query) => client.get('/import', { params: { query } }),
    // While one of them runs, the list follows it.
    refetchInterval: (found) => (found?.data.some((i) => i.status === 'processing') ? 2000 : false),
  });
  return (
    <section aria-labelledby="imports-list">
      <h2 id="imports-list">{t('imports.list')}</h2>
      <ListPage
        list={list}
        filters={{ filters: [{ kind: 'select', key: 'kind', id: 'imports-kind', label: t('imports.filterKind'), all: t('imports.allKinds'), options: kinds.map((k) => ({ value: k.name, label: kindLabel(t, k.name) })) }] }}
        empty={list.filtered ? t('imports.emptyFiltered') : t('imports.empty')}
        rowKey={(i) => i.id}
        rowAttrs={(i) => ({ 'data-import': i.fileName, 'data-status': i.status })}
        columns={[
          {
            header: t('imports.fileName'),
            cell: (i) => (
              <Link to="/imports/$id" params={{ id: i.id }}>
                {i.fileName}
              </Link>
            ),
          },
          {
            header: t('imports.filterKind'),
            cell: (i) => (
              <>
                {kindLabel(t, i.kind)}
                {i.remove && <span className="muted small"> · {t('import.removing')}</span>}
              </>
            ),
          },
          { header: t('imports.uploaded'), cell: (i) => f.dateTime(i.createdAt) },
          { header: t('imports.by'), cell: (i) => uploader(t, i) },
          { header: t('imports.status'), cell: (i) => <ImportStatus status={i.status} /> },
          { header: t('imports.rows'), align: 'num', cell: (i) => f.number(i.counts.rowsRead) },
          { header: t('imports.applied'), align: 'num', cell: (i) => f.number(i.counts.applied) },
          { header: t('imports.failed'), align: 'num', cell: (i) => f.number(i.counts.failed) },
        ]}
      />
    </section>
  );
}

export default function Imports() {
  const t = useT();
  const can = useCan();
  const search = useSearch({ from: '/imports' }) as Search;
  const kinds = useQuery({ queryKey: keys.importKinds, queryFn: () => client.get('/import/kinds'), staleTime: Infinity });
  const sendable = kinds.data?.filter((k) => can(k.scope as SupplierScope)) ?? [];
  return (
    <section>
      <h1>{t('imports.title')}</h1>
      <p className="muted">{t('imports.help')}</p>
      {kinds.isPending ? (
        <Loading rows={2} />
      ) : kinds.error ? (
        <ErrorBox error={kinds.error} retry={() => void kinds.refetch()} />
      ) : (
        <>
          {sendable.length > 0 && <Upload kinds={sendable} initial={search.kind} />}
          <List kinds={kinds.data} />
        </>
      )}
    </section>
  );
}
