// POST /batch/grouper/promotion and POST /batch/grouper/stock: remove, then add.
import type { Static } from 'typebox';
import type { GrouperKind } from '../../db/types.ts';
import { completed, defineBatchKind, failed, lastPerKey, storeNotKnownYet, type ActionBuilder, type BatchAction } from '../batch/batch.kinds.ts';
import { existingStoreCodes } from '../stores/stores.repository.ts';
import * as repo from './groupers.repository.ts';
import { GrouperBatchBody } from './groupers.schemas.ts';

type Body = Static<typeof GrouperBatchBody>;

const unknownCode: Record<GrouperKind, string> = { promotion: 'UNKNOWN_GROUPER', stock: 'UNKNOWN_STOCK_GROUPER' };

function action(build: ActionBuilder<Body>, kind: GrouperKind, name: 'add.stores' | 'remove.stores'): BatchAction {
  const [node] = name.split('.') as ['add' | 'remove'];
  return build({
    name,
    select: (body) => body[node]?.stores,
    code: (link) => `${link.groupInternalCode}/${link.storeInternalCode}`,
    async apply(trx, supplierId, items) {
      const ids = await repo.grouperIds(trx, supplierId, kind, [...new Set(items.map((i) => i.groupInternalCode))]);
      const rows = items.filter((i) => ids.has(i.groupInternalCode)).map((i) => ({ g: ids.get(i.groupInternalCode)!, s: i.storeInternalCode }));
      if (node === 'add') {
        // Stock: the last grouper named for a store in the chunk is the one it ends in.
        await repo.addStoreLinks(trx, supplierId, kind, kind === 'stock' ? lastPerKey(rows, (r) => r.s) : lastPerKey(rows, (r) => `${r.g}/${r.s}`));
      } else {
        await repo.removeStoreLinks(trx, supplierId, rows);
      }
      const known = node === 'add' ? await existingStoreCodes(trx, supplierId, [...new Set(rows.map((r) => r.s))]) : undefined;
      return items.map((i) => {
        if (!ids.has(i.groupInternalCode)) return failed(unknownCode[kind], `${kind} grouper ${i.groupInternalCode} does not exist`);
        if (known && !known.has(i.storeInternalCode)) return storeNotKnownYet(i.storeInternalCode);
        return completed;
      });
    },
  });
}

const grouperBatchKind = <const Kind extends GrouperKind>(kind: Kind) =>
  defineBatchKind({
    endpoint: `/batch/grouper/${kind}`,
    body: GrouperBatchBody,
    route: {
      scope: 'supplier/grouper.bulkwrite',
      tags: [`${kind} groupers`],
      summary: kind === 'stock' ? 'Add and remove stores in bulk (adding a store moves it from its stock grouper)' : 'Add and remove stores in bulk',
    },
    actions: (build) => [action(build, kind, 'remove.stores'), action(build, kind, 'add.stores')],
  });

export const promotionGrouperBatchKind = grouperBatchKind('promotion');
export const stockGrouperBatchKind = grouperBatchKind('stock');
