// The supplier's audit log (GET /audit): who changed what, newest first, paged on the
// server. Entries are the supplier's own writes (its credentials', its members' in the
// console) and the operators' writes about it (a webhook secret rotated, a credential
// issued). The filters and the page live in the URL; the days are the browser's calendar
// days, sent to the API as instants ("to" includes its whole day).
import { client, keys, type AuditEntry } from '../lib/api.ts';
import { Actor } from '../components/Actor.tsx';
import { choices, ListPage, useList } from '../components/list/ListPage.tsx';
import { CONSOLE_CATALOGS, type ConsoleKey } from '../words.ts';
import { useFormat, useT, type Translate } from '../i18n.ts';

/** The entities a supplier's entries name today (the routes' `config.audit`); any other is shown as it is. */
const ENTITIES = ['batch', 'category', 'credential', 'grouper', 'member', 'order', 'pricelist', 'promotion', 'session', 'store', 'supplier', 'supplier-settings', 'ticket', 'webhook', 'webhook-delivery', 'cancel-codes'];
type Search = { entity?: string; entityId?: string; actor?: string; from?: string; to?: string; page?: number };

const entityName = (t: Translate, entity: string) => {
  const key = `entity.${entity}`;
  return key in CONSOLE_CATALOGS.es ? t(key as ConsoleKey) : entity;
};

/** A calendar day (YYYY-MM-DD) as the instant it starts in the browser's zone; `after`: the day after's. */
function instantOf(day: string, after = false) {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d! + (after ? 1 : 0)).toISOString();
}

function Detail({ entry }: { entry: AuditEntry }) {
  const t = useT();
  if (entry.detail === null || entry.detail === undefined) return null;
  return (
    <details>
      <summary>{t('audit.detail')}</summary>
      <pre className="item-json">{JSON.stringify(entry.detail, null, 2)}</pre>
    </details>
  );
}

/** The verbs an entry is said with; the route (and for a status, what changed) chooses one. */
type Verb = 'signIn' | 'confirm' | 'cancel' | 'deliver' | 'return' | 'release' | 'send' | 'import' | 'rotate' | 'redeliver' | 'ask' | 'close' | 'enable' | 'disable' | 'delete' | 'revoke' | 'issue' | 'invite' | 'create' | 'change' | 'save';
const ORDER_MOVES = ['confirm', 'cancel', 'deliver', 'return', 'release'] as const;

/** What the entry's actor did, from its operation (`METHOD /path/:param`) and its changes. */
function verbOf(entry: Pick<AuditEntry, 'operation' | 'entity' | 'changes'>): Verb {
  const [method = '', path = ''] = entry.operation.split(' ');
  const last = path.split('/').pop() ?? '';
  if (entry.entity === 'session') return 'signIn';
  if (path.startsWith('/order/:id/') && (ORDER_MOVES as readonly string[]).includes(last)) return last as Verb;
  if (entry.entity === 'batch' || path.startsWith('/batch/') || last === 'bulk-import') return 'send';
  if (path.startsWith('/import/')) return 'import';
  if (last === 'rotate-secret') return 'rotate';
  if (last === 'redeliver') return 'redeliver';
  if (last === 'additional-info') return 'ask';
  if (last === 'close') return 'close';
  const enabled = entry.changes?.find((c) => c.field === 'enabled');
  if (enabled) return enabled.after === true ? 'enable' : 'disable';
  if (method === 'DELETE') return entry.entity === 'credential' ? 'revoke' : 'delete';
  if (method === 'POST') return entry.entity === 'credential' ? 'issue' : entry.entity === 'member' ? 'invite' : 'create';
  // A PUT that kept what it changed says "changed"; an upsert that kept nothing "saved".
  return entry.changes?.length ? 'change' : 'save';
}

/** The records an entry names in words ("el pedido 12"); any other is its entity's name and id. */
const RECORDS = ['batch', 'category', 'credential', 'grouper', 'import', 'member', 'order', 'pricelist', 'promotion', 'seller', 'store', 'store-credit', 'supplier', 'ticket', 'webhook-delivery', 'deliveryzone', 'recommendation'] as const;
const WHOLE = ['webhook', 'supplier-settings', 'cancel-codes', 'sandbox'] as const;

function recordOf(t: Translate, entry: AuditEntry): string {
  const id = entry.entityId ?? '';
  if ((WHOLE as readonly string[]).includes(entry.entity)) return t(`audit.record.${entry.entity as (typeof WHOLE)[number]}`);
  if ((RECORDS as readonly string[]).includes(entry.entity)) return t(`audit.record.${entry.entity as (typeof RECORDS)[number]}`, { id });
  return `${entityName(t, entry.entity)} ${id}`.trim();
}

const FIELDS = ['status', 'deliveryDate', 'role', 'name', 'enabled', 'start', 'end', 'phone', 'email', 'baseUrl', 'events'] as const;

/** A field's old or new value in words: a status, a role, yes or no, "none" for nothing. */
function valueOf(t: Translate, entry: AuditEntry, field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return t('audit.none');
  if (typeof value === 'boolean') return value ? t('audit.yes') : t('audit.no');
  if (Array.isArray(value)) return value.length === 0 ? t('audit.none') : value.join(', ');
  const key = field === 'status' ? (entry.entity === 'ticket' ? `ticketStatus.${value}` : `status.${value}`) : field === 'role' ? `role.${value}` : undefined;
  return key && key in CONSOLE_CATALOGS.es ? t(key as ConsoleKey) : String(value);
}

function Changes({ entry }: { entry: AuditEntry }) {
  const t = useT();
  if (!entry.changes?.length) return null;
  return (
    <ul className="changes" aria-label={t('audit.changes')}>
      {entry.changes.map((c) => (
        <li key={c.field} data-field={c.field}>
          {(FIELDS as readonly string[]).includes(c.field) ? t(`audit.field.${c.field as (typeof FIELDS)[number]}`) : c.field}: <del>{valueOf(t, entry, c.field, c.before)}</del>
          {' → '}
          <ins>{valueOf(t, entry, c.field, c.after)}</ins>
        </li>
      ))}
    </ul>
  );
}

/** The entry as a sentence: who, did what, to which record ("Ana confirmó el pedido 12"), then what changed. */
function Sentence({ entry }: { entry: AuditEntry }) {
  const t = useT();
  const verb = verbOf(entry);
  return (
    <>
      <p className="sentence" data-testid="audit-sentence">
        <Actor actor={entry.actor} /> {t(`audit.verb.${verb}`)}
        {verb !== 'signIn' && <> {recordOf(t, entry)}</>}
      </p>
      <Changes entry={entry} />
    </>
  );
}

export default function Audit() {
  const t = useT();
  const f = useFormat();
  const list = useList({
    query: (s: Search, page) => ({
      entity: s.entity,
      entityId: s.entityId,
      actor: s.actor,
      from: s.from ? instantOf(s.from) : undefined,
      to: s.to ? instantOf(s.to, true) : undefined,
      page,
      take: 25,
    }),
    key: keys.audit,
    fetch: (query) => client.get('/audit', { params: { query } }),
  });
  const entity = list.search.entity;
  return (
    <section>
      <h1>{t('audit.title')}</h1>
      <p className="help">{t('audit.help')}</p>
      <ListPage
        list={list}
        filters={{
          label: t('audit.filters'),
          submit: t('audit.apply'),
          clear: t('audit.clear'),
          filters: [
            // An entity the console does not know yet (a link from elsewhere) stays choosable.
            { kind: 'select', key: 'entity', id: 'audit-entity', label: t('audit.entity'), all: t('audit.allEntities'), options: choices([...ENTITIES, ...(entity && !ENTITIES.includes(entity) ? [entity] : [])], (e) => entityName(t, e)) },
            { kind: 'day', key: 'from', id: 'audit-from', label: t('audit.from') },
            { kind: 'day', key: 'to', id: 'audit-to', label: t('audit.to') },
            { kind: 'text', key: 'entityId', id: 'audit-entity-id', label: t('audit.entityId') },
            { kind: 'text', key: 'actor', id: 'audit-actor', label: t('audit.actor') },
          ],
        }}
        empty={list.filtered ? t('audit.emptyFiltered') : t('audit.empty')}
        rowKey={(e) => e.id}
        rowAttrs={(e) => ({ 'data-entry': e.id, 'data-entity': e.entity, 'data-operation': e.operation })}
        columns={[
          { header: t('audit.at'), cell: (e) => <time dateTime={e.at}>{f.dateTime(e.at)}</time> },
          { header: t('audit.what'), cell: (e) => <Sentence entry={e} /> },
          {
            header: t('audit.more'),
            cell: (e) => (
              <>
                <p className="small">
                  {entityName(t, e.entity)} · <code>{e.operation}</code>
                </p>
                <Detail entry={e} />
                {e.requestId && <p className="muted small">{t('audit.request', { id: e.requestId })}</p>}
              </>
            ),
          },
        ]}
      />
    </section>
  );
}
