// POST /batch/seller: removes first, then upserts. A run of items goes through the same
// check-and-write as a PUT (writeSellerRun), set-based: one lookup of the stores named and
// one statement per chunk; an item breaking a rule fails alone, with the code the PUT
// would have answered.
import { actionFor, completed, defineBatchKind, removalOutcomes, type ItemOutcome } from '../batch/batch.kinds.ts';
import { removeSellers } from './sellers.repository.ts';
import { SellerBatchBody } from './sellers.schemas.ts';
import { failedItem, writeSellerRun } from './sellers.service.ts';

const action = actionFor(SellerBatchBody);

export const sellerBatchKind = defineBatchKind({
  endpoint: '/batch/seller',
  body: SellerBatchBody,
  route: {
    scope: 'supplier/store.bulkwrite',
    tags: ['sellers'],
    summary: 'Upsert and remove sellers in bulk (asynchronous; removes first)',
  },
  actions: () => [
    action({
      name: 'remove.internalCodes',
      select: (body) => body.remove?.internalCodes,
      code: (code) => code,
      key: (code) => code,
      async apply(trx, supplierId, codes) {
        return removalOutcomes(codes, await removeSellers(trx, supplierId, [...new Set(codes)]), 'seller');
      },
    }),
    action({
      name: 'upsert',
      select: (body) => body.upsert,
      code: (item) => item.internalCode,
      key: (item) => item.internalCode,
      async apply(trx, supplierId, items) {
        const { problems, unknownStores } = await writeSellerRun(trx, supplierId, items);
        return items.map((_, i) => {
          if (problems[i]!.length > 0) return failedItem(problems[i]!);
          const unknown = unknownStores[i]!;
          if (unknown.length === 0) return completed;
          const stores = unknown.length === 1 ? `store ${unknown[0]} is` : `stores ${unknown.join(', ')} are`;
          return { status: 'completed', message: `${stores} not known yet; the seller serves them when they are created` } satisfies ItemOutcome;
        });
      },
    }),
  ],
});
