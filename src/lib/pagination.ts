import { fieldError } from './errors.ts';

/** A list page as every list endpoint answers it (docs/conventions.md). */
export function page<T>(data: T[], total: number, pageNo: number, take: number) {
  return { data, page: pageNo, take, total, totalPages: Math.ceil(total / take) };
}

/**
 * Keyset paging for lists too long to page by offset (a price list's 50,000 entries): the
 * cursor names the last row of a page by its sort key, and the next page starts after it
 * through an index, at the same cost at any depth. Opaque to clients (base64url JSON), so
 * its content may change; a cursor that does not decode is a 400 naming the field.
 */
export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor<K extends readonly ('string' | 'number')[]>(
  text: string,
  types: K,
  pointer: string,
): { [I in keyof K]: K[I] extends 'string' ? string : number } {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  if (!Array.isArray(key) || key.length !== types.length || key.some((v, i) => typeof v !== types[i])) {
    throw fieldError('INVALID_FORMAT', pointer, 'not a cursor this list gave out: send the `next` of a previous page');
  }
  return key as never;
}
