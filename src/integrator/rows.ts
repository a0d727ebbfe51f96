// A row of an import file on its way to a batch: where it came from (its line and its
// original content, for the failed-rows file), and the item it becomes or why it cannot.
// JSON Lines rows are items already; CSV rows are mapped in csv-mapping.ts. Shared by the
// CLI and the service's file imports (src/modules/imports).
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../http/limits.ts';
import { itemSchema, typesOf } from './item-schemas.ts';
import type { ImportKind, NodeRule } from './kinds.ts';
import { UsageError } from './settings.ts';

/** The formats an import file comes in (readers.ts reads them; failures.ts writes the failed rows back in the same one). */
export type Format = 'csv' | 'jsonl';

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

/**
 * The file as a whole cannot be read as the kind's rows (empty, an unknown column, no type
 * column): nothing of it is sent. The CLI reports it as a usage problem; the service as a
 * 400 naming the column.
 */
export class FileError extends UsageError {
  constructor(
    message: string,
    /** The column to blame, when one is. */
    readonly column?: string,
    /** The field-error code the service answers with. */
    readonly code: 'INVALID_VALUE' | 'REQUIRED' = 'INVALID_VALUE',
    /** Where the CLI's user reads more. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * How deep a row's own JSON (a JSON line, a JSON cell) may nest: a batch body's limit less
 * the levels its nodes wrap the item in, so an item that reaches the service fits that
 * limit; deeper values are refused before they are parsed into something no walk can end.
 */
export const MAX_ROW_DEPTH = MAX_JSON_DEPTH - 4;
export const nestsTooDeep = (text: string) => nestsDeeperThan(text, MAX_ROW_DEPTH);
const TOO_DEEP = `nests arrays and objects deeper than ${MAX_ROW_DEPTH} levels`;

/** Meta columns and fields (`_line`, `_error_code` of a failed-rows file) are never sent. */
export const isMeta = (name: string) => name.startsWith('_');

/** Items that are plain codes (`remove.internalCodes` of promotions), not objects. */
export function takesCodes(kind: ImportKind, rule: NodeRule): boolean {
  return 'node' in rule && typesOf(itemSchema(kind.body, rule.node)).has('string');
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
  if (nestsTooDeep(text)) return { line, original: text, error: { code: INVALID_ROW, message: TOO_DEEP } };
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

/** A problem the service names in a request by its JSON Pointer (a 402's `errors`, or the validator's). */
export interface PointedProblem {
  pointer: string;
  code: string;
  message: string;
}

/** The items of one node's list (`/upsert/products/3/price`) that problems name, by index, each with its problems. */
export function blameRows(node: string[], count: number, problems: readonly PointedProblem[]): Map<number, RowError[]> {
  const prefix = `/${node.join('/')}/`;
  const blamed = new Map<number, RowError[]>();
  for (const e of problems) {
    if (!e.pointer.startsWith(prefix)) continue;
    const [index, ...field] = e.pointer.slice(prefix.length).split('/');
    const i = Number(index);
    if (!Number.isInteger(i) || i < 0 || i >= count) continue;
    blamed.set(i, [...(blamed.get(i) ?? []), { code: e.code, field: field.join('/') || undefined, message: e.message }]);
  }
  return blamed;
}

/** One problem keeps its code; several take the API's umbrella code (docs/conventions.md). */
export function combine(errors: RowError[]): RowError {
  if (errors.length === 1) {
    const [e] = errors as [RowError];
    return { ...e, message: e.field ? `${e.field}: ${e.message}` : e.message };
  }
  const fields = [...new Set(errors.map((e) => e.field).filter(Boolean))];
  return {
    code: 'BATCH_VALIDATION_FAILED',
    field: fields.join(' ') || undefined,
    message: errors.map((e) => `${e.field ? `${e.field}: ` : ''}${e.message} (${e.code})`).join('; '),
  };
}
