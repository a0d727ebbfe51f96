// A row of an import file on its way to a batch: where it came from (its line and its
// original content, for the failed-rows file), and the item it becomes or why it cannot.
// JSON Lines rows are items already; CSV rows are mapped in csv-mapping.ts.
import { itemSchema, typesOf } from './item-schemas.ts';
import type { ImportKind, NodeRule } from './kinds.ts';

/** The code of a row refused before sending (not JSON, a bad cell, an unknown type). */
export const INVALID_ROW = 'INVALID_ROW';

export interface RowError {
  code: string;
  /** The field, as a path in the item (`price`, `addresses/0/city`), when one is to blame. */
  field?: string;
  message: string;
}

export interface SourceRow {
  /** The row's line in the file (for a CSV record over several lines, its last). */
  line: number;
  /** As read: the CSV cells, or the line's JSON value, or the line's text when it is not JSON. */
  original: unknown;
  node?: string[];
  item?: unknown;
  error?: RowError;
}

/** Meta columns and fields (`_line`, `_error_code` of a failed-rows file) are never sent. */
export const isMeta = (name: string) => name.startsWith('_');

/** Items that are plain codes (`remove.internalCodes` of promotions), not objects. */
export function takesCodes(kind: ImportKind, rule: NodeRule): boolean {
  return 'node' in rule && typesOf(itemSchema(kind.endpoint, rule.node)).has('string');
}

/** The node a row goes to under the rule, from its type field when the rule needs one. */
export function nodeFor(rule: NodeRule, type: unknown): { node: string[] } | { error: RowError } {
  if ('node' in rule) return { node: rule.node };
  const node = typeof type === 'string' ? rule.byType[type] : undefined;
  if (node) return { node };
  return {
    error: {
      code: INVALID_ROW,
      field: rule.typeField,
      message: `${rule.typeField} must be one of ${Object.keys(rule.byType).join(', ')}; got ${JSON.stringify(type ?? null)}`,
    },
  };
}

export function jsonLineRow(kind: ImportKind, rule: NodeRule, line: number, text: string): SourceRow {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { line, original: text, error: { code: INVALID_ROW, message: `not valid JSON: ${(error as Error).message}` } };
  }
  if (takesCodes(kind, rule) && 'node' in rule) {
    const code = typeof value === 'string' ? value : (value as { internalCode?: unknown } | null)?.internalCode;
    if (typeof code === 'string') return { line, original: value, node: rule.node, item: code };
    return { line, original: value, error: { code: INVALID_ROW, message: 'each line must be a code ("P-1") or an object with internalCode' } };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { line, original: value, error: { code: INVALID_ROW, message: 'each line must be a JSON object' } };
  }
  const item = Object.fromEntries(Object.entries(value).filter(([name]) => !isMeta(name)));
  if ('node' in rule) return { line, original: value, node: rule.node, item };
  const target = nodeFor(rule, item[rule.typeField]);
  if ('error' in target) return { line, original: value, error: target.error };
  delete item[rule.typeField];
  return { line, original: value, node: target.node, item };
}
