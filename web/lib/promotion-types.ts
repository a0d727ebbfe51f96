// Promotions as the store app reads them, named by the service's OpenAPI document (the
// generated client types): the catalog's entries (PromotionRef) and the promotions page's
// (StorePromotion, each product and gift named). Nothing here is typed by hand.
import type { components } from 'surtido/client';

type Schemas = components['schemas'];
export type PromotionRef = Schemas['PromotionRef'];
export type Promotion = Schemas['StorePromotion'];
export type DiscountTier = NonNullable<Promotion['discountTiersData']>[number];
/** A bonus tier; on the promotions page, a crossed bonus's gift with its `productName`. */
export type BonusTier = NonNullable<Promotion['bonusTierData']>;
