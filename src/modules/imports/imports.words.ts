// What a person reads of an import, in their language (README.md, "In the member's
// language"; issue 34): the failed-rows file's reasons, and each kind's template. The
// language is the request's Accept-Language (the console sends the one it shows); a request
// that names none gets the file as before (English reasons, no byte-order mark), which
// scripts and the CLI's round trip read.
import { acceptedLanguage, type Language, type Words, type WordsByCode } from '../messages/messages.templates.ts';
import type { RowError } from '../../integrator/rows.ts';

export { acceptedLanguage as requestLanguage };
export type { Language };

/** A reason's words by its code: the console's own (web/console/words.ts, importReason and batchReason). */
const REASONS: WordsByCode = {
  INVALID_ROW: { es: 'La fila no se pudo leer como un ítem.', 'pt-BR': 'A linha não pôde ser lida como um item.', en: 'The row could not be read as an item.' },
  REQUIRED: { es: 'Falta un dato obligatorio.', 'pt-BR': 'Falta um dado obrigatório.', en: 'A required value is missing.' },
  INVALID_TYPE: { es: 'Un dato tiene el tipo equivocado.', 'pt-BR': 'Um dado tem o tipo errado.', en: 'A value has the wrong type.' },
  INVALID_FORMAT: { es: 'Un dato tiene el formato equivocado.', 'pt-BR': 'Um dado tem o formato errado.', en: 'A value has the wrong format.' },
  INVALID_LENGTH: { es: 'Un dato es demasiado corto o demasiado largo.', 'pt-BR': 'Um dado é curto ou longo demais.', en: 'A value is too short or too long.' },
  OUT_OF_RANGE: { es: 'Un número está fuera del rango permitido.', 'pt-BR': 'Um número está fora do intervalo permitido.', en: 'A number is out of the allowed range.' },
  INVALID_PRECISION: { es: 'Un número tiene demasiados decimales.', 'pt-BR': 'Um número tem decimais demais.', en: 'A number has too many decimals.' },
  INVALID_VALUE: { es: 'Un dato tiene un valor que no se permite.', 'pt-BR': 'Um dado tem um valor não permitido.', en: 'A value is not allowed.' },
  UNKNOWN_PRODUCT: { es: 'El producto no existe.', 'pt-BR': 'O produto não existe.', en: 'The product does not exist.' },
  UNKNOWN_BRAND: { es: 'La marca no existe.', 'pt-BR': 'A marca não existe.', en: 'The brand does not exist.' },
  UNKNOWN_CATEGORY: { es: 'La categoría no existe.', 'pt-BR': 'A categoria não existe.', en: 'The category does not exist.' },
  UNKNOWN_PRICE_LIST: { es: 'La lista de precios no existe.', 'pt-BR': 'A lista de preços não existe.', en: 'The price list does not exist.' },
  UNKNOWN_STORE: { es: 'La tienda no existe.', 'pt-BR': 'A loja não existe.', en: 'The store does not exist.' },
  UNKNOWN_GROUPER: { es: 'El agrupador no existe.', 'pt-BR': 'O agrupador não existe.', en: 'The grouper does not exist.' },
  UNKNOWN_STOCK_GROUPER: { es: 'El agrupador de inventario no existe.', 'pt-BR': 'O agrupador de estoque não existe.', en: 'The stock grouper does not exist.' },
  VALIDATION_FAILED: { es: 'Los datos del ítem no son válidos.', 'pt-BR': 'Os dados do item não são válidos.', en: "The item's data is not valid." },
  NOT_FOUND: { es: 'Lo que nombra no existe.', 'pt-BR': 'O que ele nomeia não existe.', en: 'What it names does not exist.' },
  INVALID_ORDER_TRANSITION: { es: 'El estado del pedido no permite esto.', 'pt-BR': 'O status do pedido não permite isto.', en: "The order's status does not allow this." },
  QUANTITY_EXCEEDED: { es: 'Más de lo que el pedido permite.', 'pt-BR': 'Mais do que o pedido permite.', en: 'More than the order allows.' },
  UNKNOWN_ORDER_LINE: { es: 'El pedido no tiene ese producto y tamaño.', 'pt-BR': 'O pedido não tem esse produto e tamanho.', en: 'The order has no such product and size.' },
  INVALID_CANCEL_CODE: { es: 'El motivo de cancelación no existe.', 'pt-BR': 'O motivo de cancelamento não existe.', en: 'The cancellation reason does not exist.' },
  PROCESSING_ERROR: { es: 'Falló al procesarse varias veces: envíalo de nuevo.', 'pt-BR': 'Falhou ao ser processado várias vezes: envie de novo.', en: 'It failed to process several times: send it again.' },
};

const FALLBACK: Words = { es: 'La fila no se aplicó.', 'pt-BR': 'A linha não foi aplicada.', en: 'The row was not applied.' };
const FIELD: Words = { es: 'Campo', 'pt-BR': 'Campo', en: 'Field' };
const DETAIL: Words = { es: 'Detalle', 'pt-BR': 'Detalhe', en: 'Detail' };

/** One problem in the language: its words, the field, then the service's own message (English, as the batch detail says it). */
export function reasonIn(language: Language, problem: RowError): string {
  const words = REASONS[problem.code]?.[language] ?? FALLBACK[language];
  return `${words}${problem.field ? ` ${FIELD[language]}: ${problem.field}.` : ''} ${DETAIL[language]}: ${problem.message}`;
}
