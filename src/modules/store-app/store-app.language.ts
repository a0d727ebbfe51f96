// The language the service words a store buyer's answers in (README: "The buyer's
// language"): the first language of the request's Accept-Language the service speaks
// (the shop sends the language it shows; a browser's own header otherwise); else the
// language the person saved (PUT /app/me/preferences), as their messages use; else none:
// a client that says nothing gets the words as stored, today's answers (the default
// cancel reasons in English), so an API client that never asked sees nothing change.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';
import { acceptedLanguage, LANGUAGES, type Language } from '../messages/messages.templates.ts';
import { preferencesOf } from '../messages/messages.repository.ts';
import { reasonIn } from '../orders/cancel-codes.ts';

const saved = (stored: string | undefined) => LANGUAGES.find((l) => l === stored);

/** The buyer's language for this request: Accept-Language, else the saved one; undefined when neither says (words as stored). */
export async function buyerLanguage(db: Kysely<DB>, personId: number, acceptLanguage: string | undefined): Promise<Language | undefined> {
  return acceptedLanguage(acceptLanguage) ?? saved((await preferencesOf(db, personId))?.language);
}

/** An order as a buyer reads it: its cancellation's reason in the buyer's language (reasonIn). */
export function wordedOrder<O extends { cancellation: { code: string; reason: string } | null }>(order: O, language: Language | undefined): O {
  if (!order.cancellation || !language) return order;
  return { ...order, cancellation: { ...order.cancellation, reason: reasonIn(language, order.cancellation.code, order.cancellation.reason) } };
}
