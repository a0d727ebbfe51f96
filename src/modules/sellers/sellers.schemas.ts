// Sellers' shapes (README.md): the supplier's bodies and answers, the orders a seller
// proposes to a store that confirms them itself, and the store's setting.
import { Type, type Static } from 'typebox';
import { Code, Name, Nullable, Page, PageQuery, SearchQuery, Timestamp } from '../../lib/schemas.ts';
import { Order, PlacedBy } from '../orders/orders.schemas.ts';
import { PlaceBody } from '../store-app/store-app.schemas.ts';
import { Email, Phone } from '../stores/stores.schemas.ts';

const MAX_STORES = 5000;

const fields = {
  name: Name(),
  phone: Type.Optional(Phone()),
  email: Type.Optional(Email()),
  storeInternalCodes: Type.Optional(
    Type.Array(Code(), { maxItems: MAX_STORES, description: 'the stores the seller serves (a code not loaded yet is kept, as every store link); absent or empty: none' }),
  ),
};

/** PUT /seller/{internalCode}: the code is the path's; the whole seller is replaced. A phone, an email or both. */
export const SellerBody = Type.Object(fields, { description: 'a phone, an email or both: the seller signs in to the store app with them' });
export type SellerBody = Static<typeof SellerBody>;
export const SellerInput = Type.Object({ internalCode: Code(), ...fields });
export type SellerInput = Static<typeof SellerInput>;

export const SellerBatchBody = Type.Object({
  upsert: Type.Optional(Type.Array(SellerInput)),
  remove: Type.Optional(Type.Object({ internalCodes: Type.Array(Code()) })),
});

export const Seller = Type.Object({
  internalCode: Type.String(),
  name: Type.String(),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  storeInternalCodes: Type.Array(Type.String(), { description: 'by code' }),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
});
export type Seller = Static<typeof Seller>;
export const SellerPage = Page(Seller);

export const SellerListQuery = Type.Object({
  ...SearchQuery,
  storeInternalCode: Type.Optional(Code({ description: 'only the sellers serving this store' })),
  ...PageQuery,
});

export const ProposalStatus = Type.Union([Type.Literal('AWAITING_STORE'), Type.Literal('ACCEPTED'), Type.Literal('DECLINED')]);
export const Proposal = Type.Object(
  {
    id: Type.Integer(),
    status: ProposalStatus,
    placedBy: PlacedBy,
    order: Type.Pick(PlaceBody, ['lines', 'address', 'notes', 'deliveryDate']),
    orderId: Nullable(Type.Integer({ description: 'the order placed when the store accepted it' })),
    createdAt: Timestamp(),
    decidedAt: Nullable(Timestamp()),
  },
  { description: "a seller's order kept for the store's own confirmation: nothing reaches the supplier before a store user accepts it" },
);
export type Proposal = Static<typeof Proposal>;
export const ProposalParams = Type.Object({ storeId: Type.Integer({ minimum: 1 }), proposalId: Type.Integer({ minimum: 1 }) });
export const ProposalList = Type.Object({ data: Type.Array(Proposal) });
export const Accepted = Type.Object({ proposal: Proposal, order: Order });

export const StoreSellerSettings = Type.Object({
  confirmSellerOrders: Type.Boolean({ description: "true: a seller's order waits for one of the store's users to accept it" }),
});
