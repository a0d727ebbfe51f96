// POST /batch/seller: removes first, then upserts. A run of items goes through the same
// check-and-write as a PUT (writeSellerRun), set-based: one lookup of the stores named and
// one statement per chunk; an item breaking a rule fails alone, with the code the PUT
// would have answered.
import { defineBatchKind, removeByCode, storesNotKnownYet, upsertByCode } from '../batch/batch.kinds.ts';
import { removeSellers } from './sellers.repository.ts';
import { SellerBatchBody } from './sellers.schemas.ts';
import { failedItem, writeSellerRun } from './sellers.service.ts';

export const sellerBatchKind = defineBatchKind({
  endpoint: '/batch/seller',
  body: SellerBatchBody,
  route: {
    scope: 'supplier/store.bulkwrite',
    tags: ['sellers'],
    summary: 'Upsert and remove sellers in bulk (asynchronous; removes first)',
  },
  actions: (action) => [
    removeByCode(action, 'seller', removeSellers),
    upsertByCode(action, {
      async apply(trx, supplierId, items) {
        const { problems, unknownStores } = await writeSellerRun(trx, supplierId, items);
        return items.map((_, i) => (problems[i]!.length > 0 ? failedItem(problems[i]!) : storesNotKnownYet(unknownStores[i]!, 'the seller serves them')));
      },
    }),
  ],
});
