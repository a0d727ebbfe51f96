// The language the service words a store buyer's answers in (README: "The buyer's
// language"): the first language of the request's Accept-Language the service speaks
// (the shop sends the language it shows; a browser's own header otherwise); else none: a
// client that asks for none gets the words as stored, today's answers (the default cancel
// reasons in English), so an API client that never asked sees nothing change, even once
// its person saved a language (that choice words their messages, ../messages).
import type { Language } from '../messages/messages.templates.ts';
import { reasonIn } from '../orders/cancel-codes.ts';

/** The buyer's language for this request: its Accept-Language; undefined when it names none (words as stored). */
export { acceptedLanguage as buyerLanguage } from '../messages/messages.templates.ts';

/** An order as a buyer reads it: its cancellation's reason in the buyer's language (reasonIn). */
export function wordedOrder<O extends { cancellation: { code: string; reason: string } | null }>(order: O, language: Language | undefined): O {
  if (!order.cancellation || !language) return order;
  return { ...order, cancellation: { ...order.cancellation, reason: reasonIn(language, order.cancellation.code, order.cancellation.reason) } };
}
