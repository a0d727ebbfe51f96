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
const ENTITIES = ['batch', 'category', 'credential', 'grouper', 'member', 'order', 'pricelist', 'promotion', 'store', 'supplier', 'supplier-settings', 'ticket', 'webhook', 'webhook-delivery', 'cancel-codes'];
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
          { header: t('audit.at'), cell: (e) => f.dateTime(e.at) },
          { header: t('audit.who'), cell: (e) => <Actor actor={e.actor} /> },
          {
            header: t('audit.what'),
            cell: (e) => (
              <>
                {entityName(t, e.entity)}
                {e.entityId !== null && (
                  <>
                    {' '}
                    <code>{e.entityId}</code>
                  </>
                )}
              </>
            ),
          },
          { header: t('audit.operation'), cell: (e) => <code>{e.operation}</code> },
          {
            header: t('audit.more'),
            cell: (e) => (
              <>
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
