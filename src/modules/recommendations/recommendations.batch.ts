// POST /batch/recommendation: removes first, then upserts. A run of items goes through the
// same check-and-write as a PUT (writeRecommendationRun), set-based: one lookup per kind
// of reference and one statement per chunk; an item breaking a rule fails alone, with the
// code the PUT would have answered.
import { actionFor, completed, defineBatchKind, removalOutcomes, type ItemOutcome } from '../batch/batch.kinds.ts';
import { removeRecommendations } from './recommendations.repository.ts';
import { failedItem } from './recommendations.rules.ts';
import { RecommendationBatchBody } from './recommendations.schemas.ts';
import { writeRecommendationRun } from './recommendations.service.ts';

const action = actionFor(RecommendationBatchBody);

export const recommendationBatchKind = defineBatchKind({
  endpoint: '/batch/recommendation',
  body: RecommendationBatchBody,
  route: {
    scope: 'supplier/promotion.bulkwrite',
    tags: ['recommendations'],
    summary: 'Upsert and remove recommendations in bulk (asynchronous; removes first)',
  },
  actions: () => [
    action({
      name: 'remove.internalCodes',
      select: (body) => body.remove?.internalCodes,
      code: (code) => code,
      key: (code) => code,
      async apply(trx, supplierId, codes) {
        return removalOutcomes(codes, await removeRecommendations(trx, supplierId, [...new Set(codes)]), 'recommendation');
      },
    }),
    action({
      name: 'upsert',
      select: (body) => body.upsert,
      code: (item) => item.internalCode,
      key: (item) => item.internalCode,
      async apply(trx, supplierId, items) {
        const { problems, unknownStores } = await writeRecommendationRun(trx, supplierId, items);
        return items.map((_, i) => {
          if (problems[i]!.length > 0) return failedItem(problems[i]!);
          const unknown = unknownStores[i]!;
          if (unknown.length === 0) return completed;
          const stores = unknown.length === 1 ? `store ${unknown[0]} is` : `stores ${unknown.join(', ')} are`;
          return { status: 'completed', message: `${stores} not known yet; the recommendation reaches them when they are created` } satisfies ItemOutcome;
        });
      },
    }),
  ],
});
