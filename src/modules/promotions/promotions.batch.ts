// POST /batch/promotion: removes first, then the upserts of each type in the order of the
// body's nodes. A run of items goes through the same check-and-write as a PUT
// (writePromotions), set-based; an item breaking a rule fails alone, with the code the
// PUT would have answered.
import type { PromotionType } from '../../db/types.ts';
import { completed, type BatchAction, type BatchKind } from '../batch/batch.kinds.ts';
import { failedItem, type PromotionBody } from './promotions.rules.ts';
import { removePromotions, writePromotions } from './promotions.service.ts';

const removeAction: BatchAction<string> = {
  name: 'remove.internalCodes',
  select: (body) => body?.remove?.internalCodes,
  code: (code) => code,
  async apply(trx, supplierId, codes) {
    const removed = await removePromotions(trx, supplierId, [...new Set(codes)]);
    // Removing what is not there succeeds (re-sending is harmless), and says so; a code
    // named twice is removed by the first and absent for the second.
    const seen = new Set<string>();
    return codes.map((code) => {
      const first = !seen.has(code);
      seen.add(code);
      return first && removed.has(code) ? completed : { status: 'completed', message: `promotion ${code} does not exist; nothing to remove` };
    });
  },
};

function upsertAction(name: string, type: PromotionType, select: (body: any) => PromotionBody[] | undefined): BatchAction<PromotionBody> {
  return {
    name,
    select,
    code: (item) => item.internalCode,
    async apply(trx, supplierId, items) {
      const problems = await writePromotions(trx, supplierId, type, items);
      return problems.map((p) => (p.length === 0 ? completed : failedItem(p)));
    },
  };
}

export const promotionBatchKind: BatchKind = {
  endpoint: '/batch/promotion',
  actions: [
    removeAction,
    upsertAction('upsert.discount.simple', 'DISCOUNT_SIMPLE', (body) => body?.upsert?.discount?.simple),
    upsertAction('upsert.discount.multiple', 'DISCOUNT_MULTIPLE', (body) => body?.upsert?.discount?.multiple),
    upsertAction('upsert.bonus.individual', 'BONUS_INDIVIDUAL', (body) => body?.upsert?.bonus?.individual),
    upsertAction('upsert.bonus.crossed', 'BONUS_CROSSED', (body) => body?.upsert?.bonus?.crossed),
  ],
};
