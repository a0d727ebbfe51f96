// Sign in with an email and the 6-digit code the service sends there (the kit's two-step
// form, web/kit/CodeSignIn.tsx, over /console/auth).
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { CodeSignIn } from '../../kit/CodeSignIn.tsx';
import { client, keys } from '../lib/api.ts';
import { session } from '../lib/session.ts';
import { ErrorBox } from '../components/states.tsx';
import { useT } from '../i18n.ts';

export default function SignIn() {
  const t = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <CodeSignIn<string>
      words={{
        title: t('signin.title'),
        intro: t('signin.intro'),
        identifier: t('signin.email'),
        send: t('signin.send'),
        code: t('signin.code'),
        codeSent: (email, minutes) => t('signin.codeSent', { email, minutes }),
        enter: t('signin.enter'),
        other: t('signin.other'),
      }}
      field={{ id: 'email', name: 'email', type: 'email' }}
      parse={(input) => input.trim()}
      shown={(email) => email}
      sendCode={(email) => client.post('/console/auth/code', { body: { email } })}
      exchange={(email, code) => client.post('/console/auth/token', { body: { email, code } })}
      onSignedIn={async (answer) => {
        queryClient.clear();
        session.signIn(answer.access_token, answer.expires_in);
        await queryClient.invalidateQueries({ queryKey: keys.me });
        await navigate({ to: '/' });
      }}
      ErrorBox={ErrorBox}
    />
  );
}
