// Sign in with a phone or an email and the 6-digit code the service sends.
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { client } from '../../lib/api.ts';
import { session } from '../../lib/session.ts';
import { ErrorBox } from '../components/states.tsx';
import { useT } from '../i18n.tsx';

type Contact = { phone: string } | { email: string };

/** "+57 300 123 4567" → a phone in E.164; anything with an @ → an email. */
export function contactOf(input: string): Contact | undefined {
  const value = input.trim();
  if (value.includes('@')) return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? { email: value } : undefined;
  const phone = value.replace(/[\s().-]/g, '');
  return /^\+[1-9]\d{6,14}$/.test(phone) ? { phone } : undefined;
}

export default function SignIn() {
  const t = useT();
  const navigate = useNavigate();
  const [input, setInput] = useState('');
  const [contact, setContact] = useState<Contact>();
  const [invalid, setInvalid] = useState(false);
  const [code, setCode] = useState('');
  const [expiresIn, setExpiresIn] = useState(300);

  const send = useMutation({
    mutationFn: (c: Contact) => client.post('/app/auth/code', { body: c }),
    onSuccess: (answer, c) => {
      setExpiresIn(answer.expiresIn);
      setContact(c);
    },
  });
  const enter = useMutation({
    mutationFn: () => client.post('/app/auth/token', { body: { ...contact!, code } }),
    onSuccess: async (answer) => {
      session.signIn(answer.access_token, answer.expires_in);
      const me = await client.get('/app/me');
      // The language the person saved follows them to this phone; none saved keeps the phone's.
      if (me.user.language) session.setLanguage(me.user.language);
      const usable = me.stores.filter((s) => s.enabled);
      if (me.stores.length === 1 || usable.length === 1) {
        session.chooseStore((usable[0] ?? me.stores[0])!.id);
        await navigate({ to: '/catalog' });
      } else await navigate({ to: '/stores' });
    },
  });

  if (!contact) {
    return (
      <section className="narrow">
        <h1>{t('signin.title')}</h1>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const c = contactOf(input);
            setInvalid(!c);
            if (c) send.mutate(c);
          }}
        >
          <label htmlFor="contact">{t('signin.contact')}</label>
          <input
            id="contact"
            name="username"
            autoComplete="username"
            inputMode="email"
            required
            value={input}
            onChange={(e) => setInput(e.target.value)}
            aria-describedby="contact-help"
            aria-invalid={invalid || undefined}
          />
          <p id="contact-help" className="help">
            {invalid ? t('signin.badContact') : t('signin.contactHelp')}
          </p>
          {send.error && <ErrorBox error={send.error} />}
          <button type="submit" className="primary" disabled={send.isPending}>
            {t('signin.send')}
          </button>
        </form>
      </section>
    );
  }

  const to = 'phone' in contact ? contact.phone : contact.email;
  return (
    <section className="narrow">
      <h1>{t('signin.title')}</h1>
      <p role="status">{t('signin.codeSent', { to, minutes: Math.round(expiresIn / 60) })}</p>
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
            setContact(undefined);
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
