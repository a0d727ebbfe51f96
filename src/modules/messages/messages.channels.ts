// The real channels, each on only when its settings are given: email through SMTP
// (nodemailer), SMS and WhatsApp through Twilio's Messages REST API (a form POST with
// basic auth, through undici). The notifier routes a message to a channel: codes by the
// identifier's kind (a phone by WhatsApp only when both TWILIO_WHATSAPP_FROM and the
// approved code template TWILIO_WHATSAPP_CODE_TEMPLATE are set, falling back to SMS when
// that send fails; else by SMS); events by the channel the person chose (WhatsApp falling
// back to SMS too).
import nodemailer from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { request } from 'undici';
import type { Config, MessagingSettings } from '../../config.ts';
import { logNotifier, type IdentifierKind, type Notifier, type OutgoingMessage } from '../../lib/notifier.ts';

const TIMEOUT_MS = 15_000;

type Send = (message: OutgoingMessage) => Promise<void>;

function smtpChannel(smtp: NonNullable<MessagingSettings['smtp']>): Send {
  // The transport itself, not createTransport(url, ...): that one's second argument is the
  // messages' defaults, so the timeouts given there never reached the connection.
  const smtpTransport = new SMTPTransport({ url: smtp.url, connectionTimeout: TIMEOUT_MS, greetingTimeout: TIMEOUT_MS, socketTimeout: TIMEOUT_MS });
  // SMTP_REQUIRE_TLS: an smtp:// server must upgrade with STARTTLS before anything is sent
  // (smtps:// is TLS from the start). Set after the URL is read, whose own query options
  // (nodemailer reads `ignoreTLS` there) would otherwise win over the setting.
  if (smtp.requireTls) Object.assign(smtpTransport.options, { requireTLS: true, ignoreTLS: false });
  const transport = nodemailer.createTransport(smtpTransport);
  return async (m) => {
    await transport.sendMail({ from: smtp.from, to: m.to, subject: m.subject ?? '', text: m.body });
  };
}

function twilioChannel(twilio: NonNullable<MessagingSettings['twilio']>, kind: 'sms' | 'whatsapp'): Send {
  const url = `${twilio.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(twilio.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${twilio.accountSid}:${twilio.authToken}`).toString('base64')}`;
  const address = (phone: string) => (kind === 'whatsapp' && !phone.startsWith('whatsapp:') ? `whatsapp:${phone}` : phone);
  return async (m) => {
    const form = new URLSearchParams({ To: address(m.to), From: address((kind === 'sms' ? twilio.smsFrom : twilio.whatsappFrom)!) });
    // A message the business starts on WhatsApp needs an approved template: codes use theirs,
    // and a code never goes by WhatsApp as free text (WhatsApp refuses it).
    if (kind === 'whatsapp' && m.purpose === 'code') {
      if (!twilio.whatsappCodeTemplate || !m.variables) throw new Error('a code goes by WhatsApp only with TWILIO_WHATSAPP_CODE_TEMPLATE');
      form.set('ContentSid', twilio.whatsappCodeTemplate);
      form.set('ContentVariables', JSON.stringify({ 1: m.variables.code, 2: m.variables.minutes }));
    } else {
      form.set('Body', m.body);
    }
    const res = await request(url, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    const text = await res.body.text();
    if (res.statusCode < 200 || res.statusCode >= 300) {
      let detail = '';
      try {
        detail = String(JSON.parse(text).message ?? '');
      } catch {
        // Not JSON: the status alone says enough.
      }
      throw new Error(`twilio ${kind} answered ${res.statusCode}${detail ? `: ${detail.slice(0, 200)}` : ''}`);
    }
  };
}

/**
 * The channels the settings configure. `whatsappCodes`: codes may go by WhatsApp, which
 * needs both its sender and the approved code template; events by WhatsApp need the sender only.
 */
export function configuredChannels(settings: MessagingSettings) {
  const email = settings.smtp ? smtpChannel(settings.smtp) : undefined;
  const sms = settings.twilio?.smsFrom ? twilioChannel(settings.twilio, 'sms') : undefined;
  const whatsapp = settings.twilio?.whatsappFrom ? twilioChannel(settings.twilio, 'whatsapp') : undefined;
  const whatsappCodes = whatsapp && settings.twilio?.whatsappCodeTemplate ? whatsapp : undefined;
  return { email, sms, whatsapp, whatsappCodes };
}

/**
 * The notifier `npm start` uses. A kind with no channel writes to the log in development
 * and test, and cannot be sent in production (store sign-in with it answers 503).
 */
export function createNotifier(config: Config, log: (message: string) => void): Notifier {
  const { email, sms, whatsapp, whatsappCodes } = configuredChannels(config.messaging);
  const fallback = config.env === 'production' ? undefined : logNotifier(log);
  /** The WhatsApp sender a message may use: a code only with the approved template. */
  const whatsappFor = (m: OutgoingMessage) => (m.purpose === 'code' ? whatsappCodes : whatsapp);
  const has = (kind: IdentifierKind, purpose: OutgoingMessage['purpose']) =>
    kind === 'email' ? Boolean(email) : Boolean(sms || (purpose === 'code' ? whatsappCodes : whatsapp));
  return {
    // Asked before a sign-in code is written: whether a code can reach this kind.
    canSend: (kind) => has(kind, 'code') || Boolean(fallback),
    async send(m) {
      if (!has(m.kind, m.purpose)) {
        if (!fallback) throw new Error(`no channel is configured for ${m.kind === 'phone' ? 'phones' : 'emails'}`);
        return fallback.send(m);
      }
      if (m.kind === 'email') {
        await email!(m);
        return 'email';
      }
      // A phone: WhatsApp first when configured for this message (and wanted), SMS when it
      // fails or is not there.
      const wa = m.channel === 'sms' ? undefined : whatsappFor(m);
      if (wa) {
        try {
          await wa(m);
          return 'whatsapp';
        } catch (error) {
          if (!sms) throw error;
        }
      }
      if (!sms) throw new Error('no SMS channel is configured');
      await sms(m);
      return 'sms';
    },
  };
}
