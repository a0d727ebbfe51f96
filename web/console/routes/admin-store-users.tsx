// Operators: a store user found by phone or email (the search in the URL), the stores
// naming them, and ending every session of theirs at once.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { client, keys } from '../lib/api.ts';
import { ListTable } from '../components/list/ListPage.tsx';
import { Empty, ErrorBox, Loading, Notice } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

/** "+57 300 123 4567" → a phone in E.164; anything with an @ → an email. */
function contactOf(input: string): { phone: string } | { email: string } | undefined {
  const value = input.trim();
  if (value.includes('@')) return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? { email: value } : undefined;
  const phone = value.replace(/[\s().-]/g, '');
  return /^\+[1-9]\d{6,14}$/.test(phone) ? { phone } : undefined;
}

export default function AdminStoreUsers() {
  const t = useT();
  const f = useFormat();
  const search = useSearch({ from: '/admin/store-users' }) as { contact?: string };
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [input, setInput] = useState(search.contact ?? '');
  const [invalid, setInvalid] = useState(false);
  const contact = search.contact ? contactOf(search.contact) : undefined;
  const found = useQuery({
    queryKey: keys.storeUser(contact ?? {}),
    queryFn: () => client.get('/admin/store-users', { params: { query: contact! } }),
    enabled: contact !== undefined,
  });
  const end = useMutation({
    mutationFn: (personId: number) => client.post('/admin/store-users/{personId}/sessions/end', { params: { path: { personId } } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['admin-store-user'] }),
  });
  return (
    <section>
      <h1>{t('admin.storeUsers')}</h1>
      <form
        className="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          const c = contactOf(input);
          setInvalid(!c);
          end.reset();
          if (c) void navigate({ to: '/admin/store-users', search: { contact: input.trim() } });
        }}
      >
        <div>
          <label htmlFor="contact">{t('admin.contact')}</label>
          <input id="contact" value={input} onChange={(e) => setInput(e.target.value)} aria-describedby="contact-help" aria-invalid={invalid || undefined} />
          <p id="contact-help" className="help small">
            {invalid ? t('admin.badContact') : t('admin.contactHelp')}
          </p>
        </div>
        <button type="submit">{t('admin.find')}</button>
      </form>
      {contact === undefined ? null : found.isPending ? (
        <Loading rows={2} />
      ) : found.error ? (
        <ErrorBox error={found.error} retry={() => void found.refetch()} />
      ) : (
        <>
          <h2>{t('admin.person')}</h2>
          {found.data.person === null ? (
            <Empty>{t('admin.notFound', { contact: search.contact! })}</Empty>
          ) : (
            <div className="panel" data-person={found.data.person.id}>
              <dl className="facts">
                <dt>{t('admin.personName')}</dt>
                <dd>{found.data.person.name ?? '—'}</dd>
                <dt>{t('admin.phone')}</dt>
                <dd>{found.data.person.phone ?? '—'}</dd>
                <dt>{t('admin.email')}</dt>
                <dd>{found.data.person.email ?? '—'}</dd>
                <dt>{t('admin.sessionsEnded')}</dt>
                <dd data-testid="sessions-ended">{found.data.person.sessionsEndedAt ? f.dateTime(found.data.person.sessionsEndedAt) : t('admin.never')}</dd>
              </dl>
              <button type="button" className="danger" disabled={end.isPending} onClick={() => end.mutate(found.data.person!.id)}>
                {t('admin.endSessions')}
              </button>
              {end.isSuccess && <Notice>{t('admin.ended')}</Notice>}
              {end.error && <ErrorBox error={end.error} />}
            </div>
          )}
          <h2>{t('admin.storeMemberships')}</h2>
          {found.data.memberships.length === 0 ? (
            <Empty>{t('admin.noMemberships')}</Empty>
          ) : (
            <ListTable
              rows={found.data.memberships}
              rowKey={(_m, i) => i}
              columns={[
                { header: t('admin.supplier'), cell: (m) => m.supplier.name },
                {
                  header: t('admin.store'),
                  cell: (m) => (
                    <>
                      {m.store.name} <span className="muted small">{m.store.internalCode}</span>
                    </>
                  ),
                },
                { header: t('admin.personName'), cell: (m) => m.name ?? '—' },
                { header: t('admin.phone'), cell: (m) => m.phone ?? '—' },
                { header: t('admin.email'), cell: (m) => m.email ?? '—' },
              ]}
            />
          )}
        </>
      )}
    </section>
  );
}
