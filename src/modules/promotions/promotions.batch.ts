// POST /batch/promotion: removes first, then the upserts of each type in the order of the
// body's nodes. A run of items goes through the same check-and-write as a PUT
// (writePromotions), set-based; an item breaking a rule fails alone, with the code the
// PUT would have answered.
import type { PromotionType } from '../../db/types.ts';
import { actionFor, completed, defineBatchKind, removeByCode } from '../batch/batch.kinds.ts';
import { failedItem, type PromotionBody } from './promotions.rules.ts';
import { PromotionBatchBody } from './promotions.schemas.ts';
import { removePromotions, writePromotions } from './promotions.service.ts';
import { keepSentBranch } from './promotions.validation.ts';

const action = actionFor(PromotionBatchBody);

// No key, as the upserts have none: promotion batches apply one at a time in acceptance order (batch README, "Ordering").
const removeAction = removeByCode(action, 'promotion', removePromotions, { keyed: false });

type Body = Parameters<Parameters<typeof action>[0]['select']>[0];

/** Each node's items are its schema's static type, which writePromotions takes as a PromotionBody. */
function upsertAction<Item extends PromotionBody>(name: string, type: PromotionType, select: (body: Body) => Item[] | undefined) {
  return action({
    name,
    select,
    code: (item) => item.internalCode,
    async apply(trx, supplierId, items) {
      const problems = await writePromotions(trx, supplierId, type, items);
      return problems.map((p) => (p.length === 0 ? completed : failedItem(p)));
    },
  });
}

export const promotionBatchKind = defineBatchKind({
  endpoint: '/batch/promotion',
  body: PromotionBatchBody,
  route: {
    scope: 'supplier/promotion.bulkwrite',
    tags: ['promotions'],
    summary: 'Upsert promotions of every type and remove promotions in bulk (asynchronous; removes first)',
    errorHandler: keepSentBranch,
  },
  actions: () => [
    removeAction,
    upsertAction('upsert.discount.simple', 'DISCOUNT_SIMPLE', (body) => body.upsert?.discount?.simple),
    upsertAction('upsert.discount.multiple', 'DISCOUNT_MULTIPLE', (body) => body.upsert?.discount?.multiple),
    upsertAction('upsert.bonus.individual', 'BONUS_INDIVIDUAL', (body) => body.upsert?.bonus?.individual),
    upsertAction('upsert.bonus.crossed', 'BONUS_CROSSED', (body) => body.upsert?.bonus?.crossed),
  ],
  // An image of a promotion is registered by writePromotions.
  wakesImages: true,
});
