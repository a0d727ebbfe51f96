// Issue 29: a sign-in code is never sent over a connection without TLS unless the operator
// says so. A real SMTP server (smtp-server) that offers no TLS at all: with
// SMTP_REQUIRE_TLS on (production's default) the send is refused before the message is
// given to it; with SMTP_REQUIRE_TLS=false it goes through in the clear.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createNotifier } from '../../src/modules/messages/messages.channels.ts';
import { PRODUCTION_ENV } from '../helpers/app.ts';
import { startPlainSmtp, type PlainSmtp } from '../helpers/smtp.ts';

let smtp: PlainSmtp;
let smtpUrl: string;
const mailTo = (to: string) => smtp.mails.filter((m) => m.to === to);

beforeAll(async () => {
  smtp = await startPlainSmtp();
  smtpUrl = smtp.url;
});

afterAll(() => smtp.close());

const code = (to: string) => ({ purpose: 'code' as const, kind: 'email' as const, to, subject: 'Tu código', body: 'Tu código es 123456. Vale por 5 minutos.' });

describe('SMTP without TLS', () => {
  it('is refused in production by default: the code never leaves in the clear', async () => {
    const notifier = createNotifier(loadConfig({ ...PRODUCTION_ENV, SMTP_URL: smtpUrl, MAIL_FROM: 'no-reply@example.com' }), () => {});
    await expect(notifier.send(code('production@example.com'))).rejects.toThrow(/STARTTLS/);
    expect(mailTo('production@example.com')).toEqual([]);
  });

  it('is refused in development too when SMTP_REQUIRE_TLS=true', async () => {
    const notifier = createNotifier(loadConfig({ SMTP_URL: smtpUrl, MAIL_FROM: 'no-reply@example.com', SMTP_REQUIRE_TLS: 'true' }), () => {});
    await expect(notifier.send(code('development@example.com'))).rejects.toThrow(/STARTTLS/);
    expect(mailTo('development@example.com')).toEqual([]);
  });

  it('goes through when the operator sets SMTP_REQUIRE_TLS=false', async () => {
    const notifier = createNotifier(loadConfig({ ...PRODUCTION_ENV, SMTP_URL: smtpUrl, MAIL_FROM: 'no-reply@example.com', SMTP_REQUIRE_TLS: 'false' }), () => {});
    expect(await notifier.send(code('allowed@example.com'))).toBe('email');
    expect(mailTo('allowed@example.com')).toEqual([expect.objectContaining({ data: expect.stringContaining('123456') })]);
  });
});
