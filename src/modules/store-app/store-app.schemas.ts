// The store side's shapes: what its routes take and answer, and what its services build.
import { Type, type Static } from 'typebox';
import { Code, Description, Nullable, Page, PageQuery, Timestamp, Units } from '../../lib/schemas.ts';
import { PaymentMethod } from '../credit/credit.schemas.ts';
import { ImageUrls } from '../images/images.schemas.ts';
import { PromotionRef, StoredBonusTier, StoredPromotion } from '../promotions/promotions.schemas.ts';
import { Address, Email, Phone } from '../stores/stores.schemas.ts';
import { NOTIFICATION_TYPES } from './store-app.notifications.types.ts';

/** A promotion the product takes part in, with the one tier field it has, in the shapes the promotion's GET answers. */
export const CatalogPromotion = PromotionRef;
export type CatalogPromotion = Static<typeof CatalogPromotion>;

export const StoreParams = Type.Object({ storeId: Type.Integer({ minimum: 1 }) });
export const CartLine = Type.Object({ productInternalCode: Code(), units: Units(), quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }) });
/** Also the body of the supplier's POST /store/{code}/cart: one cart shape for both sides. */
export const CartBody = Type.Object({
  lines: Type.Array(CartLine, { minItems: 1, maxItems: 500 }),
  deliveryDate: Type.Optional(
    Type.String({
      format: 'calendar-date',
      description:
        "YYYY-MM-DD, checked as placing checks it: the minimum counts the store's other orders for that date. Left out: the zone's first delivery date (none without a zone: the cart counts alone)",
    }),
  ),
});
export const PlaceBody = Type.Object({
  lines: Type.Array(CartLine, { minItems: 1, maxItems: 500 }),
  address: Type.Optional(Address),
  notes: Type.Optional(Description()),
  deliveryDate: Type.Optional(
    Type.String({
      format: 'calendar-date',
      description: "YYYY-MM-DD. With a delivery zone: one of the store's delivery options (default: the first); without one: kept as asked, today or later",
    }),
  ),
  // One of the store's payment methods (its account's paymentMethods; default: the first); a store without any takes none.
  paymentMethod: Type.Optional(PaymentMethod),
  requestApproval: Type.Optional(
    Type.Boolean({
      description: 'on CREDIT: an order the credit cannot take is placed PENDING on credit hold for the supplier to approve, where the supplier allows it, instead of refused',
    }),
  ),
});
export const CatalogQuery = Type.Object({
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  category: Type.Optional(Code()),
  brand: Type.Optional(Code()),
  changedSince: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        "`0`, or the `cursor` of an earlier answer: answer only the items changed since (or every item, with `full: true`, when products or sizes came or went, the promotions taking part changed or the day turned), with the next `cursor`",
    }),
  ),
  ...PageQuery,
});
const Named = (description: string) => Type.Object({ name: Nullable(Type.String({ description })) });
/** A bonus tier naming its gift (a crossed bonus's). */
const NamedBonusTier = Type.Evaluate(
  Type.Intersect([StoredBonusTier, Type.Object({ productName: Type.Optional(Nullable(Type.String({ description: "the gift's name (null for a code the supplier lacks)" }))) })]),
);
/** A promotion taking part for the store: as stored, each product with its `name`, a crossed bonus's gift with its `productName`. */
export const StorePromotion = Type.Object(
  {
    ...Type.Omit(StoredPromotion, ['products', 'bonusTierData', 'bonusTierDataCash']).properties,
    products: Type.Array(Type.Evaluate(Type.Intersect([StoredPromotion.properties.products.items, Named('the product\'s name (null for a code the supplier lacks)')]))),
    bonusTierData: Type.Optional(NamedBonusTier),
    bonusTierDataCash: Type.Optional(NamedBonusTier),
  },
  { description: "a promotion taking part for the store, each product with its `name`, a crossed bonus's gift with its `productName`" },
);
export type StorePromotion = Static<typeof StorePromotion>;
export const StorePromotions = Type.Object({ data: Type.Array(StorePromotion) });
export const CatalogItem = Type.Object({
  internalCode: Type.String(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  brandInternalCode: Type.String(),
  categoryInternalCode: Type.String(),
  // Never the supplier's own image URLs: a buyer's browser loads only what the service stored (README).
  imageUrls: Type.Union([ImageUrls, Type.Null()], {
    description: "the service's versions of the product's image once its image worker stored them; null until then, when the download was refused or failed, or without an image",
  }),
  images: Type.Array(ImageUrls, { description: "the service's versions of the product's other images that are stored, in the supplier's order (the others are left out)" }),
  sizes: Type.Array(Type.Object({ units: Type.Integer(), name: Type.Union([Type.String(), Type.Null()]), price: Type.Number() })),
  promotions: Type.Array(CatalogPromotion),
});
/** One product of the store's catalogue (GET /app/stores/{storeId}/products/{code}): as the catalogue answers it, and its sizes out of stock. */
export const ProductParams = Type.Object({ storeId: Type.Integer({ minimum: 1 }), code: Code() });
export const StoreProduct = Type.Object(
  {
    ...CatalogItem.properties,
    outOfStock: Type.Array(Type.Object({ units: Type.Integer() }), {
      description: "the sizes priced in the store's list that its stock grouper marks unavailable (not in `sizes`: they cannot be ordered today)",
    }),
  },
  { description: 'a product the store can buy, as its catalogue answers it, with the sizes out of stock in its warehouse' },
);
/** A catalogue page; with `changedSince`, the cursor to send next time and whether it is the whole catalogue. */
export const CatalogPage = Type.Object({
  ...Page(CatalogItem).properties,
  cursor: Type.Optional(Type.String({ description: 'only with changedSince: send it as changedSince next time' })),
  full: Type.Optional(
    Type.Boolean({ description: 'only with changedSince: true when this is every item (replace what you kept), false when only the items changed since the cursor' }),
  ),
});
const Choice = { code: Type.String(), name: Type.String() };
export const CatalogFilters = Type.Object(
  {
    categories: Type.Array(Type.Object({ ...Choice, parentCode: Type.Union([Type.String(), Type.Null()], { description: 'the level-1 category of a subcategory; null for a level-1 category' }) }), {
      description: 'level-1 categories by name, each followed by its subcategories by name',
    }),
    brands: Type.Array(Type.Object(Choice), { description: 'by name' }),
  },
  { description: "the categories and brands of the products the store can buy (the catalog's `category` and `brand` filters)" },
);

// Sign-in and the signed-in person.
const Contact = { phone: Type.Optional(Phone()), email: Type.Optional(Email()) };
export const ContactBody = Type.Object(Contact, { description: 'a phone (E.164) or an email' });
/** An operator's search: one of the two at least (both: MUTUALLY_EXCLUSIVE, from the service, as for the bodies). */
export const ContactQuery = Type.Object(Contact, { description: 'a phone (E.164) or an email', anyOf: [{ required: ['phone'] }, { required: ['email'] }] });
export const CodeBody = Type.Object({ ...Contact, code: Type.String({ pattern: '^[0-9]{6}$' }) });
export const CodeSent = Type.Object({ expiresIn: Type.Integer() });
export const SignInSettings = Type.Object({
  countryCode: Type.String({ pattern: '^\\+[1-9][0-9]{0,3}$', description: 'DEFAULT_COUNTRY_CODE: the country calling code a local number typed at sign-in is completed with, e.g. +57' }),
});
export const PersonIdParams = Type.Object({ personId: Type.Integer({ minimum: 1 }) });
export const SignedOut = Type.Object({ ended: Type.Boolean() });
export const SessionsEnded = Type.Object({ personId: Type.Integer(), sessionsEndedAt: Timestamp() });
export const StoreUserFound = Type.Object({
  person: Type.Union([
    Type.Object({
      id: Type.Integer(),
      phone: Nullable(Type.String()),
      email: Nullable(Type.String()),
      name: Nullable(Type.String()),
      sessionsEndedAt: Nullable(Type.String({ format: 'date-time', description: 'when an operator last ended their sessions' })),
      createdAt: Timestamp(),
    }),
    Type.Null(),
  ], { description: 'null until someone signs in with this phone or email' }),
  memberships: Type.Array(
    Type.Object({
      supplier: Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() }),
      store: Type.Object({ id: Type.Integer(), internalCode: Type.String(), name: Type.String() }),
      phone: Nullable(Type.String()),
      email: Nullable(Type.String()),
      name: Nullable(Type.String()),
    }),
    { description: 'every store membership naming the phone or email, of every supplier (at most 500)' },
  ),
});
export const TokenResponse = Type.Object({ access_token: Type.String(), token_type: Type.Literal('Bearer'), expires_in: Type.Integer() });
export const Me = Type.Object({
  user: Type.Object({
    phone: Nullable(Type.String()),
    email: Nullable(Type.String()),
    name: Nullable(Type.String()),
    language: Type.Union([Type.Literal('es'), Type.Literal('pt-BR'), Type.Literal('en'), Type.Null()], {
      description: 'the language the person saved (PUT /app/me/preferences), which the apps adopt at sign-in; null until they save preferences',
    }),
  }),
  stores: Type.Array(
    Type.Object({
      id: Type.Integer({ description: "the platform's id of the store" }),
      internalCode: Type.String(),
      name: Type.String(),
      supplier: Type.Object({ code: Type.String(), name: Type.String() }),
      enabled: Type.Boolean(),
      access: Type.Optional(
        Type.Literal('SELLER', {
          description: "only on a store the person reaches as its supplier's seller (src/modules/sellers): they may read and order as a buyer, and their orders carry placedBy; absent: one of the store's users",
        }),
      ),
    }),
  ),
  settings: Type.Object(
    {
      currency: Type.String({ description: 'ISO 4217 code of the platform currency (CURRENCY)' }),
      currencyDecimals: Type.Integer({ description: "digits of the currency's smallest unit (CURRENCY_DECIMALS)" }),
      locale: Type.String({ description: "the apps' default BCP 47 locale (LOCALE)" }),
      timezone: Type.String({ description: "the platform's IANA timezone (TIMEZONE): calendar dates are in it" }),
    },
    { description: 'how the app shows money and dates' },
  ),
});
export const MintedToken = Type.Object({
  access_token: Type.Optional(Type.String({ description: 'absent from an Idempotency-Key replay, which carries `note` instead' })),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  note: Type.Optional(Type.String({ description: 'on an Idempotency-Key replay only: the token was shown once and is not repeated' })),
});

// Notifications.
export const Notification = Type.Object({
  id: Type.Integer(),
  type: Type.Enum(NOTIFICATION_TYPES),
  store: Type.Object({ id: Type.Integer(), internalCode: Type.String(), name: Type.String() }),
  ticketId: Nullable(Type.Integer()),
  orderId: Nullable(Type.Integer()),
  message: Nullable(Type.String({ description: "the supplier's message, when the action carried one" })),
  packages: Type.Optional(
    Type.Object(
      { delivered: Type.Integer(), ordered: Type.Integer() },
      { description: 'ORDER_DELIVERED only: the packages delivered and ordered over every line; fewer delivered is a partial delivery' },
    ),
  ),
  createdAt: Timestamp(),
  read: Type.Boolean({ description: 'whether this person marked it read' }),
});

export const NotificationQuery = Type.Object({
  unread: Type.Optional(Type.Boolean({ description: 'true: only the ones this person has not read' })),
  ...PageQuery,
});

export const ReadBody = Type.Object({ ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 500 }) });
export const ReadAnswer = Type.Object({ read: Type.Array(Type.Integer(), { description: 'the ids now marked read for this person' }) });

export const StoreCancelCodes = Type.Object({
  data: Type.Array(Type.Object({ code: Type.String(), reason: Type.String() }), { description: "the supplier's STORE codes, in the supplier's order" }),
});
