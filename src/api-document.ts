// What the OpenAPI document says beyond the route table (src/http/openapi.ts): the
// webhooks the platform calls, and the shapes that recur, named in `components.schemas`
// so generated clients expose them as named types. The routes keep their own schemas:
// naming a shape here changes the document only, never validation or serialisation.
import type { ApiDocumentParts } from './http/openapi.ts';
import { BatchDetail, BatchStatus } from './modules/batch/batch.schemas.ts';
import { Brand, Category, Product, ProductInput } from './modules/catalog/catalog.schemas.ts';
import { Grouper } from './modules/groupers/groupers.schemas.ts';
import { Import } from './modules/imports/imports.schemas.ts';
import { Member } from './modules/members/members.schemas.ts';
import { Order } from './modules/orders/orders.schemas.ts';
import { PriceEntry, PriceList } from './modules/pricelists/pricelists.schemas.ts';
import { PricedCart } from './modules/pricing/pricing.schemas.ts';
import { Promotion, PromotionRef } from './modules/promotions/promotions.schemas.ts';
import { CartBody, CatalogItem, Notification, StorePromotion } from './modules/store-app/store-app.schemas.ts';
import { Store, StoreInput, StoreSummary } from './modules/stores/stores.schemas.ts';
import { AppTicket, Ticket } from './modules/tickets/tickets.schemas.ts';
import { Delivery as WebhookDelivery } from './modules/webhooks/webhooks.schemas.ts';
import { webhooksDocument } from './modules/webhooks/webhooks.openapi.ts';

export function apiDocument(): ApiDocumentParts {
  return {
    webhooks: webhooksDocument(),
    schemas: {
      Product,
      ProductInput,
      Brand,
      Category,
      Grouper,
      PriceList,
      PriceEntry,
      Store,
      StoreInput,
      StoreSummary,
      Promotion,
      PromotionRef,
      StorePromotion,
      CatalogItem,
      Cart: CartBody,
      PricedCart,
      Order,
      Ticket,
      AppTicket,
      Notification,
      BatchStatus,
      BatchDetail,
      Import,
      Member,
      WebhookDelivery,
    },
  };
}
