// Operators: every supplier, creating one, enabling or disabling one (disabled, its
// credentials and console sessions are refused at once). Members are on the supplier's page.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { client, keys, type Supplier } from '../lib/api.ts';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
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

function Row({ s }: { s: Supplier }) {
  const t = useT();
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: () => client.put('/admin/suppliers/{supplierId}/status', { params: { path: { supplierId: s.id } }, body: { enabled: !s.enabled } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.suppliers }),
  });
  return (
    <tr data-supplier={s.code}>
      <td>
        <Link to="/admin/suppliers/$id" params={{ id: String(s.id) }}>
          {s.name}
        </Link>
      </td>
      <td>
        <code>{s.code}</code>
      </td>
      <td>
        <span className={s.enabled ? 'status status-delivered' : 'status status-cancelled'}>{s.enabled ? t('admin.enabled') : t('admin.disabled')}</span>
      </td>
      <td>
        <button type="button" className={s.enabled ? 'danger' : undefined} disabled={toggle.isPending} onClick={() => toggle.mutate()}>
          {s.enabled ? t('admin.disable', { name: s.name }) : t('admin.enable', { name: s.name })}
        </button>
        {toggle.error && <ErrorBox error={toggle.error} />}
      </td>
    </tr>
  );
}

export default function AdminSuppliers() {
  const t = useT();
  const suppliers = useQuery({ queryKey: keys.suppliers, queryFn: () => client.get('/admin/suppliers') });
  return (
    <section>
      <h1>{t('admin.suppliers')}</h1>
      <Create />
      {suppliers.isPending ? (
        <Loading />
      ) : suppliers.error ? (
        <ErrorBox error={suppliers.error} retry={() => void suppliers.refetch()} />
      ) : suppliers.data.length === 0 ? (
        <Empty>{t('admin.empty')}</Empty>
      ) : (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('admin.name')}</th>
                <th scope="col">{t('admin.code')}</th>
                <th scope="col">{t('admin.state')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('admin.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {suppliers.data.map((s) => (
                <Row key={s.id} s={s} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
