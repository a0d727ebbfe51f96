// A store (GET /store/{code}) and its buyers: the people who sign in to the store app for it.
// A role with the stores' write scope adds them (POST /store/{code}/add/user), edits one
// (PUT /console/stores/{code}/user: the old one replaced by the edited one in one step) and
// removes one after an inline question (POST /store/{code}/remove/user). Every rule is the
// supplier API's own (src/modules/stores/README.md): a phone, an email or both; a refused
// save shows each problem under its field, found by the problem's JSON Pointer.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { SurtidoApiError } from 'surtido/console-client';
import { client, useCan } from '../lib/api.ts';
import { EnabledBadge } from '../components/catalog.tsx';
import { ListTable } from '../components/list/ListPage.tsx';
import { DraftForm, fieldBoxes } from '../components/FormField.tsx';
import { Empty, ErrorBox, Loading, Notice } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

type Buyer = { phone: string | null; email: string | null; name: string | null };
const FIELDS = ['phone', 'email', 'name'] as const;
type Field = (typeof FIELDS)[number];
type Draft = Record<Field, string>;
const EMPTY: Draft = { phone: '', email: '', name: '' };

const storeKey = (code: string) => ['store', code] as const;

/** "+57 300 123 4567" as typed on a phone: the service wants E.164, without spaces or dashes. */
const phoneOf = (typed: string) => typed.replace(/[\s().-]/g, '');

/** The form's field a problem names: `/users/0/phone` (add) or `/user/phone` (edit); the user itself when it has no phone nor email. */
function fieldOf(pointer: string): Field | 'contact' | undefined {
  const parts = pointer.split('/');
  const field = pointer.startsWith('/users/') ? parts[3] : pointer.startsWith('/user') ? parts[2] : undefined;
  if (field === undefined) return pointer === '/user' || /^\/users\/\d+$/.test(pointer) ? 'contact' : undefined;
  return (FIELDS as readonly string[]).includes(field) ? (field as Field) : undefined;
}

/** The name a buyer is called by in the page's words: their name, else how they sign in. */
const nameOf = (b: Buyer) => b.name ?? b.phone ?? b.email ?? '—';

function BuyerForm({ code, editing, done }: { code: string; editing: Buyer | null; done: () => void }) {
  const t = useT();
  const queries = useQueryClient();
  const [draft, setDraft] = useState<Draft>(editing ? { phone: editing.phone ?? '', email: editing.email ?? '', name: editing.name ?? '' } : EMPTY);
  const save = useMutation({
    mutationFn: () => {
      // Empty boxes are left out: a phone or an email alone is enough.
      const user = {
        ...(draft.phone.trim() ? { phone: phoneOf(draft.phone) } : {}),
        ...(draft.email.trim() ? { email: draft.email.trim() } : {}),
        ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
      };
      if (!editing) return client.post('/store/{code}/add/user', { params: { path: { code } }, body: { users: [user] } });
      // The buyer is named as the store matches them: by phone when they have one, else by email.
      const current = editing.phone ? { phone: editing.phone } : { email: editing.email! };
      return client.put('/console/stores/{code}/user', { params: { path: { code } }, body: { current, user } });
    },
    onSuccess: (answer) => {
      queries.setQueryData(storeKey(code), (old: object | undefined) => (old ? { ...old, users: answer.users } : old));
      void queries.invalidateQueries({ queryKey: storeKey(code) });
      if (editing) done();
      else setDraft(EMPTY);
    },
  });
  const problems = new Map<Field, string>();
  if (save.error instanceof SurtidoApiError) {
    for (const p of save.error.errors) {
      const field = fieldOf(p.pointer);
      if (field === 'contact') problems.set('phone', t('buyers.problem.contact'));
      else if (field && !problems.has(field)) problems.set(field, t(`buyers.problem.${field}`));
    }
  }
  const box = fieldBoxes<Field>('buyer', (field) => t(`buyers.${field}`), draft, setDraft, problems);
  return (
    <DraftForm
      id="buyer-form"
      title={editing ? t('buyers.edit', { name: nameOf(editing) }) : t('buyers.add')}
      onSubmit={() => save.mutate()}
      save={{ label: editing ? t('buyers.saveEdit') : t('buyers.save'), pending: save.isPending }}
      cancel={editing ? { label: t('buyers.cancel'), onClick: done } : undefined}
      saved={save.isSuccess && !editing && <Notice>{t('buyers.added')}</Notice>}
      error={save.error}
    >
      {box('phone', 'tel', { hint: t('buyers.phoneHint'), inputMode: 'tel' })}
      {box('email', 'email', { inputMode: 'email' })}
      {box('name', 'text')}
    </DraftForm>
  );
}

/** Taking a buyer off the store: asked, then confirmed. */
function Remove({ code, buyer }: { code: string; buyer: Buyer }) {
  const t = useT();
  const queries = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    // By phone when they have one (an email may be another buyer's too), else by email.
    mutationFn: () => client.post('/store/{code}/remove/user', { params: { path: { code } }, body: { users: [buyer.phone ? { phone: buyer.phone } : { email: buyer.email! }] } }),
    onSuccess: (answer) => {
      queries.setQueryData(storeKey(code), (old: object | undefined) => (old ? { ...old, users: answer.users } : old));
      void queries.invalidateQueries({ queryKey: storeKey(code) });
    },
  });
  return (
    <>
      {confirming ? (
        <>
          <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
            {t('buyers.confirmRemove', { name: nameOf(buyer) })}
          </button>{' '}
          <button type="button" className="link" onClick={() => setConfirming(false)}>
            {t('buyers.keep')}
          </button>
        </>
      ) : (
        <button type="button" onClick={() => setConfirming(true)} aria-label={t('buyers.removeLabel', { name: nameOf(buyer) })}>
          {t('buyers.remove')}
        </button>
      )}
      {remove.error && <ErrorBox error={remove.error} />}
    </>
  );
}

export default function Store() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const { code } = useParams({ from: '/stores/$code' });
  const store = useQuery({ queryKey: storeKey(code), queryFn: () => client.get('/store/{code}', { params: { path: { code } } }) });
  const [editing, setEditing] = useState<Buyer | null>(null);
  const canWrite = can('supplier/store.write');
  const address = store.data && (store.data.addresses.find((a) => a.default) ?? store.data.addresses[0]);
  return (
    <section>
      <p>
        <Link to="/stores" search={{}}>
          {t('store.back')}
        </Link>
      </p>
      {store.isPending ? (
        <Loading />
      ) : store.error ? (
        <ErrorBox error={store.error} retry={() => void store.refetch()} />
      ) : (
        <>
          <h1>{store.data.name}</h1>
          <dl className="facts">
            <dt>{t('catalog.code')}</dt>
            <dd>
              <code>{store.data.internalCode}</code>
            </dd>
            {store.data.ownerName && (
              <>
                <dt>{t('store.owner')}</dt>
                <dd>{store.data.ownerName}</dd>
              </>
            )}
            <dt>{t('stores.address')}</dt>
            <dd>{address ? `${address.street}, ${address.city}` : '—'}</dd>
            <dt>{t('stores.minimum')}</dt>
            <dd>{store.data.settings.dropSize === null ? '—' : f.money(store.data.settings.dropSize)}</dd>
            <dt>{t('catalog.state')}</dt>
            <dd>
              <EnabledBadge enabled={store.data.enabled} />
            </dd>
          </dl>

          <h2 id="buyers">{t('buyers.title')}</h2>
          <p className="help">{t('buyers.intro')}</p>
          {store.data.users.length === 0 ? (
            <Empty>{t('buyers.empty')}</Empty>
          ) : (
            <ListTable
              label={t('buyers.title')}
              rows={store.data.users}
              rowKey={(b) => b.phone ?? b.email ?? ''}
              rowAttrs={(b) => ({ 'data-buyer': b.phone ?? b.email ?? '' })}
              columns={[
                { header: t('buyers.name'), rowHeader: true, cell: (b) => b.name ?? <span className="muted">{t('buyers.noName')}</span> },
                { header: t('buyers.phone'), cell: (b) => b.phone ?? '—' },
                { header: t('buyers.email'), cell: (b) => b.email ?? '—' },
                {
                  header: t('members.actions'),
                  quietHeader: true,
                  when: canWrite,
                  cell: (b) => (
                    <>
                      <button type="button" onClick={() => setEditing(b)} aria-label={t('buyers.editLabel', { name: nameOf(b) })}>
                        {t('buyers.editButton')}
                      </button>{' '}
                      <Remove code={code} buyer={b} />
                    </>
                  ),
                },
              ]}
            />
          )}
          {canWrite && <BuyerForm key={editing ? `edit:${editing.phone ?? editing.email}` : 'add'} code={code} editing={editing} done={() => setEditing(null)} />}
        </>
      )}
    </section>
  );
}
