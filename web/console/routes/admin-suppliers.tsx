// Operators: every supplier, creating one, enabling or disabling one (disabled, its
// credentials and console sessions are refused at once). Members are on the supplier's page.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { client, keys, type Supplier } from '../lib/api.ts';
import { ListAll } from '../components/list/ListPage.tsx';
import { ErrorBox } from '../components/states.tsx';
import { useT } from '../i18n.ts';

function Create() {
  const t = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const create = useMutation({
    mutationFn: () => client.post('/admin/suppliers', { body: { name: name.trim(), code: code.trim() } }),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: keys.suppliers });
      // Next step for a new supplier: its owner.
      await navigate({ to: '/admin/suppliers/$id', params: { id: String(created.id) } });
    },
  });
  return (
    <form
      className="panel filters"
      aria-labelledby="create"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
    >
      <h2 id="create" className="full">
        {t('admin.create')}
      </h2>
      <div>
        <label htmlFor="supplier-name">{t('admin.name')}</label>
        <input id="supplier-name" required value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div>
        <label htmlFor="supplier-code">{t('admin.code')}</label>
        <input id="supplier-code" required value={code} onChange={(e) => setCode(e.target.value)} />
      </div>
      <button type="submit" className="primary" disabled={create.isPending}>
        {t('admin.create')}
      </button>
      {create.error && (
        <div className="full">
          <ErrorBox error={create.error} />
        </div>
      )}
    </form>
  );
}

/** Enabling or disabling a supplier, at once (the operator's own switch). */
function Toggle({ s }: { s: Supplier }) {
  const t = useT();
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: () => client.put('/admin/suppliers/{supplierId}/status', { params: { path: { supplierId: s.id } }, body: { enabled: !s.enabled } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.suppliers }),
  });
  return (
    <>
      <button type="button" className={s.enabled ? 'danger' : undefined} disabled={toggle.isPending} onClick={() => toggle.mutate()}>
        {s.enabled ? t('admin.disable', { name: s.name }) : t('admin.enable', { name: s.name })}
      </button>
      {toggle.error && <ErrorBox error={toggle.error} />}
    </>
  );
}

export default function AdminSuppliers() {
  const t = useT();
  const suppliers = useQuery({ queryKey: keys.suppliers, queryFn: () => client.get('/admin/suppliers') });
  return (
    <section>
      <h1>{t('admin.suppliers')}</h1>
      <Create />
      <ListAll
        query={suppliers}
        empty={t('admin.empty')}
        rowKey={(s) => s.id}
        rowAttrs={(s) => ({ 'data-supplier': s.code })}
        columns={[
          {
            header: t('admin.name'),
            cell: (s) => (
              <Link to="/admin/suppliers/$id" params={{ id: String(s.id) }}>
                {s.name}
              </Link>
            ),
          },
          { header: t('admin.code'), cell: (s) => <code>{s.code}</code> },
          { header: t('admin.state'), cell: (s) => <span className={s.enabled ? 'status status-delivered' : 'status status-cancelled'}>{s.enabled ? t('admin.enabled') : t('admin.disabled')}</span> },
          { header: t('admin.actions'), quietHeader: true, cell: (s) => <Toggle s={s} /> },
        ]}
      />
    </section>
  );
}
