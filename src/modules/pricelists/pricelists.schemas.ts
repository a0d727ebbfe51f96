import { Type } from 'typebox';
import { Code, Money, Name, Nullable, Page, PageQuery, SearchQuery, Timestamp, Units } from '../../lib/schemas.ts';

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

export const PriceListBatchBody = Type.Object({
  upsert: Type.Optional(
    Type.Object({
      products: Type.Optional(Type.Array(PriceEntry)),
      stores: Type.Optional(Type.Array(PriceListStoreLink)),
    }),
  ),
  remove: Type.Optional(
    Type.Object({
      products: Type.Optional(Type.Array(PriceEntryRemoval)),
      stores: Type.Optional(Type.Array(PriceListStoreLink)),
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

export const PriceListListQuery = Type.Object({ ...SearchQuery, enabled: Type.Optional(Type.Boolean()), ...PageQuery });
export const PriceListListItem = Type.Object({
  internalCode: Type.String(),
  name: Nullable(Type.String()),
  enabled: Type.Boolean(),
  storeCount: Type.Integer({ description: 'stores assigned to the list (links to stores not created yet included)' }),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
});
export const PriceListPage = Page(PriceListListItem);

export const PriceEntryQuery = Type.Object({
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "part of the product's code or name, case-insensitive" })),
  ...PageQuery,
  after: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 600,
      description: "the `next` of a previous answer: the page after it, read from an index at the same cost at any depth (then `page` is only echoed back)",
    }),
  ),
});
export const PriceEntryPage = Type.Object({
  data: Type.Array(
    Type.Object({ productInternalCode: Type.String(), productName: Type.String(), units: Type.Integer(), price: Type.Number(), updatedAt: Type.String({ format: 'date-time', description: 'when the price last changed (an entry sent again with the same price keeps it)' }) }),
  ),
  page: Type.Integer(),
  take: Type.Integer(),
  total: Type.Integer(),
  totalPages: Type.Integer(),
  next: Nullable(Type.String({ description: 'send as `after` for the following page; null on the last page' })),
});
