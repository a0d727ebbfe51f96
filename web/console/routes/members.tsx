// The supplier's members (owners): invite by email with a role, change a role, remove.
// The service keeps at least one owner (409 CONFLICT, worded by the catalog).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { client, keys, ROLES, useCan, useMe, type Member, type Role } from '../lib/api.ts';
import { Empty, ErrorBox, Loading } from '../components/states.tsx';
import { MemberForm } from '../components/MemberForm.tsx';
import { useFormat, useT } from '../i18n.ts';

function Invite() {
  const t = useT();
  const queryClient = useQueryClient();
  return (
    <MemberForm
      id="invite"
      heading="h2"
      title={t('members.inviteTitle')}
      emailLabel={t('members.email')}
      submit={t('members.invite')}
      done={(email) => t('members.invited', { email })}
      firstRole="agent"
      send={(body) => client.post('/member', { body })}
      added={() => void queryClient.invalidateQueries({ queryKey: keys.members })}
    />
  );
}

function Row({ m, self, canWrite }: { m: Member; self: boolean; canWrite: boolean }) {
  const t = useT();
  const f = useFormat();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const done = () => void queryClient.invalidateQueries({ queryKey: keys.members });
  const change = useMutation({ mutationFn: (role: Role) => client.put('/member/{id}', { params: { path: { id: m.id } }, body: { role } }), onSuccess: done });
  const remove = useMutation({ mutationFn: () => client.delete('/member/{id}', { params: { path: { id: m.id } } }), onSuccess: done });
  return (
    <tr data-member={m.email}>
      <td>
        {m.email}
        {self && <span className="muted small"> ({t('members.you')})</span>}
      </td>
      <td>
        {canWrite ? (
          <select aria-label={t('members.roleOf', { email: m.email })} value={m.role} disabled={change.isPending} onChange={(e) => change.mutate(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`role.${r}`)}
              </option>
            ))}
          </select>
        ) : (
          t(`role.${m.role}`)
        )}
        {change.error && <ErrorBox error={change.error} />}
      </td>
      <td>{f.dateTime(m.createdAt)}</td>
      <td>
        {canWrite &&
          (confirming ? (
            <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
              {t('members.confirmRemove', { email: m.email })}
            </button>
          ) : (
            <button type="button" onClick={() => setConfirming(true)} aria-label={`${t('members.remove')} ${m.email}`}>
              {t('members.remove')}
            </button>
          ))}
        {remove.error && <ErrorBox error={remove.error} />}
      </td>
    </tr>
  );
}

export default function Members() {
  const t = useT();
  const can = useCan();
  const me = useMe();
  const members = useQuery({ queryKey: keys.members, queryFn: () => client.get('/member') });
  const canWrite = can('supplier/member.write');
  return (
    <section>
      <h1>{t('members.title')}</h1>
      {canWrite && <Invite />}
      {members.isPending ? (
        <Loading />
      ) : members.error ? (
        <ErrorBox error={members.error} retry={() => void members.refetch()} />
      ) : members.data.length === 0 ? (
        <Empty>{t('members.empty')}</Empty>
      ) : (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t('members.email')}</th>
                <th scope="col">{t('role.label')}</th>
                <th scope="col">{t('members.since')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('members.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.data.map((m) => (
                <Row key={m.id} m={m} self={m.email === me.data?.email} canWrite={canWrite} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
