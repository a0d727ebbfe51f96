import { Type } from 'typebox';
import { Code, Money, Name, Nullable, Timestamp, Units } from '../../http/common.schemas.ts';

export const CreatePriceList = Type.Object({ internalCode: Code(), name: Type.Optional(Name()) });
export const PriceListStatusBody = Type.Object({ enabled: Type.Boolean() });

export const PriceEntry = Type.Object({
  priceListInternalCode: Code(),
  productInternalCode: Code(),
  units: Units(),
  price: Money(),
});
/** In remove.products, units may be left out: every package size of the product goes. */
export const PriceEntryRemoval = Type.Object({
  priceListInternalCode: Code(),
  productInternalCode: Code(),
  units: Type.Optional(Units()),
  price: Type.Optional(Money()),
});
export const PriceListStoreLink = Type.Object({ priceListInternalCode: Code(), storeInternalCode: Code() });

const MAX = 50_000;
export const PriceListBatchBody = Type.Object({
  upsert: Type.Optional(
    Type.Object({
      products: Type.Optional(Type.Array(PriceEntry, { maxItems: MAX })),
      stores: Type.Optional(Type.Array(PriceListStoreLink, { maxItems: MAX })),
    }),
  ),
  remove: Type.Optional(
    Type.Object({
      products: Type.Optional(Type.Array(PriceEntryRemoval, { maxItems: MAX })),
      stores: Type.Optional(Type.Array(PriceListStoreLink, { maxItems: MAX })),
    }),
  ),
});

export const PriceListSummary = Type.Object({ internalCode: Type.String(), name: Nullable(Type.String()), enabled: Type.Boolean() });

export const PriceList = Type.Object({
  internalCode: Type.String(),
  name: Nullable(Type.String()),
  enabled: Type.Boolean(),
  products: Type.Array(
    Type.Object({ priceListInternalCode: Type.String(), productInternalCode: Type.String(), units: Type.Integer(), price: Type.Number() }),
  ),
  stores: Type.Array(Type.Object({ priceListInternalCode: Type.String(), storeInternalCode: Type.String() })),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
});
