// The supplier's API credentials (owners): the list paged on the server (never a secret),
// issuing one (its API key and client secret shown once, here), revoking one.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { client, keys, useCan, type Credential } from '../lib/api.ts';
import { credentialColumns } from '../components/credentials.tsx';
import { ListPage, useList } from '../components/list/ListPage.tsx';
import { ErrorBox } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

type Search = { revoked?: boolean; page?: number };

/** Revoking one (asked, then confirmed): its tokens stop at once. */
function Revoke({ c }: { c: Credential }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const revoke = useMutation({
    mutationFn: () => client.delete('/credential/{clientId}', { params: { path: { clientId: c.clientId } } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['credentials'] }),
  });
  return (
    <>
      {!c.revokedAt &&
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
    </>
  );
}

export default function Credentials() {
  const t = useT();
  const can = useCan();
  const f = useFormat();
  const queryClient = useQueryClient();
  const list = useList({
    query: (s: Search, page) => ({ revoked: s.revoked, page, take: 25 }),
    key: keys.credentials,
    fetch: (query) => client.get('/credential', { params: { query } }),
  });
  const issue = useMutation({
    mutationFn: () => client.post('/credential', { body: {} }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['credentials'] }),
  });
  const canWrite = can('supplier/credential.write');
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
      <ListPage
        list={list}
        filters={{
          filters: [
            {
              kind: 'flag',
              key: 'revoked',
              id: 'revoked',
              label: t('credentials.filter'),
              all: t('credentials.all'),
              options: [
                [false, t('credentials.onlyLive')],
                [true, t('credentials.onlyRevoked')],
              ],
            },
          ],
        }}
        empty={t('credentials.empty')}
        rowKey={(c) => c.clientId}
        rowAttrs={(c) => ({ 'data-credential': c.clientId })}
        columns={[...credentialColumns(t, f, (n) => n), { header: t('members.actions'), quietHeader: true, cell: (c) => canWrite && <Revoke c={c} /> }]}
      />
    </section>
  );
}
