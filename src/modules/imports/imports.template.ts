// A template per import kind (README.md, "Templates"; issue 34): the header row and one
// example row of a CSV that uploads as that kind, made from the kind's declared body (the
// same schema the mapping reads cells with, src/integrator/item-schemas.ts), so a column
// the API adds or renames is in the template the moment it is in the importer. For a
// person in Spanish or Portuguese it is written as their spreadsheet writes: a byte-order
// mark, `;` between cells, a decimal comma, `sí`/`sim`.
import { alternatives, itemSchema, typesOf, type JsonSchema } from '../../integrator/item-schemas.ts';
import { nodesOf, type ImportKind } from '../../integrator/kinds.ts';
import type { Language } from './imports.words.ts';

interface Column {
  name: string;
  schema: JsonSchema;
}

/** The columns of a node's item: a field, or `a.b` for each field of an object field (as the mapping reads them). */
function columnsOf(schema: JsonSchema, prefix = ''): Column[] {
  const object = alternatives(schema).find((s) => s.properties);
  if (!object) return [{ name: prefix.replace(/\.$/, '') || 'internalCode', schema }];
  return Object.entries(object.properties!).flatMap(([name, field]) => {
    const types = typesOf(field);
    const nested = alternatives(field).find((s) => s.properties);
    if (types.has('object') && nested && !types.has('array')) return columnsOf(field, `${prefix}${name}.`);
    return [{ name: `${prefix}${name}`, schema: field }];
  });
}

const WORDS = {
  yes: { es: 'sí', 'pt-BR': 'sim', en: 'yes' },
  name: { es: 'Nombre de ejemplo', 'pt-BR': 'Nome de exemplo', en: 'Example name' },
  text: { es: 'texto', 'pt-BR': 'texto', en: 'text' },
} as const;

/** One example cell for a column, by its type (and a few names): what a person would type there. */
function example(column: Column, language: Language, commas: boolean): string {
  const { name, schema } = column;
  const types = typesOf(schema);
  const leaf = name.split('.').at(-1)!;
  const constants = alternatives(schema).flatMap((s) => ('const' in s ? [String((s as { const: unknown }).const)] : 'enum' in s ? ((s as { enum: unknown[] }).enum ?? []).map(String) : []));
  if (types.has('array')) {
    const list = alternatives(schema).find((s) => s.items);
    if (!list?.items || typesOf(list.items).has('object')) return '';
    const values = alternatives(list.items).flatMap((s) => ('const' in s ? [String((s as { const: unknown }).const)] : 'enum' in s ? ((s as { enum: unknown[] }).enum ?? []).map(String) : []));
    return values.length > 0 ? values[0]! : 'COD-1|COD-2';
  }
  if (types.has('object')) return '';
  if (types.has('boolean')) return WORDS.yes[language];
  if (types.has('integer')) return '12';
  if (types.has('number')) return commas ? '12,5' : '12.5';
  if (constants.length > 0) return constants[0]!;
  const format = alternatives(schema).map((s) => (s as { format?: string }).format).find(Boolean);
  if (format === 'date' || leaf === 'start' || leaf === 'end') return '2026-01-31';
  if (format === 'email' || /email/i.test(leaf)) return 'compras@example.com';
  if (format === 'uri' || /image|url/i.test(leaf)) return 'https://example.com/imagen.jpg';
  if (/phone/i.test(leaf)) return '+573001234567';
  if (/code$/i.test(leaf)) return 'COD-1';
  if (/name$/i.test(leaf)) return WORDS.name[language];
  return WORDS.text[language];
}

/**
 * The kind's template: the columns of every node its upload writes (promotions: the type
 * column, then every type's columns), one example row of its first node, as CSV text with
 * a byte-order mark; `;` and a decimal comma for Spanish and Portuguese, `,` for English.
 */
export function importTemplate(kind: ImportKind, language: Language) {
  const rule = kind.write;
  const commas = language !== 'en';
  const delimiter = commas ? ';' : ',';
  const typeField = 'typeField' in rule ? rule.typeField : undefined;
  const nodes = nodesOf(rule).map((node) => columnsOf(itemSchema(kind.body, node)));
  const columns: Column[] = [];
  for (const column of nodes.flat()) if (!columns.some((c) => c.name === column.name)) columns.push(column);
  const first = new Set(nodes[0]!.map((c) => c.name));
  const header = [...(typeField ? [typeField] : []), ...columns.map((c) => c.name)];
  const row = [
    ...(typeField && 'byType' in rule ? [Object.keys(rule.byType)[0]!] : []),
    ...columns.map((c) => (first.has(c.name) ? example(c, language, commas) : '')),
  ];
  // Quoted only where a cell needs it, as a spreadsheet writes: `12,5` stays bare between `;`.
  const line = (cells: string[]) => cells.map((c) => (c.includes(delimiter) || /["\r\n]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(delimiter) + '\n';
  return { fileName: `${kind.name}.template.csv`, text: `\uFEFF${line(header)}${line(row)}` };
}
