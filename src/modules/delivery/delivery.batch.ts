// POST /batch/deliveryzone (upsert only): zones written whole, as PUT /deliveryzone/{code}
// writes one. An item whose rules the schema cannot check (delivery.service.ts,
// zoneProblems) fails alone; the others of a chunk are written by one statement.
import { defineBatchKind, failed, lastPerKey, upsertByCode, type ItemOutcome } from '../batch/batch.kinds.ts';
import * as repo from './delivery.repository.ts';
import { DeliveryZoneBatchBody } from './delivery.schemas.ts';
import { zoneProblems, zoneWrite } from './delivery.service.ts';

export const deliveryZoneBatchKind = defineBatchKind({
  endpoint: '/batch/deliveryzone',
  body: DeliveryZoneBatchBody,
  route: {
    // Zones are part of how a supplier sets up its stores: the stores' scopes, so every
    // credential that loads stores loads their zones, and no scope list changes.
    scope: 'supplier/store.bulkwrite',
    tags: ['delivery zones'],
    summary: 'Upsert delivery zones, each written whole (asynchronous)',
  },
  actions: (action) => [
    upsertByCode(action, {
      async apply(trx, supplierId, items) {
        const outcomes: ItemOutcome[] = items.map((item) => {
          const [problem] = zoneProblems(item);
          return problem ? failed(problem.code, `${problem.pointer}: ${problem.message}`) : { status: 'completed' };
        });
        const valid = items.flatMap((item, n) => (outcomes[n]!.status === 'completed' ? [zoneWrite(item.internalCode, item)] : []));
        await repo.upsertZones(trx, supplierId, lastPerKey(valid, (z) => z.internal_code));
        return outcomes;
      },
    }),
  ],
});
