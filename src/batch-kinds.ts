// Every batch kind, each declared once in its module (defineBatchKind). The worker's
// registry (deps.ts), and through it the POST routes (batch.routes.ts) and the image wake
// (main/worker.ts), and the integrator CLI's kinds (integrator/kinds.ts) all come from here.
import { brandBatchKind, productBatchKind } from './modules/catalog/catalog.batch.ts';
import { invoiceBatchKind, paymentBatchKind } from './modules/credit/credit.batch.ts';
import { promotionGrouperBatchKind, stockGrouperBatchKind } from './modules/groupers/groupers.batch.ts';
import { deliveryZoneBatchKind } from './modules/delivery/delivery.batch.ts';
import { orderBatchKind, orderImportKind } from './modules/orders/orders.batch.ts';
import { priceListBatchKind } from './modules/pricelists/pricelists.batch.ts';
import { promotionBatchKind } from './modules/promotions/promotions.batch.ts';
import { recommendationBatchKind } from './modules/recommendations/recommendations.batch.ts';
import { sellerBatchKind } from './modules/sellers/sellers.batch.ts';
import { stockBatchKind } from './modules/stock/stock.batch.ts';
import { storeBatchKind } from './modules/stores/stores.batch.ts';

export {
  brandBatchKind,
  deliveryZoneBatchKind,
  invoiceBatchKind,
  orderBatchKind,
  orderImportKind,
  paymentBatchKind,
  priceListBatchKind,
  productBatchKind,
  promotionBatchKind,
  promotionGrouperBatchKind,
  recommendationBatchKind,
  sellerBatchKind,
  stockBatchKind,
  stockGrouperBatchKind,
  storeBatchKind,
};

export const BATCH_KINDS = [
  priceListBatchKind,
  brandBatchKind,
  productBatchKind,
  promotionGrouperBatchKind,
  stockGrouperBatchKind,
  stockBatchKind,
  deliveryZoneBatchKind,
  storeBatchKind,
  orderBatchKind,
  orderImportKind,
  promotionBatchKind,
  recommendationBatchKind,
  sellerBatchKind,
  invoiceBatchKind,
  paymentBatchKind,
] as const;
