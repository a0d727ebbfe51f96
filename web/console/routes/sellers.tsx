// The supplier's sellers (issue #32): the sales reps who order for the stores they serve.
// The ERP loads them (PUT /seller/{code}, /batch/seller); a member with the stores' write
// scope adds or edits one here with the same PUT, so the rules are the API's: a name, a
// phone, an email or both (they sign in to the store app with them), the codes of the
// stores served (a code not loaded yet is kept, as every store link). A refused save shows
// each problem under its field, found by the problem's JSON Pointer.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { SurtidoApiError } from 'surtido/console-client';
import { client, useCan } from '../lib/api.ts';
import { searchFilter } from '../components/catalog.tsx';
import { ListPage, useList } from '../components/list/ListPage.tsx';
import { DraftForm, fieldBoxes } from '../components/FormField.tsx';
import { Notice } from '../components/states.tsx';
import { useT } from '../i18n.ts';

type Search = { search?: string; page?: number };
type Seller = { internalCode: string; name: string; phone: string | null; email: string | null; storeInternalCodes: string[] };
const FIELDS = ['code', 'name', 'phone', 'email', 'stores'] as const;
type Field = (typeof FIELDS)[number];
type Draft = Record<Field, string>;
const EMPTY: Draft = { code: '', name: '', phone: '', email: '', stores: '' };

/** The form's field a problem's pointer names: the body's field, or the path's code. */
function fieldOf(pointer: string): Field | undefined {
  const top = pointer.split('/')[pointer.startsWith('/params/') ? 2 : 1];
  if (top === 'code' || top === 'internalCode') return 'code';
  if (top === 'storeInternalCodes') return 'stores';
  return (FIELDS as readonly string[]).includes(top ?? '') ? (top as Field) : undefined;
}

function SellerForm(props: { editing: Seller | null; done: () => void }) {
  const t = useT();
  const queries = useQueryClient();
  const start = props.editing
    ? { code: props.editing.internalCode, name: props.editing.name, phone: props.editing.phone ?? '', email: props.editing.email ?? '', stores: props.editing.storeInternalCodes.join(', ') }
    : EMPTY;
  const [draft, setDraft] = useState<Draft>(start);
  const save = useMutation({
    mutationFn: () => {
      // Empty boxes are left out (a phone or an email is optional alone); the stores are codes separated by commas or lines.
      const stores = draft.stores.split(/[,\n]/).map((s) => s.trim()).filter((s) => s !== '');
      return client.put('/seller/{code}', {
        params: { path: { code: draft.code.trim() } },
        body: {
          name: draft.name.trim(),
          ...(draft.phone.trim() ? { phone: draft.phone.trim() } : {}),
          ...(draft.email.trim() ? { email: draft.email.trim() } : {}),
          storeInternalCodes: stores,
        },
      });
    },
    onSuccess: async () => {
      await queries.invalidateQueries({ queryKey: ['sellers'] });
      if (!props.editing) setDraft(EMPTY);
    },
  });
  const problems = new Map<Field, string>();
  if (save.error instanceof SurtidoApiError) {
    for (const p of save.error.errors) {
      const field = fieldOf(p.pointer);
      if (field && !problems.has(field)) problems.set(field, t(p.code === 'REQUIRED' && field === 'phone' ? 'sellers.problem.contact' : `sellers.problem.${field}`));
    }
  }
  const box = fieldBoxes<Field>('seller', (field) => t(`sellers.${field}`), draft, setDraft, problems);
  return (
    <DraftForm
      id="seller-form"
      className="seller-form"
      title={props.editing ? t('sellers.edit', { name: props.editing.name }) : t('sellers.add')}
      onSubmit={() => save.mutate()}
      save={{ label: t('sellers.save'), pending: save.isPending }}
      cancel={props.editing ? { label: t('sellers.cancel'), onClick: props.done } : undefined}
      saved={save.isSuccess && <Notice>{t('sellers.saved', { name: save.data.name })}</Notice>}
      error={save.error}
    >
      {box('code', 'text', { required: true, disabled: props.editing !== null })}
      {box('name', 'text', { required: true })}
      {box('phone', 'tel', { hint: t('sellers.phoneHint'), inputMode: 'tel' })}
      {box('email', 'email', { inputMode: 'email' })}
      {box('stores', 'text', { hint: t('sellers.storesHint') })}
    </DraftForm>
  );
}

export default function Sellers() {
  const t = useT();
  const can = useCan();
  const [editing, setEditing] = useState<Seller | null>(null);
  const list = useList({
    query: (s: Search, page) => ({ search: s.search, page, take: 25 }),
    key: (query) => ['sellers', query],
    fetch: (query) => client.get('/seller', { params: { query } }),
  });
  const write = can('supplier/store.write');
  return (
    <section>
      <h1>{t('sellers.title')}</h1>
      <p className="muted">{t('sellers.intro')}</p>
      <ListPage
        list={list}
        filters={{ filters: [searchFilter('seller-search', t('sellers.search'))] }}
        empty={t('sellers.empty')}
        rowKey={(s) => s.internalCode}
        rowAttrs={(s) => ({ 'data-seller': s.internalCode })}
        columns={[
          { header: t('sellers.code'), cell: (s) => <code>{s.internalCode}</code> },
          { header: t('sellers.name'), cell: (s) => s.name },
          { header: t('sellers.phone'), cell: (s) => s.phone ?? '—' },
          { header: t('sellers.email'), cell: (s) => s.email ?? '—' },
          {
            header: t('sellers.stores'),
            attrs: { 'data-stores': true },
            cell: (s) => (s.storeInternalCodes.length === 0 ? <span className="muted">{t('sellers.none')}</span> : s.storeInternalCodes.map((c, i) => <code key={c}>{(i > 0 ? ', ' : '') + c}</code>)),
          },
          {
            header: t('sellers.actions'),
            quietHeader: true,
            when: write,
            cell: (s) => (
              <button type="button" className="link" aria-label={t('sellers.editOne', { name: s.name })} onClick={() => setEditing(s)}>
                {t('sellers.editButton')}
              </button>
            ),
          },
        ]}
      />
      {/* A new key per seller edited, so the form starts from that seller's values. */}
      {write && <SellerForm key={editing?.internalCode ?? ''} editing={editing} done={() => setEditing(null)} />}
    </section>
  );
}
