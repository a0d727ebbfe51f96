// CSV columns to JSON items (the convention is documented in README.md):
//
// - a column is a field of the item; `a.b` is the field `b` of the object `a`
//   (`settings.dropSize`, `bonusTierData.quantityRequired`, `products.internalCode`);
// - a cell becomes the type the API schema gives the field: numbers, booleans
//   (true/false, yes/no, 1/0), strings; an object or list field takes a JSON cell
//   (`[{"units":1,"name":"Unit"}]`), and a list of codes or URLs also `A|B|C`;
// - an empty cell leaves the field out (a store upsert then keeps its current value);
// - columns starting with `_` are ignored (a failed-rows file can be fixed and imported as is);
// - any other column the API does not know stops the import before anything is sent.
//
// A cell that does not convert (`abc` for a price) is sent as it is: the service refuses it
// with a pointer to the field, which the importer reports on the row. Only what cannot be
// sent at all (bad JSON in a cell) fails the row here.
import { alternatives, itemSchema, property, typesOf, type JsonSchema } from './item-schemas.ts';
import type { ImportKind, NodeRule } from './kinds.ts';
import { nodesOf } from './kinds.ts';
import { FileError, INVALID_ROW, isMeta, MAX_ROW_DEPTH, nestsTooDeep, nodeFor, takesCodes, type RowError, type SourceRow } from './rows.ts';

interface Column {
  index: number;
  name: string;
  path: string[];
  schema: JsonSchema;
}

export class CsvMapper {
  private readonly plans = new Map<string, Column[]>();
  private readonly typeIndex: number;
  private readonly codeIndex: number;

  constructor(
    private readonly kind: ImportKind,
    private readonly rule: NodeRule,
    private readonly header: string[],
  ) {
    this.typeIndex = 'typeField' in rule ? header.indexOf(rule.typeField) : -1;
    if ('typeField' in rule && this.typeIndex < 0) throw new FileError(`${kind.name} needs a ${rule.typeField} column (${Object.keys(rule.byType).join(', ')})`, rule.typeField, 'REQUIRED');
    this.codeIndex = takesCodes(kind, rule) ? header.indexOf('internalCode') : -1;
    if (takesCodes(kind, rule)) {
      if (this.codeIndex < 0) throw new FileError(`removing ${kind.name} needs an internalCode column`, 'internalCode', 'REQUIRED');
      return;
    }
    for (const node of nodesOf(rule)) this.plans.set(node.join('.'), this.plan(node));
    const known = new Set([...this.plans.values()].flat().map((c) => c.index));
    const unknown = header.filter((name, i) => i !== this.typeIndex && !isMeta(name) && name !== '' && !known.has(i));
    if (unknown.length > 0) throw new FileError(`unknown column(s) for ${kind.name}: ${unknown.join(', ')}`, unknown[0], 'INVALID_VALUE', 'see `surtido kinds`');
  }

  private plan(node: string[]): Column[] {
    const schema = itemSchema(this.kind.body, node);
    const columns: Column[] = [];
    this.header.forEach((name, index) => {
      if (index === this.typeIndex || isMeta(name) || name === '') return;
      const path = name.split('.');
      let leaf: JsonSchema | undefined = schema;
      for (const segment of path) leaf = leaf && property(leaf, segment);
      if (leaf) columns.push({ index, name, path, schema: leaf });
    });
    return columns;
  }

  row(line: number, cells: string[]): SourceRow {
    const original = cells;
    if (cells.length !== this.header.length) {
      // The cells are not repeated in the message: the row itself goes with it (the failed-rows file, the import's failures), and may be long.
      return { line, original, error: { code: INVALID_ROW, message: `${cells.length} cells where the header has ${this.header.length}` } };
    }
    if (this.codeIndex >= 0 && 'node' in this.rule) {
      const code = cells[this.codeIndex]!;
      if (code === '') return { line, original, error: { code: INVALID_ROW, field: 'internalCode', message: 'internalCode is empty' } };
      return { line, original, node: this.rule.node, item: code };
    }
    const target = nodeFor(this.rule, this.typeIndex >= 0 ? cells[this.typeIndex] : undefined);
    if ('error' in target) return { line, original, error: target.error };
    const columns = this.plans.get(target.node.join('.'))!;
    const known = new Set(columns.map((c) => c.index));
    const item: Record<string, unknown> = {};
    for (let index = 0; index < cells.length; index++) {
      const cell = cells[index]!;
      const name = this.header[index]!;
      if (cell === '' || index === this.typeIndex || isMeta(name) || name === '') continue;
      if (!known.has(index)) {
        return { line, original, error: { code: INVALID_ROW, field: name, message: `${name} is not a field of ${cells[this.typeIndex]} ${this.kind.name}` } };
      }
    }
    for (const column of columns) {
      const cell = cells[column.index]!;
      if (cell === '') continue;
      const value = convert(cell, column);
      if ('error' in value) return { line, original, error: value.error };
      const placed = place(item, column.path, value.value);
      if (placed) return { line, original, error: { code: INVALID_ROW, field: column.name, message: placed } };
    }
    return { line, original, node: target.node, item };
  }
}

function convert(cell: string, column: Column): { value: unknown } | { error: RowError } {
  const types = typesOf(column.schema);
  if (types.has('object') || types.has('array')) {
    if (/^\s*[[{]/.test(cell)) {
      if (nestsTooDeep(cell)) return { error: { code: INVALID_ROW, field: column.name, message: `${column.name} nests arrays and objects deeper than ${MAX_ROW_DEPTH} levels` } };
      try {
        return { value: JSON.parse(cell) };
      } catch (error) {
        return { error: { code: INVALID_ROW, field: column.name, message: `${column.name} is not valid JSON: ${(error as Error).message}` } };
      }
    }
    const list = alternatives(column.schema).find((s) => s.items);
    const itemTypes = list?.items ? typesOf(list.items) : new Set<string>();
    if (list && !itemTypes.has('object') && !itemTypes.has('array')) {
      return { value: cell.split('|').map((part) => scalar(part.trim(), itemTypes)) };
    }
    return { error: { code: INVALID_ROW, field: column.name, message: `${column.name} takes JSON (${types.has('array') ? 'a list' : 'an object'}), or use dotted columns` } };
  }
  return { value: scalar(cell, types) };
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Converts when the text is clearly of the type; otherwise the text goes as it is (see above). */
function scalar(text: string, types: Set<string>): unknown {
  if ((types.has('number') || types.has('integer')) && NUMBER.test(text.trim())) return Number(text.trim());
  if (types.has('boolean')) {
    if (/^(true|yes|1)$/i.test(text.trim())) return true;
    if (/^(false|no|0)$/i.test(text.trim())) return false;
  }
  return text;
}

/** Sets `item[path]`, building the objects on the way; answers a problem when one is in the way. */
function place(item: Record<string, unknown>, path: string[], value: unknown): string | undefined {
  let target = item;
  for (const segment of path.slice(0, -1)) {
    const existing = target[segment];
    if (existing === undefined) target = target[segment] = {};
    else if (typeof existing === 'object' && existing !== null && !Array.isArray(existing)) target = existing as Record<string, unknown>;
    else return `${path.join('.')} cannot be set inside ${segment}, which another column set to ${JSON.stringify(existing)}`;
  }
  target[path.at(-1)!] = value;
  return undefined;
}
