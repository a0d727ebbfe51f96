// Sign in with a phone or an email and the 6-digit code the service sends (the kit's
// two-step form, web/kit/CodeSignIn.tsx, over /app/auth).
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { CodeSignIn } from '../../kit/CodeSignIn.tsx';
import { client } from '../../lib/api.ts';
import { session } from '../../lib/session.ts';
import { ErrorBox } from '../components/states.tsx';
import { useT } from '../i18n.tsx';

type Contact = { phone: string } | { email: string };

/**
 * "+57 300 123 4567" → a phone in E.164; "300 123 4567", a local number, → the platform's
 * country code (DEFAULT_COUNTRY_CODE, from GET /app/auth/settings) before its digits, its
 * leading zeros (a trunk prefix) dropped; anything with an @ → an email. The one rule for
 * local numbers: the page completes them, the service takes E.164 only. Without the country
 * code (not loaded yet, offline) a local number is refused.
 */
export function contactOf(input: string, countryCode: string | undefined): Contact | undefined {
  const value = input.trim();
  if (value.includes('@')) return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? { email: value } : undefined;
  const typed = value.replace(/[\s().-]/g, '');
  const phone = countryCode && /^\d{7,14}$/.test(typed) ? `${countryCode}${typed.replace(/^0+/, '')}` : typed;
  return /^\+[1-9]\d{6,14}$/.test(phone) ? { phone } : undefined;
}

export default function SignIn() {
  const t = useT();
  const navigate = useNavigate();
  const settings = useQuery({ queryKey: ['sign-in-settings'], queryFn: () => client.get('/app/auth/settings'), staleTime: Infinity });
  return (
    <CodeSignIn<Contact>
      words={{
        title: t('signin.title'),
        identifier: t('signin.contact'),
        help: t('signin.contactHelp'),
        invalid: t('signin.badContact'),
        send: t('signin.send'),
        code: t('signin.code'),
        codeSent: (to, minutes) => t('signin.codeSent', { to, minutes }),
        enter: t('signin.enter'),
        other: t('signin.other'),
        resend: t('signin.resend'),
        resendIn: (seconds) => t('signin.resendIn', { seconds }),
        noCode: t('signin.noCode'),
      }}
      // Most shopkeepers sign in with their phone: the phone keyboard first, the e-mail one a tap away.
      field={{ id: 'contact', name: 'username', type: 'tel', inputMode: 'tel', alternate: { type: 'email', inputMode: 'email', show: t('signin.useEmail'), back: t('signin.usePhone') } }}
      parse={(input) => contactOf(input, settings.data?.countryCode)}
      shown={(c) => ('phone' in c ? c.phone : c.email)}
      sendCode={(c) => client.post('/app/auth/code', { body: c })}
      exchange={(c, code) => client.post('/app/auth/token', { body: { ...c, code } })}
      onSignedIn={async (answer) => {
        session.signIn(answer.access_token, answer.expires_in);
        const me = await client.get('/app/me');
        // The language the person saved follows them to this phone; none saved keeps the phone's.
        if (me.user.language) session.setLanguage(me.user.language);
        const usable = me.stores.filter((s) => s.enabled);
        if (me.stores.length === 1 || usable.length === 1) {
          session.chooseStore((usable[0] ?? me.stores[0])!.id);
          await navigate({ to: '/catalog' });
        } else await navigate({ to: '/stores' });
      }}
      ErrorBox={ErrorBox}
    />
  );
}
