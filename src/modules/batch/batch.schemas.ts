import { Type } from 'typebox';
import { Nullable, PageQuery, Timestamp } from '../../lib/schemas.ts';

export const BatchParams = Type.Object({ uuid: Type.String({ format: 'uuid' }) });

const BatchState = Type.Union([Type.Literal('processing'), Type.Literal('processed'), Type.Literal('failed')]);
const ItemState = Type.Union([Type.Literal('processing'), Type.Literal('completed'), Type.Literal('failed')]);

export const BatchStatus = Type.Object({
  batchId: Type.String({ format: 'uuid' }),
  endpoint: Type.String(),
  sentBy: Type.Union(
    [
      Type.Object({
        kind: Type.Union([Type.Literal('credential'), Type.Literal('operator'), Type.Literal('person')]),
        id: Type.String({ description: "a credential's clientId, or a console member's email" }),
      }),
      Type.Null(),
    ],
    { description: 'who sent the batch, from the audit entry of the request that sent it; null when unknown (that entry is gone, or none was written)' },
  ),
  status: BatchState,
  total: Type.Integer(),
  processed: Type.Integer({ description: 'completed + failed' }),
  completed: Type.Integer(),
  failed: Type.Integer(),
  createdAt: Timestamp(),
  startedAt: Nullable(Timestamp()),
  finishedAt: Nullable(Timestamp()),
});

export const BatchDetailQuery = Type.Object({
  status: Type.Optional(ItemState),
  take: Type.Integer({ minimum: 1, maximum: 5000, default: 5000 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
});

export const BatchDetail = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  detail: Type.Array(
    Type.Object({
      code: Type.String(),
      endpoint: Type.String(),
      action: Type.String(),
      batchItem: Type.String({ description: 'the item as JSON text' }),
      status: ItemState,
      errorCode: Nullable(Type.String()),
      message: Nullable(Type.String()),
      finishedAt: Nullable(Timestamp()),
    }),
  ),
  page: Type.Integer(),
  take: Type.Integer(),
  total: Type.Integer(),
  totalPages: Type.Integer(),
});

export const BatchListQuery = Type.Object({
  status: Type.Optional(BatchState),
  endpoint: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'the endpoint the batch was sent to, e.g. /batch/pricelist' })),
  ...PageQuery,
});

export const BatchPage = Type.Object({
  data: Type.Array(BatchStatus),
  page: Type.Integer(),
  take: Type.Integer(),
  total: Type.Integer(),
  totalPages: Type.Integer(),
  counts: Type.Object(
    { processing: Type.Integer(), processed: Type.Integer(), failed: Type.Integer() },
    { description: 'batches in each state under the endpoint filter, whatever the status filter' },
  ),
});
