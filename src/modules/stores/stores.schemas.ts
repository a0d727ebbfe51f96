import { Type } from 'typebox';
import { Code, Money, Name, Nullable, PageQuery, SearchQuery, Timestamp } from '../../lib/schemas.ts';
import { CreditBody } from '../credit/credit.schemas.ts';

export const Phone = () => Type.String({ pattern: '^\\+[1-9][0-9]{6,14}$', description: 'E.164, e.g. +573001234567' });
export const Email = () => Type.String({ format: 'email', maxLength: 254 });
const Text = (max = 255) => Type.String({ maxLength: max });

/** A store's address; an order's delivery address has the same shape. */
export const Address = Type.Object({
  street: Text(500),
  city: Text(),
  state: Type.Optional(Text()),
  country: Type.Optional(Text(100)),
  postalCode: Type.Optional(Text(50)),
  latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
  longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
  default: Type.Optional(Type.Boolean()),
});

export const StoreInput = Type.Object({
  internalCode: Code(),
  name: Name(),
  legalName: Type.Optional(Nullable(Text())),
  legalId: Type.Optional(Nullable(Text(100))),
  ownerName: Type.Optional(Nullable(Text())),
  phone: Type.Optional(Nullable(Phone())),
  email: Type.Optional(Nullable(Email())),
  enabled: Type.Optional(Type.Boolean()),
  addresses: Type.Optional(Type.Array(Address, { maxItems: 50 })),
  priceListCode: Type.Optional(Nullable(Code())),
  stockGrouperCode: Type.Optional(Nullable(Code())),
  promotionGrouperCodes: Type.Optional(Type.Array(Code(), { maxItems: 1000 })),
  deliveryZoneCode: Type.Optional(Nullable(Code({ description: "the store's delivery zone (src/modules/delivery); null: none" }))),
  settings: Type.Optional(Type.Object({ dropSize: Type.Optional(Nullable(Money())) })),
  // The store's payment methods and credit terms, as PUT /store/{code}/credit writes them; null: none (src/modules/credit).
  credit: Type.Optional(Nullable(CreditBody)),
});
export const StoreBatchBody = Type.Object({ upsert: Type.Array(StoreInput) });

export const UserInput = Type.Object({ phone: Type.Optional(Phone()), email: Type.Optional(Email()), name: Type.Optional(Name()) });
export const UsersBody = Type.Object({ users: Type.Array(UserInput, { minItems: 1, maxItems: 100 }) });

export const StoreUser = Type.Object({ phone: Nullable(Type.String()), email: Nullable(Type.String()), name: Nullable(Type.String()) });
export const StoreUsers = Type.Object({ users: Type.Array(StoreUser) });

export const Store = Type.Object({
  internalCode: Type.String(),
  name: Type.String(),
  legalName: Nullable(Type.String()),
  legalId: Nullable(Type.String()),
  ownerName: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  enabled: Type.Boolean(),
  addresses: Type.Array(Address),
  priceListCode: Nullable(Type.String()),
  stockGrouperCode: Nullable(Type.String()),
  promotionGrouperCodes: Type.Array(Type.String()),
  deliveryZoneCode: Type.Optional(Type.String({ description: "the store's delivery zone; absent when it has none" })),
  settings: Type.Object({ dropSize: Nullable(Type.Number()) }),
  users: Type.Array(StoreUser),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
});

/** A store in a list: GET /store/{code} without its users. */
export const StoreSummary = Type.Omit(Store, ['users']);
export const StoreListQuery = Type.Object({ ...SearchQuery, enabled: Type.Optional(Type.Boolean()), ...PageQuery });
