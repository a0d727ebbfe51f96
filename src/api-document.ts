// What the OpenAPI document says beyond the route table (src/http/openapi.ts): the
// webhooks the platform calls, and the shapes that recur, named in `components.schemas`
// so generated clients expose them as named types. The routes keep their own schemas:
// naming a shape here changes the document only, never validation or serialisation.
import type { ApiDocumentParts } from './http/openapi.ts';
import { BatchDetail, BatchStatus } from './modules/batch/batch.schemas.ts';
import { Order } from './modules/orders/orders.schemas.ts';
import { PriceEntry } from './modules/pricelists/pricelists.schemas.ts';
import { PricedCart } from './modules/pricing/pricing.schemas.ts';
import { Promotion, PromotionRef } from './modules/promotions/promotions.schemas.ts';
import { StorePromotion } from './modules/store-app/store-app.schemas.ts';
import { Store, StoreSummary } from './modules/stores/stores.schemas.ts';
import { AppTicket, Ticket } from './modules/tickets/tickets.schemas.ts';
import { webhooksDocument } from './modules/webhooks/webhooks.openapi.ts';

export function apiDocument(): ApiDocumentParts {
  return {
    webhooks: webhooksDocument(),
    schemas: { Promotion, PromotionRef, StorePromotion, PricedCart, Order, PriceEntry, Store, StoreSummary, Ticket, AppTicket, BatchStatus, BatchDetail },
  };
}
