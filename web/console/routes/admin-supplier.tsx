// Operators: one supplier's members, and adding one (its first owner, usually): they get
// an email inviting them to the console.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { client, keys, ROLES, type Role } from '../lib/api.ts';
import { Empty, ErrorBox, Loading, Notice } from '../components/states.tsx';
import { useFormat, useT } from '../i18n.ts';

export default function AdminSupplier() {
  const t = useT();
  const f = useFormat();
  const supplierId = Number(useParams({ from: '/admin/suppliers/$id' }).id);
  const queryClient = useQueryClient();
  const suppliers = useQuery({ queryKey: keys.suppliers, queryFn: () => client.get('/admin/suppliers') });
  const members = useQuery({
    queryKey: keys.supplierMembers(supplierId),
    queryFn: () => client.get('/admin/suppliers/{supplierId}/members', { params: { path: { supplierId } } }),
  });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('owner');
  const add = useMutation({
    mutationFn: () => client.post('/admin/suppliers/{supplierId}/members', { params: { path: { supplierId } }, body: { email: email.trim(), role } }),
    onSuccess: () => {
      setEmail('');
      void queryClient.invalidateQueries({ queryKey: keys.supplierMembers(supplierId) });
    },
  });
  const supplier = suppliers.data?.find((s) => s.id === supplierId);
  return (
    <section>
      <p>
        <Link to="/admin/suppliers">{t('admin.back')}</Link>
      </p>
      <h1>{t('admin.members', { name: supplier ? `${supplier.name} (${supplier.code})` : `#${supplierId}` })}</h1>
      <form
        className="panel filters"
        aria-labelledby="add-member"
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <h2 id="add-member" className="full">
          {t('admin.addMember')}
        </h2>
        <div>
          <label htmlFor="member-email">{t('admin.email')}</label>
          <input id="member-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div>
          <label htmlFor="member-role">{t('role.label')}</label>
          <select id="member-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`role.${r}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="primary" disabled={add.isPending}>
          {t('admin.addMember')}
        </button>
        <div className="full">
          {add.isSuccess && <Notice>{t('admin.added', { email: add.data.email })}</Notice>}
          {add.error && <ErrorBox error={add.error} />}
        </div>
      </form>
      {members.isPending ? (
        <Loading />
      ) : members.error ? (
        <ErrorBox error={members.error} retry={() => void members.refetch()} />
      ) : members.data.length === 0 ? (
        <Empty>{t('admin.noMembers')}</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('admin.email')}</th>
                <th scope="col">{t('role.label')}</th>
                <th scope="col">{t('members.since')}</th>
              </tr>
            </thead>
            <tbody>
              {members.data.map((m) => (
                <tr key={m.id} data-member={m.email}>
                  <td>{m.email}</td>
                  <td>{t(`role.${m.role}`)}</td>
                  <td>{f.dateTime(m.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
