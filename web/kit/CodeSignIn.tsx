// Sign in with a code, in two steps: who (a phone, an email: what the app's `parse` takes),
// then the 6-digit code the service sent there. The endpoints, the words and what signing
// in does next are the app's; the form, its states and its accessibility are the same.
import { useMutation } from '@tanstack/react-query';
import { useState, type ComponentType, type HTMLInputTypeAttribute } from 'react';

export interface CodeSignInWords {
  title: string;
  /** A line under the title on the first step. */
  intro?: string;
  /** The identifier's label ("Celular o correo"). */
  identifier: string;
  /** Help under the identifier, read with it. */
  help?: string;
  /** Said instead of the help when `parse` refuses what was typed. */
  invalid?: string;
  send: string;
  code: string;
  codeSent: (to: string, minutes: number) => string;
  enter: string;
  other: string;
}

export interface SignInToken {
  access_token: string;
  expires_in: number;
}

export interface CodeSignInProps<I> {
  words: CodeSignInWords;
  /** The identifier's input: its id and name (password managers read the name), type and keyboard. */
  field: { id: string; name: string; type?: HTMLInputTypeAttribute; inputMode?: 'email' | 'tel' | 'text' | 'numeric' };
  /** What was typed, as the identifier the service takes, or undefined when it cannot be one. */
  parse: (input: string) => I | undefined;
  /** The identifier as the "code sent to" line writes it. */
  shown: (identifier: I) => string;
  /** Asks the service to send a code (its answer says how long the code lives). */
  sendCode: (identifier: I) => Promise<{ expiresIn: number }>;
  /** Trades the identifier and code for a session token. */
  exchange: (identifier: I, code: string) => Promise<SignInToken>;
  /** What signing in does next: keep the token, then go where the app starts. */
  onSignedIn: (token: SignInToken) => Promise<void>;
  ErrorBox: ComponentType<{ error: unknown }>;
}

export function CodeSignIn<I>({ words, field, parse, shown, sendCode, exchange, onSignedIn, ErrorBox }: CodeSignInProps<I>) {
  const [input, setInput] = useState('');
  const [identifier, setIdentifier] = useState<I>();
  const [invalid, setInvalid] = useState(false);
  const [code, setCode] = useState('');
  const [expiresIn, setExpiresIn] = useState(300);

  const send = useMutation({
    mutationFn: (to: I) => sendCode(to),
    onSuccess: (answer, to) => {
      setExpiresIn(answer.expiresIn);
      setIdentifier(to);
    },
  });
  const enter = useMutation({ mutationFn: () => exchange(identifier!, code), onSuccess: onSignedIn });

  if (identifier === undefined) {
    const help = invalid ? words.invalid : words.help;
    const helpId = `${field.id}-help`;
    return (
      <section className="narrow">
        <h1>{words.title}</h1>
        {words.intro && <p className="muted">{words.intro}</p>}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const parsed = parse(input);
            setInvalid(parsed === undefined);
            if (parsed !== undefined) send.mutate(parsed);
          }}
        >
          <label htmlFor={field.id}>{words.identifier}</label>
          <input
            id={field.id}
            name={field.name}
            type={field.type}
            autoComplete="username"
            inputMode={field.inputMode}
            required
            value={input}
            onChange={(e) => setInput(e.target.value)}
            aria-describedby={help ? helpId : undefined}
            aria-invalid={invalid || undefined}
          />
          {help && (
            <p id={helpId} className="help">
              {help}
            </p>
          )}
          {send.error && <ErrorBox error={send.error} />}
          <button type="submit" className="primary" disabled={send.isPending}>
            {words.send}
          </button>
        </form>
      </section>
    );
  }

  return (
    <section className="narrow">
      <h1>{words.title}</h1>
      <p role="status">{words.codeSent(shown(identifier), Math.round(expiresIn / 60))}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          enter.mutate();
        }}
      >
        <label htmlFor="code">{words.code}</label>
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
          {words.enter}
        </button>
        <button
          type="button"
          className="link"
          onClick={() => {
            setIdentifier(undefined);
            setCode('');
            enter.reset();
          }}
        >
          {words.other}
        </button>
      </form>
    </section>
  );
}
