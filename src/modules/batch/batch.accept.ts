// Accepting a batch request over HTTP: the batch rows and their audit entry (the batch,
// not each item) commit together, and the workers are woken after the commit.
import type { FastifyRequest } from 'fastify';
import { audited } from '../audit/audited.ts';
import { supplierOf } from '../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import type { BatchKind } from './batch.kinds.ts';
import { batchLimits, submitBatch } from './batch.service.ts';

export async function acceptBatch(deps: Deps, request: FastifyRequest, kind: BatchKind) {
  let items = 0;
  const accepted = await audited(deps, request, (db) => submitBatch(db, batchLimits(deps.config), supplierOf(request).supplierId, kind, request.body, (_endpoint, n) => (items = n)), {
    entityId: (accepted) => accepted.batchId[0],
    detail: (accepted) => ({ endpoint: kind.endpoint, batchIds: accepted.batchId }),
  });
  // Counted once committed: a request whose transaction failed accepted nothing.
  deps.metrics.batchItemsAccepted(kind.endpoint, items);
  return accepted;
}
