// Who opened a ticket or placed an order (issue 34), in words: a store user by the name the
// supplier registered, else by the last four digits of their phone, else by their email with
// its name hidden but the first letter; a seller by name; an order the ERP imported as such.
// A phone or an email is never shown whole here: these lines sit in lists read on a phone in
// a shop or a truck, and the last digits are enough to tell two people of a store apart.
import type { Order, Ticket } from '../lib/api.ts';
import type { Translate } from '../i18n.ts';

type Contact = NonNullable<Ticket['openedBy']>;

const lastDigits = (phone: string) => phone.replace(/\D/g, '').slice(-4);

function maskedEmail(email: string) {
  const at = email.lastIndexOf('@');
  return at > 0 ? `${email[0]}…${email.slice(at)}` : '…';
}

/** A store user as the supplier registered them, in words that do not show their phone or email whole. */
export function contactText(t: Translate, contact: Contact): string {
  if (contact.name?.trim()) return contact.name;
  if (contact.phone) return t('person.phoneEnding', { digits: lastDigits(contact.phone) });
  if (contact.email) return maskedEmail(contact.email);
  return '—';
}

/** Who opened the ticket; a ticket read without names (a change's answer) says nothing. */
export function ticketPerson(t: Translate, ticket: Ticket): string | undefined {
  if (ticket.openedBy === undefined) return undefined;
  return ticket.openedBy === null ? t('person.gone') : contactText(t, ticket.openedBy);
}

/** Who placed the order: its seller (`full`: with the seller's code), the ERP, or the store user as they were then. */
export function orderPerson(t: Translate, order: Order, full = false): string {
  if (order.placedBy) return full ? t('order.placedBySeller', { name: order.placedBy.name, code: order.placedBy.sellerInternalCode }) : t('person.seller', { name: order.placedBy.name });
  if (order.channel === 'ERP_IMPORT') return t('order.imported');
  return order.buyer.user ? contactText(t, order.buyer.user) : '—';
}
