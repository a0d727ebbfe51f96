// Sign in with a code, in two steps: who (a phone, an email: what the app's `parse` takes),
// then the 6-digit code the service sent there. The endpoints, the words and what signing
// in does next are the app's; the form, its states and its accessibility are the same.
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type ComponentType, type HTMLInputTypeAttribute } from 'react';

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
  /** "Resend code": offered once `RESEND_AFTER_SECONDS` have passed since the code was sent. */
  resend?: string;
  /** The resend button while it waits ("Reenviar código en 12 s"). */
  resendIn?: (seconds: number) => string;
  /**
   * Said on the code step to everyone alike (known or not: the service's answer is the same):
   * what to do when no code arrives.
   */
  noCode?: string;
}

/** Seconds before a code may be asked for again from the code step. */
const RESEND_AFTER_SECONDS = 30;

type Keyboard = { type?: HTMLInputTypeAttribute; inputMode?: 'email' | 'tel' | 'text' | 'numeric' };

export interface SignInToken {
  access_token: string;
  expires_in: number;
}

export interface CodeSignInProps<I> {
  words: CodeSignInWords;
  /** The identifier's input: its id and name (password managers read the name), type and keyboard. */
  field: { id: string; name: string } & Keyboard & {
    /** A second keyboard the person may switch to (a phone field's e-mail keyboard), with the switch's words both ways. */
    alternate?: Keyboard & { show: string; back: string };
  };
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
  const [alternate, setAlternate] = useState(false);
  // When the last code was sent, and the time now, ticking while a resend waits.
  const [sentAt, setSentAt] = useState(0);
  const [now, setNow] = useState(() => Date.now());

  const send = useMutation({
    mutationFn: (to: I) => sendCode(to),
    onSuccess: (answer, to) => {
      setExpiresIn(answer.expiresIn);
      setIdentifier(to);
      setSentAt(Date.now());
      setNow(Date.now());
    },
  });
  const enter = useMutation({ mutationFn: () => exchange(identifier!, code), onSuccess: onSignedIn });
  const wait = Math.max(0, RESEND_AFTER_SECONDS - Math.floor((now - sentAt) / 1000));
  useEffect(() => {
    if (identifier === undefined || wait === 0) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [identifier, wait]);

  if (identifier === undefined) {
    const helpId = `${field.id}-help`;
    const errorId = `${field.id}-error`;
    const keyboard: Keyboard = alternate && field.alternate ? field.alternate : field;
    const described = [words.help && helpId, invalid && words.invalid && errorId].filter(Boolean).join(' ');
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
            type={keyboard.type}
            autoComplete="username"
            inputMode={keyboard.inputMode}
            required
            value={input}
            onChange={(e) => setInput(e.target.value)}
            aria-describedby={described || undefined}
            aria-invalid={invalid || undefined}
          />
          {words.help && (
            <p id={helpId} className="help">
              {words.help}
            </p>
          )}
          {/* Announced when it appears: a refusal is heard, not only shown. */}
          {invalid && words.invalid && (
            <p id={errorId} role="alert" className="warn">
              {words.invalid}
            </p>
          )}
          {send.error && <ErrorBox error={send.error} />}
          <button type="submit" className="primary" disabled={send.isPending}>
            {words.send}
          </button>
          {field.alternate && (
            <button type="button" className="link" onClick={() => setAlternate(!alternate)}>
              {alternate ? field.alternate.back : field.alternate.show}
            </button>
          )}
        </form>
      </section>
    );
  }

  return (
    <section className="narrow">
      <h1>{words.title}</h1>
      <p role="status">{words.codeSent(shown(identifier), Math.round(expiresIn / 60))}</p>
      {words.noCode && <p className="help">{words.noCode}</p>}
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
        {send.error && <ErrorBox error={send.error} />}
        <button type="submit" className="primary" disabled={enter.isPending || code.length !== 6}>
          {words.enter}
        </button>
        {words.resend && (
          <button type="button" disabled={wait > 0 || send.isPending} onClick={() => send.mutate(identifier)}>
            {wait > 0 && words.resendIn ? words.resendIn(wait) : words.resend}
          </button>
        )}
        <button
          type="button"
          className="link"
          onClick={() => {
            setIdentifier(undefined);
            setCode('');
            enter.reset();
            send.reset();
          }}
        >
          {words.other}
        </button>
      </form>
    </section>
  );
}
