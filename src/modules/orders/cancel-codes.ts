// Why an order was cancelled, from a list each supplier keeps: `STORE` codes for
// cancellations by stores, `SUPPLIER` codes for the supplier's own.
import type { Kysely } from 'kysely';
import type { CancelCode, DB } from '../../db/types.ts';
import { fieldError } from '../../lib/errors.ts';
import { findCancelCodes, setCancelCodes } from '../suppliers/suppliers.repository.ts';
import { requireSupplier } from '../suppliers/suppliers.service.ts';
import type { Language, WordsByCode } from '../messages/messages.templates.ts';

/** Every supplier starts with these until the admin API replaces them. */
export const DEFAULT_CANCEL_CODES: readonly CancelCode[] = [
  { code: 'NEW_ORDER', reason: 'I will place a new order', usage: 'STORE' },
  { code: 'WRONG_PRODUCTS', reason: 'I chose the wrong products or quantities', usage: 'STORE' },
  { code: 'NO_LONGER_NEEDED', reason: 'I no longer need the order', usage: 'STORE' },
  { code: 'DELIVERY_TOO_LATE', reason: 'The delivery date does not suit me', usage: 'STORE' },
  { code: 'OUT_OF_STOCK', reason: 'The products are out of stock', usage: 'SUPPLIER' },
  { code: 'CREDIT_REFUSED', reason: "The store's credit was refused", usage: 'SUPPLIER' },
  { code: 'ADDRESS_NOT_SERVED', reason: 'We do not deliver to this address', usage: 'SUPPLIER' },
  { code: 'STORE_REQUEST', reason: 'The store asked to cancel', usage: 'SUPPLIER' },
];

/**
 * The default codes' reasons in the languages a store buyer reads (issue 34). The supplier
 * API keeps answering the stored (English) reason: it is the contract's recorded answer.
 */
const DEFAULT_REASONS: WordsByCode = {
  NEW_ORDER: { es: 'Voy a hacer un pedido nuevo', 'pt-BR': 'Vou fazer um novo pedido', en: 'I will place a new order' },
  WRONG_PRODUCTS: { es: 'Elegí mal los productos o las cantidades', 'pt-BR': 'Escolhi os produtos ou as quantidades errados', en: 'I chose the wrong products or quantities' },
  NO_LONGER_NEEDED: { es: 'Ya no necesito el pedido', 'pt-BR': 'Não preciso mais do pedido', en: 'I no longer need the order' },
  DELIVERY_TOO_LATE: { es: 'La fecha de entrega no me sirve', 'pt-BR': 'A data de entrega não me serve', en: 'The delivery date does not suit me' },
  OUT_OF_STOCK: { es: 'Los productos están agotados', 'pt-BR': 'Os produtos estão esgotados', en: 'The products are out of stock' },
  CREDIT_REFUSED: { es: 'El crédito de la tienda fue rechazado', 'pt-BR': 'O crédito da loja foi recusado', en: "The store's credit was refused" },
  ADDRESS_NOT_SERVED: { es: 'No entregamos en esta dirección', 'pt-BR': 'Não entregamos neste endereço', en: 'We do not deliver to this address' },
  STORE_REQUEST: { es: 'La tienda pidió cancelar', 'pt-BR': 'A loja pediu para cancelar', en: 'The store asked to cancel' },
};

/**
 * A cancel reason in the buyer's language: a default code still carrying its default
 * (English) reason is translated; a reason the supplier wrote (PUT /admin/suppliers/{id}/cancel-codes)
 * is its own words, in the language it chose, and is answered as written.
 */
export function reasonIn(language: Language, code: string, reason: string): string {
  const standard = DEFAULT_CANCEL_CODES.find((c) => c.code === code && c.reason === reason);
  return standard ? (DEFAULT_REASONS[code]?.[language] ?? reason) : reason;
}

export async function cancelCodes(db: Kysely<DB>, supplierId: number): Promise<readonly CancelCode[]> {
  return (await findCancelCodes(db, supplierId)) ?? DEFAULT_CANCEL_CODES;
}

export async function replaceCancelCodes(db: Kysely<DB>, supplierId: number, codes: CancelCode[]) {
  await requireSupplier(db, supplierId);
  const seen = new Set<string>();
  codes.forEach((c, i) => {
    const key = `${c.usage}/${c.code}`;
    if (seen.has(key)) throw fieldError('ALREADY_EXISTS', `/${i}/code`, `${c.code} is listed twice for ${c.usage}`);
    seen.add(key);
  });
  await setCancelCodes(db, supplierId, codes);
  return codes;
}

/**
 * 400 INVALID_CANCEL_CODE for a code that is not one of that side's: the message lists
 * the codes the caller may use, so a client can recover without looking them up first.
 */
export function unknownCancelCode(codes: readonly CancelCode[], code: string, usage: 'STORE' | 'SUPPLIER', pointer = '/cancelCode') {
  const accepted = codes.filter((c) => c.usage === usage).map((c) => c.code);
  const side = usage === 'STORE' ? 'store' : 'supplier';
  const message =
    accepted.length === 0
      ? `${code} is not a cancellation code for the ${side}, which has none`
      : `${code} is not a cancellation code for the ${side}; use one of: ${accepted.join(', ')}`;
  return fieldError('INVALID_CANCEL_CODE', pointer, message);
}

/** The code's entry for that side, or 400 INVALID_CANCEL_CODE. */
export async function requireCancelCode(db: Kysely<DB>, supplierId: number, code: string, usage: 'STORE' | 'SUPPLIER', pointer = '/cancelCode') {
  const codes = await cancelCodes(db, supplierId);
  const found = codes.find((c) => c.code === code && c.usage === usage);
  if (!found) throw unknownCancelCode(codes, code, usage, pointer);
  return found;
}
