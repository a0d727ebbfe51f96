// The supplier's members (owners): invite by email with a role, change a role, remove.
// The service keeps at least one owner (409 CONFLICT, worded by the catalog).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { client, keys, ROLES, useCan, useMe, type Member, type Role } from '../lib/api.ts';
import { ListAll } from '../components/list/ListPage.tsx';
import { ErrorBox } from '../components/states.tsx';
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

/** A member's role: a choice for a role that may write members, words else. */
function RoleOf({ m, canWrite }: { m: Member; canWrite: boolean }) {
  const t = useT();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (role: Role) => client.put('/member/{id}', { params: { path: { id: m.id } }, body: { role } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.members }),
  });
  return (
    <>
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
    </>
  );
}

/** Removing a member (asked, then confirmed); the service keeps the last owner. */
function Remove({ m }: { m: Member }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => client.delete('/member/{id}', { params: { path: { id: m.id } } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.members }),
  });
  return (
    <>
      {confirming ? (
        <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
          {t('members.confirmRemove', { email: m.email })}
        </button>
      ) : (
        <button type="button" onClick={() => setConfirming(true)} aria-label={`${t('members.remove')} ${m.email}`}>
          {t('members.remove')}
        </button>
      )}
      {remove.error && <ErrorBox error={remove.error} />}
    </>
  );
}

export default function Members() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const me = useMe();
  const members = useQuery({ queryKey: keys.members, queryFn: () => client.get('/member') });
  const canWrite = can('supplier/member.write');
  return (
    <section>
      <h1>{t('members.title')}</h1>
      {canWrite && <Invite />}
      <ListAll
        query={members}
        empty={t('members.empty')}
        rowKey={(m) => m.id}
        rowAttrs={(m) => ({ 'data-member': m.email })}
        columns={[
          {
            header: t('members.email'),
            cell: (m) => (
              <>
                {m.email}
                {m.email === me.data?.email && <span className="muted small"> ({t('members.you')})</span>}
              </>
            ),
          },
          { header: t('role.label'), cell: (m) => <RoleOf m={m} canWrite={canWrite} /> },
          { header: t('members.since'), cell: (m) => f.dateTime(m.createdAt) },
          { header: t('members.actions'), quietHeader: true, cell: (m) => canWrite && <Remove m={m} /> },
        ]}
      />
    </section>
  );
}
