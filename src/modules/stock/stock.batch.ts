// POST /batch/stock/grouper: whether a product, or one of its package sizes, is available
// to the stores of a stock grouper. A product is available unless a rule says otherwise;
// a rule for one package size wins over the product's rule (see README).
import { actionFor, completed, defineBatchKind, failed, lastPerKey } from '../batch/batch.kinds.ts';
import { productIds } from '../catalog/catalog.repository.ts';
import { grouperIds } from '../groupers/groupers.repository.ts';
import * as repo from './stock.repository.ts';
import { StockBatchBody } from './stock.schemas.ts';

const action = actionFor(StockBatchBody);

const upsertRules = action({
  name: 'upsert',
  select: (body) => body.upsert,
  code: (r) => [r.grouperCode, r.productInternalCode, ...(r.units === undefined ? [] : [r.units])].join('/'),
  async apply(trx, supplierId, items) {
    const groupers = await grouperIds(trx, supplierId, 'stock', [...new Set(items.map((i) => i.grouperCode))]);
    const products = await productIds(trx, supplierId, [...new Set(items.map((i) => i.productInternalCode))]);
    const rows: { g: number; p: number; u: number; a: boolean }[] = [];
    const outcomes = items.map((i) => {
      const g = groupers.get(i.grouperCode);
      const p = products.get(i.productInternalCode);
      if (g === undefined) return failed('UNKNOWN_STOCK_GROUPER', `stock grouper ${i.grouperCode} does not exist`);
      if (p === undefined) return failed('UNKNOWN_PRODUCT', `product ${i.productInternalCode} does not exist`);
      rows.push({ g, p, u: i.units ?? 0, a: i.available });
      return completed;
    });
    await repo.upsertRules(trx, supplierId, lastPerKey(rows, (r) => `${r.g}/${r.p}/${r.u}`));
    return outcomes;
  },
});

export const stockBatchKind = defineBatchKind({
  endpoint: '/batch/stock/grouper',
  body: StockBatchBody,
  route: { scope: 'supplier/stock.bulkwrite', tags: ['stock'], summary: 'Set product availability per stock grouper, for a product or one package size (asynchronous)' },
  actions: () => [upsertRules],
});
