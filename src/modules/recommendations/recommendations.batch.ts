// POST /batch/recommendation: removes first, then upserts. A run of items goes through the
// same check-and-write as a PUT (writeRecommendationRun), set-based: one lookup per kind
// of reference and one statement per chunk; an item breaking a rule fails alone, with the
// code the PUT would have answered.
import { defineBatchKind, removeByCode, storesNotKnownYet, upsertByCode } from '../batch/batch.kinds.ts';
import { removeRecommendations } from './recommendations.repository.ts';
import { failedItem } from './recommendations.rules.ts';
import { RecommendationBatchBody } from './recommendations.schemas.ts';
import { writeRecommendationRun } from './recommendations.service.ts';

export const recommendationBatchKind = defineBatchKind({
  endpoint: '/batch/recommendation',
  body: RecommendationBatchBody,
  route: {
    scope: 'supplier/promotion.bulkwrite',
    tags: ['recommendations'],
    summary: 'Upsert and remove recommendations in bulk (asynchronous; removes first)',
  },
  actions: (action) => [
    removeByCode(action, 'recommendation', removeRecommendations),
    upsertByCode(action, {
      async apply(trx, supplierId, items) {
        const { problems, unknownStores } = await writeRecommendationRun(trx, supplierId, items);
        return items.map((_, i) =>
          problems[i]!.length > 0 ? failedItem(problems[i]!) : storesNotKnownYet(unknownStores[i]!, 'the recommendation reaches them'),
        );
      },
    }),
  ],
});
