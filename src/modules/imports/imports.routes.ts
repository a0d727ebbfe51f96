// File imports (README.md): one upload route per import kind (POST /import/{kind}), each
// with the scope of the batch endpoint its rows go through, and the reads of imports. The
// upload's body is the file itself (CSV or JSON Lines), taken by this plugin's own
// content-type parser as the bytes it arrives in: nothing else reaches these routes.
import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifySchemaCompiler } from 'fastify';
import { actorOf, audited } from '../audit/audited.ts';
import { supplierOf } from '../auth/principal.ts';
import { problems } from '../../lib/schemas.ts';
import { validatorCompiler } from '../../lib/validation.ts';
import type { Deps } from '../../deps.ts';
import { findKind, IMPORT_KINDS } from '../../integrator/kinds.ts';
import { AppError } from '../../lib/errors.ts';
import { batchLimits } from '../batch/batch.service.ts';
import {
  FailedRowsFile,
  FailuresPage,
  FailuresQuery,
  Import,
  ImportFile,
  ImportKindInfo,
  ImportListQuery,
  ImportPage,
  ImportParams,
  ImportTemplate,
  IMPORT_MEDIA_TYPES,
  TemplateParams,
  UploadQuery,
} from './imports.schemas.ts';
import {
  failedRowsFile,
  getImport,
  importFailures,
  importKinds,
  listImports,
  openImportFile,
  RunningImports,
  storeImport,
  tooLarge,
  tooManyImports,
  type UploadedFile,
} from './imports.service.ts';
import { Type } from 'typebox';
import { detectDelimiter } from './imports.spreadsheet.ts';
import { importTemplate } from './imports.template.ts';
import { requestLanguage } from './imports.words.ts';

const tags = ['imports'];
const read = { auth: 'supplier', scope: 'supplier/batch.read' } as const;

const UPLOAD =
  'The body is the file: CSV (`text/csv`: a header row, then one item per row; `a.b` columns fill objects, JSON in a cell for object and list fields, ' +
  'an empty cell leaves the field out, `_` columns are ignored) or JSON Lines (`application/x-ndjson`: one item per line). The service reads it with the ' +
  "integrator CLI's own column mapping (src/integrator/README.md), checks every item as the batch endpoint would, refuses the rows it cannot send at once " +
  '(their lines and reasons: GET /import/{id}/failures) and sends the rest as ordinary batches, all stored before the 202 (so the work is done even if ' +
  'the service stops right after). A file over MAX_IMPORT_BYTES is refused with 413; a file that cannot be read as the kind\'s rows (empty, an unknown column) with 400.';

/**
 * The uploaded file as the parser hands it over: its bytes as they arrived, and their
 * SHA-256, which is what the idempotency hook's hash of the request reads (toJSON), so a
 * replayed upload is recognised without the file ever being turned into one string.
 */
class FileBody implements UploadedFile {
  constructor(
    readonly chunks: Buffer[],
    readonly bytes: number,
    private readonly sha256: string,
  ) {}

  toJSON() {
    return { bytes: this.bytes, sha256: this.sha256 };
  }
}

/** The body's bytes, refused with 413 past the limit (Fastify checks only the bodies it reads itself). */
function readFile(limit: number) {
  return (request: { headers: Record<string, unknown> }, payload: NodeJS.ReadableStream, done: (error: Error | null, body?: unknown) => void) => {
    const declared = Number(request.headers['content-length']);
    if (declared > limit) return done(tooLarge(limit));
    const chunks: Buffer[] = [];
    const hash = createHash('sha256');
    let bytes = 0;
    let finished = false;
    const finish = (error: Error | null, body?: unknown) => {
      if (finished) return;
      finished = true;
      // As Fastify does past its own limit: stop listening; the rest flows by unkept, and the 413 still reaches the client.
      payload.removeListener('data', onData);
      done(error, body);
    };
    const onData = (chunk: Buffer | string) => {
      const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += piece.length;
      if (bytes > limit) {
        chunks.length = 0;
        return finish(tooLarge(limit));
      }
      chunks.push(piece);
      hash.update(piece);
    };
    payload.on('data', onData);
    payload.on('error', (error) => finish(error as Error));
    payload.on('end', () => finish(null, new FileBody(chunks, bytes, hash.digest('hex'))));
  };
}

/**
 * The app's validator for the query, none for the body: the body is bytes (FileBody), read
 * and refused row by row by the service; the body schema stays for the OpenAPI document.
 */
const queryOnly: FastifySchemaCompiler<unknown> = (route) => (route.httpPart === 'body' ? () => true : validatorCompiler(route));

/** What the app's one error handler would say of a body these routes cannot take, said of a file. */
function uploadErrors(limit: number) {
  return (error: FastifyError): never => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw tooLarge(limit);
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `send the file as the body, as ${IMPORT_MEDIA_TYPES.join(', ')}`);
    }
    throw error;
  };
}

export const importRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // This plugin's own parser: a file, as its bytes. (JSON and the rest are the other routes'.)
    app.removeAllContentTypeParsers();
    app.addContentTypeParser([...IMPORT_MEDIA_TYPES], readFile(deps.config.maxImportBytes));
    const running = new RunningImports();

    for (const kind of IMPORT_KINDS) {
      const batchKind = deps.batches.get(kind.endpoint);
      app.post(`/import/${kind.name}`, {
        config: { auth: 'supplier', scope: kind.scope, audit: 'import' },
        bodyLimit: deps.config.maxImportBytes,
        schema: {
          tags,
          summary: `Upload a file of ${kind.summary}, sent as ${kind.endpoint} batches`,
          description: UPLOAD,
          querystring: UploadQuery,
          body: ImportFile as never,
          response: { 202: Import, ...problems(400, 401, 403, 413, 415, 429) },
        },
        validatorCompiler: queryOnly,
        errorHandler: uploadErrors(deps.config.maxImportBytes),
        // After the credential and its scope (onRequest), before a byte of the file is read:
        // a supplier with IMPORTS_AT_ONCE running gets 429, and the file is never buffered.
        preParsing: async (request, reply, payload) => {
          const give = running.take(supplierOf(request).supplierId);
          if (!give) throw tooManyImports();
          // The slot is the request's until its answer is sent or its connection goes.
          reply.raw.once('close', give);
          reply.raw.once('finish', give);
          return payload;
        },
        handler: async (request, reply) => {
          const { supplierId } = supplierOf(request);
          const actor = actorOf(request);
          if (!(request.body instanceof FileBody)) throw uploadErrors(deps.config.maxImportBytes)({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' } as FastifyError);
          const format = request.query.format ?? (request.mediaType === 'text/csv' ? 'csv' : 'jsonl');
          const upload = {
            supplierId,
            kind,
            batchKind,
            remove: request.query.remove,
            format,
            // None given: the header line's (a spreadsheet in Spanish or Portuguese writes `;`).
            delimiter: request.query.delimiter ?? (format === 'csv' ? detectDelimiter(request.body) : ','),
            fileName: request.query.name ?? `${kind.name}.${format}`,
            file: request.body,
            uploadedBy: { kind: actor.kind === 'person' ? ('person' as const) : ('credential' as const), id: actor.id },
          };
          // The header is checked before the transaction; the rows are read and stored, with
          // their batches, in the audited one (nothing of a file refused halfway is kept).
          const file = await openImportFile(upload);
          const limits = batchLimits(deps.config);
          let items = 0;
          const stored = await audited(deps, request, (db) => storeImport(db, limits, upload, file, (_endpoint, n) => (items += n)), {
            entityId: (s) => s.id,
            detail: (s) => ({ kind: kind.name, fileName: upload.fileName, rowsRead: s.rowsRead, refused: s.refused, batchIds: s.batchIds }),
          });
          deps.metrics.batchItemsAccepted(kind.endpoint, items);
          return reply.code(202).send(await getImport(deps.db, supplierId, stored.id));
        },
      });
    }

    app.get('/import/kinds', {
      config: read,
      schema: {
        tags,
        summary: 'Every import kind: its batch endpoint, the scope uploading it needs, and its columns (as `surtido kinds` lists them)',
        response: { 200: Type.Array(ImportKindInfo), ...problems(401, 403) },
      },
      handler: async () => importKinds(),
    });

    app.get('/import/kinds/:kind/template', {
      config: read,
      schema: {
        tags,
        summary: "A CSV template of the kind: its columns and one example row, from the kind's declared body (as the importer reads it)",
        description:
          "In the request's Accept-Language (es, pt, en): for Spanish and Portuguese, or a request naming none, as a spreadsheet there writes it (a byte-order mark, `;` between cells, a decimal comma, `sí`/`sim`); for English, `,` and a decimal point.",
        params: TemplateParams,
        response: { 200: ImportTemplate, ...problems(400, 401, 403) },
      },
      handler: async (request, reply) => {
        const file = importTemplate(findKind(request.params.kind)!, requestLanguage(request.headers['accept-language']) ?? 'es');
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', attachment(file.fileName))
          .header('x-content-type-options', 'nosniff')
          .send(Buffer.from(file.text, 'utf8') as never);
      },
    });

    app.get('/import', {
      config: read,
      schema: { tags, summary: "The supplier's file imports, newest first, with their status and counts", querystring: ImportListQuery, response: { 200: ImportPage, ...problems(400, 401, 403) } },
      handler: (request) => listImports(deps.db, supplierOf(request).supplierId, request.query),
    });

    app.get('/import/:id', {
      config: read,
      schema: { tags, summary: 'A file import: its status, counts and batches', params: ImportParams, response: { 200: Import, ...problems(400, 401, 403, 404) } },
      handler: (request) => getImport(deps.db, supplierOf(request).supplierId, request.params.id),
    });

    app.get('/import/:id/failures', {
      config: read,
      schema: {
        tags,
        summary: "An import's failed rows in line order: the line, the row as read and every reason (refused before sending, or as the batch detail gives it)",
        params: ImportParams,
        querystring: FailuresQuery,
        response: { 200: FailuresPage, ...problems(400, 401, 403, 404) },
      },
      handler: (request) => importFailures(deps.db, supplierOf(request).supplierId, request.params.id, request.query),
    });

    app.get('/import/:id/failures/file', {
      config: read,
      schema: {
        tags,
        summary: 'Exactly the failed rows as a file in the original format, to fix and upload again',
        params: ImportParams,
        response: { 200: FailedRowsFile, ...problems(400, 401, 403, 404) },
      },
      handler: async (request, reply) => {
        // A person's download (the request names a language: the console sends its own) gets the reasons in it.
        const file = await failedRowsFile(deps.db, supplierOf(request).supplierId, request.params.id, requestLanguage(request.headers['accept-language']));
        return reply
          .header('content-type', file.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
          .header('content-disposition', attachment(file.fileName))
          .header('x-content-type-options', 'nosniff')
          // Bytes, so no serializer touches them (application/x-ndjson says "json" to Fastify).
          .send(Buffer.from(file.text, 'utf8') as never);
      },
    });
  };

/** `attachment` with the name as plain ASCII and, for any other character, RFC 5987's UTF-8 form. */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
