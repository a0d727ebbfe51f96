// Files as spreadsheets write them (README.md, "Files from a spreadsheet"; issue 34): Excel
// in Spanish (Colombia) or Portuguese saves "CSV UTF-8" with a byte-order mark, `;` between
// cells, decimal commas and its own words for true and false. The integrator's mapping
// (src/integrator/csv-mapping.ts) reads what scripts write; this reads what is left of a
// spreadsheet's habits, from the same declared body schema, after the mapping:
// - the separator is found on the header line when the upload names none;
// - a boolean field takes sí/si/no, sim/não/nao, verdadero/falso, verdadeiro (and the
//   mapping's true/false, yes/no, 1/0);
// - a number field takes a decimal comma (`12,5`, `1.234,5`) in a file whose separator is
//   not a comma (a comma-separated file is a locale whose decimal mark is the point).
// The row as read (`original`) is left as it was, so the failed-rows file repeats the cells.
import { itemSchema, property, typesOf, type JsonSchema } from '../../integrator/item-schemas.ts';
import type { ImportKind } from '../../integrator/kinds.ts';
import { isMeta, type SourceRow } from '../../integrator/rows.ts';

/** The uploaded file as the route read it: its bytes, in the pieces they arrived in (never one string, never copied). */
export interface UploadedFile {
  chunks: Buffer[];
  bytes: number;
}

/** The separators an upload may use (UploadQuery's `delimiter`). */
export const DELIMITERS = [',', ';', '\t', '|'] as const;

/** Bytes of the file looked at for its header line. */
const HEADER_BYTES = 64 * 1024;

/**
 * The separator of a CSV file, from its header line: of `,` `;` tab `|`, the one found most
 * often outside quotes (ties in that order); `,` when none is. A header of one column has
 * none, and then nothing else in the file can tell.
 */
export function detectDelimiter(file: UploadedFile): string {
  const head: Buffer[] = [];
  let bytes = 0;
  for (const chunk of file.chunks) {
    head.push(chunk);
    bytes += chunk.length;
    if (bytes >= HEADER_BYTES || chunk.includes(0x0a)) break;
  }
  const text = Buffer.concat(head).subarray(0, HEADER_BYTES).toString('utf8').replace(/^\uFEFF/, '');
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best = ',';
  for (const d of DELIMITERS) if (counts.get(d)! > counts.get(best)!) best = d;
  return best;
}

const TRUE = new Set(['true', 'yes', '1', 'si', 'sí', 'verdadero', 'sim', 'verdadeiro']);
const FALSE = new Set(['false', 'no', '0', 'falso', 'não', 'nao']);

/** `sí` → true, `não` → false; undefined for any other word. */
export function spreadsheetBoolean(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  return TRUE.has(word) ? true : FALSE.has(word) ? false : undefined;
}

const DECIMAL_COMMA = /^[+-]?(\d+|\d{1,3}(\.\d{3})+),\d+$/;

/** `12,5` → 12.5, `1.234,5` → 1234.5; undefined for anything else. */
export function decimalComma(text: string): number | undefined {
  const t = text.trim();
  return DECIMAL_COMMA.test(t) ? Number(t.replaceAll('.', '').replace(',', '.')) : undefined;
}

interface Leaf {
  path: string[];
  types: Set<string>;
}

/**
 * Reads a CSV's rows with a spreadsheet's words and numbers (above): each row the mapping
 * left a text in a boolean or number field gets the value instead. Rows the mapping
 * refused, and JSON Lines, pass as they are.
 */
export function spreadsheetRows(kind: ImportKind, header: string[], delimiter: string, rows: AsyncIterable<SourceRow>): AsyncIterable<SourceRow> {
  const leaves = new Map<string, Leaf[]>();
  const leavesOf = (node: string[]) => {
    const key = node.join('.');
    let found = leaves.get(key);
    if (!found) {
      const schema = itemSchema(kind.body, node);
      found = header.flatMap((name) => {
        if (isMeta(name) || name === '') return [];
        const path = name.split('.');
        let leaf: JsonSchema | undefined = schema;
        for (const segment of path) leaf = leaf && property(leaf, segment);
        const types = leaf ? typesOf(leaf) : new Set<string>();
        return types.has('boolean') || types.has('number') || types.has('integer') ? [{ path, types }] : [];
      });
      leaves.set(key, found);
    }
    return found;
  };
  const commas = delimiter !== ',';
  return {
    async *[Symbol.asyncIterator]() {
      for await (const row of rows) {
        if (row.node && row.item && typeof row.item === 'object') {
          for (const { path, types } of leavesOf(row.node)) {
            let parent = row.item as Record<string, unknown>;
            for (const segment of path.slice(0, -1)) parent = (parent?.[segment] ?? undefined) as Record<string, unknown>;
            const name = path.at(-1)!;
            const value = parent?.[name];
            if (typeof value !== 'string') continue;
            const read = (types.has('boolean') ? spreadsheetBoolean(value) : undefined) ?? (commas && (types.has('number') || types.has('integer')) ? decimalComma(value) : undefined);
            if (read !== undefined) parent[name] = read;
          }
        }
        yield row;
      }
    },
  };
}
