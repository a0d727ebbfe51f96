// The supplier's API credentials (owners): the list paged on the server (never a secret),
// issuing one (its API key and client secret shown once, here), revoking one.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { client, keys, useCan, type Credential } from '../lib/api.ts';
import { ErrorBox, Listed, Pager } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

const TAKE = 25;
type Search = { revoked?: boolean; page?: number };

function Row({ c, canWrite }: { c: Credential; canWrite: boolean }) {
  const t = useT();
  const f = useFormat();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const revoke = useMutation({
    mutationFn: () => client.delete('/credential/{clientId}', { params: { path: { clientId: c.clientId } } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['credentials'] }),
  });
  return (
    <tr data-credential={c.clientId}>
      <td>
        <code>{c.clientId}</code>
      </td>
      <td>
        <details>
          <summary>{c.scopes.length}</summary>
          <ul className="scopes">
            {c.scopes.map((s) => (
              <li key={s}>
                <code>{s}</code>
              </li>
            ))}
          </ul>
        </details>
      </td>
      <td>{f.dateTime(c.createdAt)}</td>
      <td>{c.revokedAt ? t('credentials.revokedAt', { at: f.dateTime(c.revokedAt) }) : t('credentials.live')}</td>
      <td>
        {canWrite &&
          !c.revokedAt &&
          (confirming ? (
            <button type="button" className="danger" disabled={revoke.isPending} onClick={() => revoke.mutate()}>
              {t('credentials.confirmRevoke', { id: c.clientId })}
            </button>
          ) : (
            <button type="button" onClick={() => setConfirming(true)} aria-label={`${t('credentials.revoke')} ${c.clientId}`}>
              {t('credentials.revoke')}
            </button>
          ))}
        {revoke.error && <ErrorBox error={revoke.error} />}
      </td>
    </tr>
  );
}

export default function Credentials() {
  const t = useT();
  const can = useCan();
  const search = useSearch({ from: '/credentials' }) as Search;
  const navigate = useNavigate();
  const go = (next: Partial<Search>) => void navigate({ to: '/credentials', search: { ...search, ...next } });
  const queryClient = useQueryClient();
  const query = { revoked: search.revoked, page: search.page ?? 1, take: TAKE };
  const list = useQuery({ queryKey: keys.credentials(query), queryFn: () => client.get('/credential', { params: { query } }), placeholderData: keepPreviousData });
  const issue = useMutation({
    mutationFn: () => client.post('/credential', { body: {} }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['credentials'] }),
  });
  const canWrite = can('supplier/credential.write');
  const filter = search.revoked === undefined ? '' : String(search.revoked);
  return (
    <section>
      <h1>{t('credentials.title')}</h1>
      {canWrite && (
        <button type="button" className="primary" disabled={issue.isPending} onClick={() => issue.mutate()}>
          {t('credentials.issue')}
        </button>
      )}
      {issue.error && <ErrorBox error={issue.error} />}
      {issue.data && (
        <div className="panel secret" role="status" data-testid="issued">
          <p>
            <strong>{t('credentials.issued')}</strong>
          </p>
          <dl className="facts">
            <dt>{t('credentials.apiKey')}</dt>
            <dd>
              <code data-testid="api-key">{issue.data.apiKey}</code>
            </dd>
            <dt>{t('credentials.clientId')}</dt>
            <dd>
              <code data-testid="client-id">{issue.data.clientId}</code>
            </dd>
            <dt>{t('credentials.clientSecret')}</dt>
            <dd>
              <code data-testid="client-secret">{issue.data.clientSecret}</code>
            </dd>
          </dl>
        </div>
      )}
      <div className="filters">
        <div>
          <label htmlFor="revoked">{t('credentials.filter')}</label>
          <select id="revoked" value={filter} onChange={(e) => go({ revoked: e.target.value === '' ? undefined : e.target.value === 'true', page: undefined })}>
            <option value="">{t('credentials.all')}</option>
            <option value="false">{t('credentials.onlyLive')}</option>
            <option value="true">{t('credentials.onlyRevoked')}</option>
          </select>
        </div>
      </div>
      <Listed query={list} empty={t('credentials.empty')}>
        {(found) => (
          <>
            <div className="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('credentials.clientId')}</th>
                    <th scope="col">{t('credentials.scopes')}</th>
                    <th scope="col">{t('credentials.created')}</th>
                    <th scope="col">{t('credentials.state')}</th>
                    <th scope="col">
                      <span className="visually-hidden">{t('members.actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {found.data.map((c) => (
                    <Row key={c.clientId} c={c} canWrite={canWrite} />
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
