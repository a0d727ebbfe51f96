import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { storeUserOf } from '../store-app/store-app.principal.ts';
import { Nullable, problems } from '../../lib/schemas.ts';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../lib/errors.ts';
import { findPerson } from '../store-app/store-app.sign-in.repository.ts';
import { getPreferences, mailbox, putPreferences } from './messages.service.ts';
import { MESSAGE_EVENTS } from './messages.templates.ts';

const Channel = Type.Union([Type.Literal('email'), Type.Literal('sms'), Type.Literal('whatsapp')]);
const Language = Type.Union([Type.Literal('es'), Type.Literal('pt-BR'), Type.Literal('en')]);
const Event = Type.Union([Type.Literal('TICKET_INFO_REQUESTED'), Type.Literal('ORDER_CONFIRMED'), Type.Literal('ORDER_DELIVERED'), Type.Literal('ORDER_CANCELLED')]);
const Preferences = Type.Object(
  {
    language: Language,
    channel: Nullable(Channel),
    events: Type.Array(Event, { maxItems: MESSAGE_EVENTS.length * 2 }),
  },
  { description: 'Which in-app events also reach the person as a message, by which channel, and in which language (codes always go to the identifier being signed in with)' },
);
const PreferencesInput = Type.Partial(Preferences);

export const messageRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/app/me/preferences', {
      config: { auth: 'store' },
      schema: { tags: ['store app'], summary: "The signed-in person's message preferences", response: { 200: Preferences, ...problems(401) } },
      handler: (request) => getPreferences(deps.db, storeUserOf(request)),
    });

    app.put('/app/me/preferences', {
      config: { auth: 'store' },
      schema: {
        tags: ['store app'],
        summary: "Changes the signed-in person's message preferences (a field left out keeps its value)",
        body: PreferencesInput,
        response: { 200: Preferences, ...problems(400, 401) },
      },
      handler: async (request) => {
        const personId = storeUserOf(request);
        const person = await findPerson(deps.db, personId);
        if (!person) throw new AppError('UNAUTHENTICATED', 'this person no longer exists');
        return putPreferences(deps.db, personId, person, request.body);
      },
    });

    // Development only: the messages that would have gone out, so a newcomer signs in
    // from a browser. Not registered at all elsewhere (404), and never in production.
    if (deps.config.messaging.devMailbox && deps.config.env !== 'production') {
      app.get('/dev/mailbox', {
        config: { auth: 'public' },
        schema: { hide: true },
        handler: async (request, reply) => {
          const box = await mailbox(deps.db);
          if (!String(request.headers.accept ?? '').includes('text/html')) return box;
          return reply.type('text/html; charset=utf-8').send(mailboxPage(box.data));
        },
      });
    }
  };

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function mailboxPage(rows: { to: string; channel: string; subject?: string; body: string; createdAt: string }[]) {
  const items = rows
    .map((r) => `<li><p><strong>${escape(r.to)}</strong> · ${escape(r.channel)} · <time>${escape(r.createdAt)}</time></p>${r.subject ? `<h2>${escape(r.subject)}</h2>` : ''}<p>${escape(r.body)}</p></li>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Development mailbox</title><meta http-equiv="refresh" content="5"></head><body><main><h1>Development mailbox</h1><p>Messages of this development service (newest first; codes vanish when they expire).</p><ul>${items || '<li>No messages yet.</li>'}</ul></main></body></html>`;
}
