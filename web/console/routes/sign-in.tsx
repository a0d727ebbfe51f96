// Sign in with an email and the 6-digit code the service sends there.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { client, keys } from '../lib/api.ts';
import { session } from '../lib/session.ts';
import { ErrorBox } from '../components/states.tsx';
import { useT } from '../i18n.ts';

export default function SignIn() {
  const t = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string>();
  const [code, setCode] = useState('');
  const [expiresIn, setExpiresIn] = useState(300);

  const send = useMutation({
    mutationFn: (to: string) => client.post('/console/auth/code', { body: { email: to } }),
    onSuccess: (answer, to) => {
      setExpiresIn(answer.expiresIn);
      setSentTo(to);
    },
  });
  const enter = useMutation({
    mutationFn: () => client.post('/console/auth/token', { body: { email: sentTo!, code } }),
    onSuccess: async (answer) => {
      queryClient.clear();
      session.signIn(answer.access_token, answer.expires_in);
      await queryClient.invalidateQueries({ queryKey: keys.me });
      await navigate({ to: '/' });
    },
  });

  if (!sentTo) {
    return (
      <section className="narrow">
        <h1>{t('signin.title')}</h1>
        <p className="muted">{t('signin.intro')}</p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            send.mutate(email.trim());
          }}
        >
          <label htmlFor="email">{t('signin.email')}</label>
          <input id="email" name="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
          {send.error && <ErrorBox error={send.error} />}
          <button type="submit" className="primary" disabled={send.isPending}>
            {t('signin.send')}
          </button>
        </form>
      </section>
    );
  }

  return (
    <section className="narrow">
      <h1>{t('signin.title')}</h1>
      <p role="status">{t('signin.codeSent', { email: sentTo, minutes: Math.round(expiresIn / 60) })}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          enter.mutate();
        }}
      >
        <label htmlFor="code">{t('signin.code')}</label>
        <input
          id="code"
          name="code"
          className="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          autoFocus
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
        />
        {enter.error && <ErrorBox error={enter.error} />}
        <button type="submit" className="primary" disabled={enter.isPending || code.length !== 6}>
          {t('signin.enter')}
        </button>
        <button
          type="button"
          className="link"
          onClick={() => {
            setSentTo(undefined);
            setCode('');
            enter.reset();
          }}
        >
          {t('signin.other')}
        </button>
      </form>
    </section>
  );
}
