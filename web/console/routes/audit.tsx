// The supplier's audit log (GET /audit): who changed what, newest first, paged on the
// server. Entries are the supplier's own writes (its credentials', its members' in the
// console) and the operators' writes about it (a webhook secret rotated, a credential
// issued). The filters and the page live in the URL; the days are the browser's calendar
// days, sent to the API as instants ("to" includes its whole day).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { client, keys, type AuditEntry } from '../lib/api.ts';
import { Actor } from '../components/Actor.tsx';
import { Listed, Pager } from '../components/states.tsx';
import { CONSOLE_CATALOGS, type ConsoleKey } from '../words.ts';
import { useFormat, useT, type Translate } from '../i18n.ts';

const TAKE = 25;
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
  const search = useSearch({ from: '/audit' }) as Search;
  const navigate = useNavigate();
  const go = (next: Partial<Search>) => void navigate({ to: '/audit', search: { ...search, ...next } });
  const [entityId, setEntityId] = useState(search.entityId ?? '');
  const [actor, setActor] = useState(search.actor ?? '');
  const query = {
    entity: search.entity,
    entityId: search.entityId,
    actor: search.actor,
    from: search.from ? instantOf(search.from) : undefined,
    to: search.to ? instantOf(search.to, true) : undefined,
    page: search.page ?? 1,
    take: TAKE,
  };
  const entries = useQuery({
    queryKey: keys.audit(query),
    queryFn: () => client.get('/audit', { params: { query } }),
    placeholderData: keepPreviousData,
  });
  const filtered = Object.entries(search).some(([k, v]) => k !== 'page' && v !== undefined);

  return (
    <section>
      <h1>{t('audit.title')}</h1>
      <p className="help">{t('audit.help')}</p>
      <form
        className="filters"
        aria-label={t('audit.filters')}
        onSubmit={(e) => {
          e.preventDefault();
          go({ entityId: entityId.trim() || undefined, actor: actor.trim() || undefined, page: undefined });
        }}
      >
        <div>
          <label htmlFor="audit-entity">{t('audit.entity')}</label>
          <select id="audit-entity" value={search.entity ?? ''} onChange={(e) => go({ entity: e.target.value || undefined, page: undefined })}>
            <option value="">{t('audit.allEntities')}</option>
            {[...ENTITIES, ...(search.entity && !ENTITIES.includes(search.entity) ? [search.entity] : [])].map((e) => (
              <option key={e} value={e}>
                {entityName(t, e)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-from">{t('audit.from')}</label>
          <input id="audit-from" type="date" value={search.from ?? ''} onChange={(e) => go({ from: e.target.value || undefined, page: undefined })} />
        </div>
        <div>
          <label htmlFor="audit-to">{t('audit.to')}</label>
          <input id="audit-to" type="date" value={search.to ?? ''} onChange={(e) => go({ to: e.target.value || undefined, page: undefined })} />
        </div>
        <div>
          <label htmlFor="audit-entity-id">{t('audit.entityId')}</label>
          <input id="audit-entity-id" value={entityId} onChange={(e) => setEntityId(e.target.value)} />
        </div>
        <div>
          <label htmlFor="audit-actor">{t('audit.actor')}</label>
          <input id="audit-actor" value={actor} onChange={(e) => setActor(e.target.value)} />
        </div>
        <button type="submit">{t('audit.apply')}</button>
        {filtered && (
          <button
            type="button"
            className="link"
            onClick={() => {
              setEntityId('');
              setActor('');
              void navigate({ to: '/audit', search: {} });
            }}
          >
            {t('audit.clear')}
          </button>
        )}
      </form>
      <Listed query={entries} empty={filtered ? t('audit.emptyFiltered') : t('audit.empty')}>
        {(found) => (
          <>
            <div className="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('audit.at')}</th>
                    <th scope="col">{t('audit.who')}</th>
                    <th scope="col">{t('audit.what')}</th>
                    <th scope="col">{t('audit.operation')}</th>
                    <th scope="col">{t('audit.more')}</th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.map((e) => (
                    <tr key={e.id} data-entry={e.id} data-entity={e.entity} data-operation={e.operation}>
                      <td>{f.dateTime(e.at)}</td>
                      <td>
                        <Actor actor={e.actor} />
                      </td>
                      <td>
                        {entityName(t, e.entity)}
                        {e.entityId !== null && (
                          <>
                            {' '}
                            <code>{e.entityId}</code>
                          </>
                        )}
                      </td>
                      <td>
                        <code>{e.operation}</code>
                      </td>
                      <td>
                        <Detail entry={e} />
                        {e.requestId && <p className="muted small">{t('audit.request', { id: e.requestId })}</p>}
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
