// A real SMTP server (smtp-server) on 127.0.0.1 that offers no TLS and no AUTH and keeps
// every mail it is given, for tests of what the service sends by mail.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface PlainSmtp {
  /** Every mail received, one entry per recipient. */
  readonly mails: { to: string; data: string }[];
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startPlainSmtp(): Promise<PlainSmtp> {
  const mails: { to: string; data: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, done) {
      let data = '';
      stream.on('data', (c) => (data += c));
      stream.on('end', () => {
        for (const rcpt of session.envelope.rcptTo) mails.push({ to: rcpt.address, data });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  return {
    mails,
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
