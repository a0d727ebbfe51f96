// Issue 15: messages reach people through real channels. A real SMTP server (smtp-server)
// and a local stand-in for Twilio's Messages API receive what the worker sends, in a
// production build whose log is captured: sign-in works through them and no code is
// ever written to the log.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createNotifier } from '../../src/modules/messages/messages.channels.ts';
import { as, createTestApp, PRODUCTION_ENV, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { waitFor } from '../helpers/process.ts';
import { startPlainSmtp, type PlainSmtp } from '../helpers/smtp.ts';

const SID = 'AC0123456789abcdef';
const AUTH = 'twilio-secret-token';
const twilio: { path: string; authorization: string | undefined; form: URLSearchParams }[] = [];
const PHONE_WA = '+573009990001';
const PHONE_FALLBACK = '+573009990002';
const PHONE_RETRY = '+573009990003';
let smsFailuresLeft = 1;

let smtp: PlainSmtp;
let twilioServer: http.Server;
let t: TestApp;
let s: TestSupplier;
const logLines: string[] = [];

beforeAll(async () => {
  smtp = await startPlainSmtp();
  twilioServer = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      twilio.push({ path: req.url ?? '', authorization: req.headers.authorization, form });
      const to = form.get('To') ?? '';
      const whatsapp = to.startsWith('whatsapp:');
      const fail = (whatsapp && to !== `whatsapp:${PHONE_WA}`) || (!whatsapp && to === PHONE_RETRY && smsFailuresLeft-- > 0);
      res.writeHead(fail ? 503 : 201, { 'content-type': 'application/json' });
      res.end(JSON.stringify(fail ? { code: 20500, message: 'unavailable' } : { sid: 'SM1', status: 'queued' }));
    });
  });
  await new Promise<void>((resolve) => twilioServer.listen(0, '127.0.0.1', () => resolve()));
  const stream = new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) });
  t = await createTestApp({
    env: {
      ...PRODUCTION_ENV,
      LOG_LEVEL: 'trace',
      // The stand-in offers no TLS (test/messages/smtp-tls.test.ts: refused unless this says so).
      SMTP_REQUIRE_TLS: 'false',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Surtido <no-reply@example.com>',
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: AUTH,
      TWILIO_SMS_FROM: '+15550001111',
      TWILIO_WHATSAPP_FROM: '+15550002222',
      TWILIO_WHATSAPP_CODE_TEMPLATE: 'HX0123456789',
      TWILIO_API_URL: `http://127.0.0.1:${(twilioServer.address() as AddressInfo).port}`,
    },
    notifier: false,
    logger: { level: 'trace', stream },
    messages: { backoff: () => 1 },
  });
  s = await t.supplier();
  const res = await as(t, s, 'POST', '/batch/store', { upsert: [{ internalCode: 'S1', name: 'Tienda Uno' }] });
  await t.waitForBatches(s, res.json().batchId);
  const users = [{ email: 'rosa@example.com' }, { phone: PHONE_WA }, { phone: PHONE_FALLBACK }, { phone: PHONE_RETRY }];
  expect((await as(t, s, 'POST', '/store/S1/add/user', { users })).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  twilioServer?.close();
});

const post = (url: string, payload: unknown, token?: string) =>
  t.request({ method: 'POST', url, payload: payload as never, headers: token ? { authorization: `Bearer ${token}` } : {} });
const sixDigits = (text: string) => /(?<!\d)(\d{6})(?!\d)/.exec(text)?.[1];
/** The code in a mail's text (quoted-printable or not), never a number of its headers. */
const mailCode = (data: string) => /digo es (\d{6})\./.exec(data)?.[1];

describe('email through SMTP', () => {
  it('a real SMTP server receives the code in Spanish, and the code signs in', async () => {
    expect((await post('/app/auth/code', { email: 'rosa@example.com' })).statusCode).toBe(202);
    const mail = await waitFor('the mail', async () => smtp.mails.find((m) => m.to === 'rosa@example.com'), 20_000);
    expect(mail.data).toMatch(/Tu c=C3=B3digo es \d{6}|Tu código es \d{6}/);
    const code = mailCode(mail.data)!;
    const res = await post('/app/auth/token', { email: 'rosa@example.com', code });
    expect(res.statusCode, res.body).toBe(200);
    // The code is not kept in clear once sent.
    const rows = await sql<{ body: string; status: string }>`select body, status from messages where recipient = 'rosa@example.com'`.execute(t.deps.db);
    expect(rows.rows).toEqual([{ body: '', status: 'sent' }]);
  });

  it('an opted-in event reaches the person by email, in their language', async () => {
    const before = smtp.mails.filter((m) => m.to === 'rosa@example.com').length;
    expect((await post('/app/auth/code', { email: 'rosa@example.com' })).statusCode).toBe(202);
    const mail = await waitFor('a new mail', async () => smtp.mails.filter((m) => m.to === 'rosa@example.com')[before], 20_000);
    const token = (await post('/app/auth/token', { email: 'rosa@example.com', code: mailCode(mail.data)! })).json().access_token;
    const auth = { authorization: `Bearer ${token}` };
    expect((await t.request({ method: 'GET', url: '/app/me/preferences', headers: auth })).json()).toEqual({ language: 'es', channel: null, events: [] });
    // No phone proven: SMS cannot be chosen.
    const noPhone = await t.request({ method: 'PUT', url: '/app/me/preferences', headers: auth, payload: { channel: 'sms' } });
    expect(noPhone.statusCode).toBe(400);
    expect(noPhone.json().errors[0].pointer).toBe('/channel');
    const put = await t.request({ method: 'PUT', url: '/app/me/preferences', headers: auth, payload: { language: 'en', channel: 'email', events: ['TICKET_INFO_REQUESTED'] } });
    expect(put.json()).toEqual({ language: 'en', channel: 'email', events: ['TICKET_INFO_REQUESTED'] });
    const storeId = (await t.request({ method: 'GET', url: '/app/me', headers: auth })).json().stores[0].id;
    const ticket = await post(`/app/stores/${storeId}/tickets`, { message: 'Falta un producto' }, token);
    expect(ticket.statusCode, ticket.body).toBe(200);
    expect((await as(t, s, 'POST', '/support/ticket/additional-info', { ticketId: ticket.json().id, message: 'Which one?' })).statusCode).toBe(200);
    const event = await waitFor('the event mail', async () => smtp.mails.find((m) => m.to === 'rosa@example.com' && /needs more information/.test(m.data)), 20_000);
    expect(event.data).toMatch(/Tienda Uno needs more information about your request #\d+/);
  });
});

describe('SMS and WhatsApp through Twilio', () => {
  const requestsTo = (phone: string) => twilio.filter((r) => r.form.get('To')?.endsWith(phone));

  it('a phone code goes by WhatsApp with the approved template', async () => {
    expect((await post('/app/auth/code', { phone: PHONE_WA })).statusCode).toBe(202);
    const [req] = await waitFor('the WhatsApp request', async () => (requestsTo(PHONE_WA).length ? requestsTo(PHONE_WA) : undefined), 20_000);
    expect(req!.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(req!.authorization).toBe(`Basic ${Buffer.from(`${SID}:${AUTH}`).toString('base64')}`);
    expect(req!.form.get('To')).toBe(`whatsapp:${PHONE_WA}`);
    expect(req!.form.get('From')).toBe('whatsapp:+15550002222');
    expect(req!.form.get('ContentSid')).toBe('HX0123456789');
    const variables = JSON.parse(req!.form.get('ContentVariables')!);
    expect(variables).toEqual({ 1: expect.stringMatching(/^\d{6}$/), 2: '5' });
    expect((await post('/app/auth/token', { phone: PHONE_WA, code: variables['1'] })).statusCode).toBe(200);
  });

  it('falls back to SMS when the WhatsApp send fails', async () => {
    expect((await post('/app/auth/code', { phone: PHONE_FALLBACK })).statusCode).toBe(202);
    const sms = await waitFor('the SMS', async () => requestsTo(PHONE_FALLBACK).find((r) => r.form.get('To') === PHONE_FALLBACK), 20_000);
    expect(requestsTo(PHONE_FALLBACK)[0]!.form.get('To')).toBe(`whatsapp:${PHONE_FALLBACK}`);
    expect(sms.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(sms.form.get('From')).toBe('+15550001111');
    expect(sms.form.get('Body')).toMatch(/^Tu código es \d{6}\. Vale por 5 minutos\.$/);
    expect((await post('/app/auth/token', { phone: PHONE_FALLBACK, code: sixDigits(sms.form.get('Body')!)! })).statusCode).toBe(200);
  });

  it('retries a send that failed, with an attempt recorded per try', async () => {
    expect((await post('/app/auth/code', { phone: PHONE_RETRY })).statusCode).toBe(202);
    const delivered = await waitFor('the retried SMS', async () => requestsTo(PHONE_RETRY).filter((r) => r.form.get('To') === PHONE_RETRY)[1], 30_000);
    expect((await post('/app/auth/token', { phone: PHONE_RETRY, code: sixDigits(delivered.form.get('Body')!)! })).statusCode).toBe(200);
    const attempts = await sql<{ attempt: number; ok: boolean; error: string | null }>`
      select a.attempt, a.ok, a.error from message_attempts a join messages m on m.id = a.message_id
      where m.recipient = ${PHONE_RETRY} order by a.attempt`.execute(t.deps.db);
    expect(attempts.rows.map((r) => [r.attempt, r.ok])).toEqual([[1, false], [2, true]]);
    expect(attempts.rows[0]!.error).toMatch(/503/);
  });
});

describe('WhatsApp needs the approved code template', () => {
  const twilioEnv = (extra: Record<string, string>) => ({
    ...PRODUCTION_ENV,
    TWILIO_ACCOUNT_SID: SID,
    TWILIO_AUTH_TOKEN: AUTH,
    TWILIO_API_URL: `http://127.0.0.1:${(twilioServer.address() as AddressInfo).port}`,
    ...extra,
  });
  const code = { purpose: 'code' as const, kind: 'phone' as const, to: PHONE_WA, body: 'Tu código es 654321. Vale por 5 minutos.', variables: { code: '654321', minutes: '5' } };

  it('without TWILIO_WHATSAPP_CODE_TEMPLATE, a phone code goes by SMS, never as WhatsApp free text', async () => {
    // PHONE_WA is the number the stand-in accepts on WhatsApp: only the settings keep the code off it.
    const notifier = createNotifier(loadConfig(twilioEnv({ TWILIO_SMS_FROM: '+15550001111', TWILIO_WHATSAPP_FROM: '+15550002222' })), () => {});
    const seen = twilio.length;
    expect(await notifier.send(code)).toBe('sms');
    const sent = twilio.slice(seen);
    expect(sent.map((r) => r.form.get('To'))).toEqual([PHONE_WA]);
    expect(sent[0]!.form.get('From')).toBe('+15550001111');
    expect(sent[0]!.form.get('Body')).toBe(code.body);
    // An event the person chose WhatsApp for still goes by WhatsApp (TWILIO_WHATSAPP_FROM is set).
    expect(await notifier.send({ purpose: 'event', kind: 'phone', channel: 'whatsapp', to: PHONE_WA, body: 'Pedido #1 confirmado' })).toBe('whatsapp');
  });

  it('with TWILIO_WHATSAPP_FROM alone, phones cannot be sent codes (sign-in by phone stays 503)', async () => {
    const notifier = createNotifier(loadConfig(twilioEnv({ TWILIO_WHATSAPP_FROM: '+15550002222' })), () => {});
    expect(notifier.canSend('phone')).toBe(false);
    const seen = twilio.length;
    await expect(notifier.send(code)).rejects.toThrow(/no channel/);
    expect(twilio.length).toBe(seen);
  });

  it('with both set, the code goes by WhatsApp with the template', async () => {
    const notifier = createNotifier(loadConfig(twilioEnv({ TWILIO_WHATSAPP_FROM: '+15550002222', TWILIO_WHATSAPP_CODE_TEMPLATE: 'HX0123456789' })), () => {});
    expect(notifier.canSend('phone')).toBe(true);
    const seen = twilio.length;
    expect(await notifier.send(code)).toBe('whatsapp');
    const [req] = twilio.slice(seen);
    expect(req!.form.get('To')).toBe(`whatsapp:${PHONE_WA}`);
    expect(req!.form.get('ContentSid')).toBe('HX0123456789');
    expect(req!.form.get('Body')).toBeNull();
  });
});

describe('production', () => {
  it('wrote no code to the log, and has no development mailbox', async () => {
    expect((await t.request({ method: 'GET', url: '/dev/mailbox' })).statusCode).toBe(404);
    t.app.log.info('the capture works');
    const log = logLines.join('\n');
    expect(log).toMatch(/the capture works/);
    expect(log).not.toMatch(/(?<!\d)\d{6}(?!\d)/);
  });
});
