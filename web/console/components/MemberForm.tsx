// Adding a person to a supplier by email with a role: an owner's invitation (POST /member)
// and an operator's (POST /admin/suppliers/{id}/members) are the same form over the same
// service; only the call, the words and the role offered first differ.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ROLES, type Role } from '../lib/api.ts';
import { useT } from '../i18n.ts';
import { ErrorBox, Notice } from './states.tsx';

export function MemberForm(props: {
  /** Prefix of the form's element ids (one form per page). */
  id: string;
  heading: 'h2' | 'h3';
  title: string;
  emailLabel: string;
  submit: string;
  /** The words once a person was added. */
  done: (email: string) => string;
  firstRole: Role;
  send: (body: { email: string; role: Role }) => Promise<{ email: string }>;
  /** After a person was added (the page refreshes its list). */
  added: () => void;
}) {
  const t = useT();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>(props.firstRole);
  const add = useMutation({
    mutationFn: () => props.send({ email: email.trim(), role }),
    onSuccess: () => {
      setEmail('');
      props.added();
    },
  });
  const Heading = props.heading;
  return (
    <form
      className="panel filters"
      aria-labelledby={props.id}
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Heading id={props.id} className="full">
        {props.title}
      </Heading>
      <div>
        <label htmlFor={`${props.id}-email`}>{props.emailLabel}</label>
        <input id={`${props.id}-email`} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </div>
      <div>
        <label htmlFor={`${props.id}-role`}>{t('role.label')}</label>
        <select id={`${props.id}-role`} value={role} onChange={(e) => setRole(e.target.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {t(`role.${r}`)}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="primary" disabled={add.isPending}>
        {props.submit}
      </button>
      <div className="full">
        {add.isSuccess && <Notice>{props.done(add.data.email)}</Notice>}
        {add.error && <ErrorBox error={add.error} />}
      </div>
    </form>
  );
}
