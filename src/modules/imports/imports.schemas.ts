import { Type } from 'typebox';
import { FILE_NAME_PATTERN, Nullable, Page, PageQuery, Timestamp } from '../../lib/schemas.ts';
import { IMPORT_KINDS } from '../../integrator/kinds.ts';

export const ImportKindName = Type.Union(
  IMPORT_KINDS.map((k) => Type.Literal(k.name)),
  { description: "an import kind (GET /import/kinds; the integrator CLI's kinds)" },
);

export const IMPORT_MEDIA_TYPES = ['text/csv', 'application/x-ndjson', 'application/jsonl'] as const;

/** The file, as the raw body: CSV or JSON Lines (OpenAPI: one entry per media type). */
export const ImportFile = {
  content: Object.fromEntries(
    IMPORT_MEDIA_TYPES.map((type) => [
      type,
      { schema: Type.String({ description: type === 'text/csv' ? 'a CSV file: a header row, then one item per row' : 'JSON Lines: one item per line' }) },
    ]),
  ),
};

export const UploadQuery = Type.Object({
  format: Type.Optional(
    Type.Union([Type.Literal('csv'), Type.Literal('jsonl')], { description: "the file's format; by default the body's media type says (text/csv, or application/x-ndjson / application/jsonl)" }),
  ),
  remove: Type.Boolean({ default: false, description: "send the rows to the kind's remove node (kinds that have one: GET /import/kinds)" }),
  name: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, pattern: FILE_NAME_PATTERN, description: "the file's name, shown with the import and naming its failed-rows file (default: the kind and format)" }),
  ),
  delimiter: Type.Optional(Type.Union([Type.Literal(','), Type.Literal(';'), Type.Literal('\t'), Type.Literal('|')], { description: 'CSV: the cell delimiter (default: the one of , ; tab | found most often on the header line, outside quotes; , when none is)' })),
});

export const ImportParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const TemplateParams = Type.Object({ kind: ImportKindName });

export const ImportTemplate = {
  description: "the kind's CSV template: a byte-order mark, the header row and one example row (README: Templates)",
  content: { 'text/csv': { schema: Type.String() } },
};

export const ImportListQuery = Type.Object({ kind: Type.Optional(ImportKindName), ...PageQuery });

const Status = Type.Union([Type.Literal('processing'), Type.Literal('completed'), Type.Literal('completed_with_failures')], {
  description: 'processing while any of its batches is; then completed, or completed_with_failures when any row failed (refused before sending or when applied)',
});

export const Import = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: Type.String(),
  remove: Type.Boolean(),
  format: Type.Union([Type.Literal('csv'), Type.Literal('jsonl')]),
  fileName: Type.String(),
  createdAt: Timestamp(),
  uploadedBy: Type.Object({
    kind: Type.Union([Type.Literal('person'), Type.Literal('credential')]),
    id: Type.String({ description: "a console member's email, or a credential's clientId" }),
  }),
  status: Status,
  counts: Type.Object(
    {
      rowsRead: Type.Integer(),
      refused: Type.Integer({ description: 'rows refused before sending (not an item of the kind, or refused by its validation)' }),
      sent: Type.Integer({ description: 'items sent in batches' }),
      applied: Type.Integer({ description: 'items their batches completed' }),
      failedWhenApplied: Type.Integer({ description: 'items their batches failed' }),
      failed: Type.Integer({ description: 'every row not applied: refused + failedWhenApplied' }),
      pending: Type.Integer({ description: 'items sent and not processed yet' }),
    },
    { description: 'rowsRead = refused + sent; sent = applied + failedWhenApplied + pending' },
  ),
  batchIds: Type.Array(Type.String({ format: 'uuid' }), { description: 'its batches, ordinary ones (GET /batch/{uuid}/detail), in submission order' }),
});

export const ImportPage = Page(Import);

export const FailuresQuery = Type.Object({ ...PageQuery });

export const FailedRow = Type.Object({
  line: Type.Integer({ description: "the row's line in the file (for a CSV record over several lines, its last)" }),
  values: Nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'the row as read: CSV cells by column, or the JSON line; null when it was not a JSON object' })),
  text: Type.String({ description: 'the row as text: a CSV line, or the JSON line' }),
  problems: Type.Array(
    Type.Object({
      code: Type.String({ description: 'INVALID_ROW, a validation code (REQUIRED, OUT_OF_RANGE...), or the code the batch detail gives (UNKNOWN_PRODUCT...)' }),
      field: Nullable(Type.String({ description: 'the field to blame, as a path in the item' })),
      message: Type.String(),
    }),
  ),
});

export const FailuresPage = Page(FailedRow);

export const FailedRowsFile = {
  description: "exactly the failed rows, in line order, in the file's format (CSV with its header, or JSON Lines), each with _line, _error_code, _error_field and _error_message: fix them and upload the file again",
  content: {
    'text/csv': { schema: Type.String() },
    'application/x-ndjson': { schema: Type.String() },
  },
};

const NodeColumns = Type.Object({
  node: Type.String({ description: 'the body node the rows go to, e.g. upsert.products' }),
  type: Nullable(Type.String({ description: 'the value of the type column that picks this node (promotions)' })),
  columns: Type.Array(Type.String(), { description: 'name* required; [JSON] takes a JSON cell; [list] a JSON list or A|B|C; a.b fills the object a' }),
});

export const ImportKindInfo = Type.Object({
  name: Type.String(),
  endpoint: Type.String({ description: 'the batch endpoint its rows are sent through' }),
  scope: Type.String({ description: 'the scope uploading it needs (its batch endpoint’s)' }),
  summary: Type.String(),
  typeColumn: Nullable(Type.String({ description: 'the column whose value picks each row’s node (promotions)' })),
  write: Type.Array(NodeColumns),
  remove: Nullable(Type.Array(NodeColumns, { description: 'with remove=true; null when the kind has no remove' })),
});
