// Messages to people: written as outbox rows in the transaction that causes them, sent
// by the worker (messages.worker.ts). Codes go to the identifier being signed in with;
// events go to the people of the store who opted in, by the channel they chose.
import type { Kysely, Transaction } from 'kysely';
import type { DB, MessageChannel } from '../../db/types.ts';
import { fieldError } from '../../lib/errors.ts';
import type { IdentifierKind } from '../../lib/notifier.ts';
import type { NewNotification } from '../store-app/store-app.notifications.repository.ts';
import * as repo from './messages.repository.ts';
import { asLanguage, codeMessage, eventMessage, invitationMessage, MESSAGE_EVENTS, type Language, type MessageEvent } from './messages.templates.ts';

/**
 * A code message, in the caller's transaction. `onlyIfKnown`: the worker sends it only when
 * a person or a membership names the identifier, so the request answers in the same time
 * either way.
 */
export async function enqueueCode(trx: Transaction<DB>, m: { kind: IdentifierKind; to: string; code: string; expiresInSeconds: number; onlyIfKnown: boolean }) {
  const language = asLanguage(await repo.languageOfIdentifier(trx, m.kind, m.to));
  const minutes = String(Math.round(m.expiresInSeconds / 60));
  const { subject, body } = codeMessage(language, m.code, Number(minutes));
  await repo.insertMessages(trx, [
    {
      purpose: 'code',
      to_kind: m.kind,
      recipient: m.to,
      channel: null,
      language,
      only_if_known: m.onlyIfKnown,
      subject,
      body,
      variables: { code: m.code, minutes },
      expiresInSeconds: m.expiresInSeconds,
    },
  ]);
}

/** An email inviting a new supplier member to the console, sent by the worker after the commit. */
export async function enqueueInvitation(trx: Transaction<DB>, m: { email: string; supplier: string; role: string; url: string }) {
  const language = asLanguage(await repo.languageOfIdentifier(trx, 'email', m.email));
  const { subject, body } = invitationMessage(language, m.supplier, m.role, m.url);
  await repo.insertMessages(trx, [
    { purpose: 'event', to_kind: 'email', recipient: m.email, channel: 'email', language, only_if_known: false, subject, body, variables: null, expiresInSeconds: null },
  ]);
}

const isMessageEvent = (type: string): type is MessageEvent => (MESSAGE_EVENTS as readonly string[]).includes(type);

/** Messages for the in-app notifications just recorded, to the people who opted into them. */
export async function enqueueForNotifications(trx: Transaction<DB>, notifications: NewNotification[]) {
  const wanted = notifications.filter((n) => isMessageEvent(n.type));
  if (wanted.length === 0) return;
  const stores = [...new Set(wanted.map((n) => n.storeId))];
  const names = await repo.storeNames(trx, stores);
  // A test twin's store users never get a real message: theirs go to its test inbox (src/modules/sandbox).
  const twins = await repo.testStores(trx, stores);
  const rows: repo.NewMessage[] = [];
  for (const n of wanted) {
    const event = n.type as MessageEvent;
    const ref = n.orderId ? `#${n.orderId}` : n.ticketId ? `#${n.ticketId}` : '';
    for (const p of await repo.subscribersOf(trx, n.storeId, event)) {
      const channel = p.channel!;
      const to = channel === 'email' ? p.email : p.phone;
      if (!to) continue;
      const language = asLanguage(p.language);
      const { subject, body } = eventMessage(language, event, ref, names.get(n.storeId) ?? '', n.packages);
      const inbox = twins.get(n.storeId);
      rows.push({ purpose: 'event', to_kind: channel === 'email' ? 'email' : 'phone', recipient: to, channel, language, only_if_known: false, subject, body, variables: null, expiresInSeconds: null, ...(inbox === undefined ? {} : { inbox }) });
    }
  }
  await repo.insertMessages(trx, rows);
}

export interface Preferences {
  language: Language;
  channel: MessageChannel | null;
  events: MessageEvent[];
}

export async function getPreferences(db: Kysely<DB>, personId: number): Promise<Preferences> {
  const row = await repo.preferencesOf(db, personId);
  return { language: asLanguage(row?.language), channel: row?.channel ?? null, events: (row?.events ?? []).filter(isMessageEvent) };
}

/** A field left out keeps its value. A channel needs the identifier it reaches (an email for email, a phone otherwise). */
export async function putPreferences(db: Kysely<DB>, personId: number, person: { phone: string | null; email: string | null }, input: Partial<Preferences>) {
  const current = await getPreferences(db, personId);
  const next: Preferences = {
    language: input.language ?? current.language,
    channel: input.channel === undefined ? current.channel : input.channel,
    events: input.events ? [...new Set(input.events)] : current.events,
  };
  if (next.channel === 'email' && !person.email) throw fieldError('INVALID_VALUE', '/channel', 'add a proven email first (POST /app/me/identifiers)');
  if ((next.channel === 'sms' || next.channel === 'whatsapp') && !person.phone) throw fieldError('INVALID_VALUE', '/channel', 'add a proven phone first (POST /app/me/identifiers)');
  await repo.savePreferences(db, personId, next);
  return next;
}

/** GET /dev/mailbox: recent messages still holding their body (development only). */
export async function mailbox(db: Kysely<DB>) {
  await repo.blankExpiredCodes(db);
  const rows = await repo.recentMessages(db, 50);
  return {
    data: rows.map((r) => ({
      to: r.recipient,
      channel: r.sent_via ?? r.channel ?? (r.to_kind === 'email' ? 'email' : 'sms'),
      ...(r.subject ? { subject: r.subject } : {}),
      body: r.body,
      createdAt: r.created_at.toISOString(),
    })),
  };
}
