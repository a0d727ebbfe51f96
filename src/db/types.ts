// Table types for Kysely, kept by hand beside the migrations (one place, checked by
// the compiler wherever a query touches a column). Generated<> marks defaults.
// test/foundation/db-types.test.ts checks them against the migrated database.
import type { ColumnType, Generated } from 'kysely';

/** timestamptz without a default: an insert must give it (`| null` makes it optional, as null). */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** numeric columns come back as exact decimal strings; written as strings or numbers. */
type Numeric = ColumnType<string, string | number, string | number>;

export interface CancelCode {
  code: string;
  reason: string;
  usage: 'STORE' | 'SUPPLIER';
}

export interface SuppliersTable {
  id: Generated<number>;
  code: string;
  name: string;
  minimum_order: Numeric | null;
  cancel_codes: ColumnType<CancelCode[] | null, string | null | undefined, string | null>;
  enabled: Generated<boolean>;
  /** Days a store's order guide looks back (migration 0040; src/modules/order-guide/README.md). */
  order_guide_days: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** Set: this row is that live supplier's test twin (migration 0037; src/modules/sandbox/README.md). */
  live_supplier_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A twin's moved time (migration 0037): now = set_now + (real now - set_at). */
export interface SandboxClocksTable {
  supplier_id: number;
  set_now: Timestamp;
  set_at: Timestamp;
}

export interface ApiClientsTable {
  client_id: string;
  supplier_id: number;
  api_key_hash: string;
  secret_hash: string;
  scopes: string[];
  created_at: Generated<Date>;
  revoked_at: Timestamp | null;
}

export interface SupplierWebhooksTable {
  supplier_id: number;
  base_url: string | null;
  enabled: Generated<boolean>;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Timestamp | null;
  updated_at: Generated<Date>;
  /** The opt-in event types the supplier subscribed to (migration 0034; src/modules/webhooks/README.md). */
  events: Generated<string[]>;
}

export interface PlatformSecretsTable {
  name: string;
  value: string;
  created_at: Generated<Date>;
}

export interface IdempotencyKeysTable {
  owner: string;
  key: string;
  request_hash: string;
  state: 'in_progress' | 'done';
  response_status: number | null;
  response_body: string | null;
  created_at: Generated<Date>;
}

export interface BatchItem {
  action: string;
  /** As the client sent it (an object, or a bare code in a promotion batch's remove.internalCodes). */
  item: unknown;
}

export interface BatchesTable {
  id: string;
  supplier_id: number;
  seq: Generated<number>;
  endpoint: string;
  /**
   * The items alone, in order; `actions` names each one's action (repository, "storage").
   * Null for a staged kind, whose items are rows of its staging table (batch README, "Staging").
   */
  items: ColumnType<unknown[] | null, string | null, string | null>;
  /** Runs of consecutive items with one action: [action, count], in order. */
  actions: ColumnType<[string, number][], string, string>;
  total: number;
  cursor: Generated<number>;
  completed: Generated<number>;
  failed: Generated<number>;
  status: Generated<'processing' | 'processed' | 'failed'>;
  chunk_size: number;
  chunk_finished_at: Generated<Date[]>;
  created_at: Generated<Date>;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  attempts: Generated<number>;
  last_error: string | null;
  lease_owner: string | null;
  lease_expires_at: Timestamp | null;
  /** Both null: the batch's keys are unknown and it waits for every earlier batch of its supplier. */
  key_min: string | null;
  key_max: string | null;
  /** The W3C traceparent of the request that sent the batch (null with tracing off). */
  traceparent: ColumnType<string | null, string | null | undefined, string | null>;
}

/** POST /batch/pricelist's items, staged (migration 0023; pricelists.batch.ts). */
/**
 * POST /batch/pricelist's staged items, a row per chunk of a batch (migration 0026; batch
 * README, "Staging"): element n of `list_ix`, `code_ix`, `units` and `prices` is the
 * chunk's item n (1-based); its list code is lists[list_ix[n]] and its product's code
 * (entries) or store's (store links) codes[code_ix[n]].
 */
/** POST /batch/product's staged items, a row per chunk (migration 0030); one element per item unless named. */
export interface BatchProductChunksTable {
  batch_seq: number;
  chunk: number;
  codes: string[];
  names: string[];
  descriptions: (string | null)[];
  /** The chunk's brand codes, each once; brand_ix is each item's 1-based place among them. */
  brands: string[];
  brand_ix: number[];
  categories: string[];
  category_ix: number[];
  image_urls: (string | null)[];
  /** json: one array with each item's images (null when not sent). */
  images: ColumnType<(string[] | null)[], string, string>;
  eans: (string | null)[];
  enabled: (boolean | null)[];
  /** json: one array with each item's displayProducts (null when not sent). */
  display_products: ColumnType<(unknown[] | null)[], string, string>;
  /** Which of description (1), image (2), ean (4), minUnits (8), maxUnits (16) and multiple (32) the item sent (null included). */
  sent: number[];
  /** Each item's case rules (migration 0041); null in chunks staged before it. */
  min_units: (number | null)[] | null;
  max_units: (number | null)[] | null;
  multiples: (number | null)[] | null;
}

/** POST /batch/store's staged items, a row per chunk (migration 0031); one element per item unless named. */
export interface BatchStoreChunksTable {
  batch_seq: number;
  chunk: number;
  codes: string[];
  names: string[];
  legal_names: (string | null)[];
  legal_ids: (string | null)[];
  owner_names: (string | null)[];
  phones: (string | null)[];
  emails: (string | null)[];
  enabled: (boolean | null)[];
  /** json: one array with each item's addresses (null when not sent). */
  addresses: ColumnType<(unknown[] | null)[], string, string>;
  /** numeric[], as exact decimal strings. */
  drop_sizes: (string | null)[];
  /** The chunk's price list codes, each once (null too); price_list_ix is each item's 1-based place among them. */
  price_lists: (string | null)[];
  price_list_ix: number[];
  stock_groupers: (string | null)[];
  stock_grouper_ix: number[];
  /** json: one array with each item's promotionGrouperCodes (null when not sent). */
  promotion_groupers: ColumnType<(string[] | null)[], string, string>;
  /** Which fields the item sent, null included (migration 0031). */
  sent: number[];
  /** deliveryZoneCode, staged like price_lists (migration 0034); null in chunks staged before it. */
  delivery_zones: (string | null)[] | null;
  delivery_zone_ix: number[] | null;
  /** json: one array with each item's credit (null when not sent or sent as null; `sent` bit 1024), migration 0042; null in chunks staged before it. */
  credits: ColumnType<(unknown | null)[] | null, string | null | undefined, string | null>;
}

export interface BatchPriceChunksTable {
  batch_seq: number;
  /** The chunk's number in its batch: its first item is chunk × the batch's chunk_size. */
  chunk: number;
  lists: string[];
  list_ix: number[];
  codes: string[];
  code_ix: number[];
  units: (number | null)[];
  /** numeric[], as exact decimal strings. */
  prices: (string | null)[];
}

export interface BatchItemResultsTable {
  supplier_id: number;
  batch_id: string;
  idx: number;
  status: 'completed' | 'failed';
  error_code: string | null;
  message: string | null;
}

/** A brand's columns; a category has them and its parent. */
export interface BrandsTable {
  id: Generated<number>;
  supplier_id: number;
  internal_code: string;
  name: string;
  weight: number | null;
  image: string | null;
  enabled: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface CategoriesTable extends BrandsTable {
  parent_id: number | null;
}

export interface DisplayProduct {
  units: number;
  name: string;
  default?: boolean;
}

export interface ProductsTable {
  id: Generated<number>;
  supplier_id: number;
  internal_code: string;
  name: string;
  description: string | null;
  brand_id: number;
  category_id: number;
  image: string | null;
  images: Generated<string[]>;
  enabled: Generated<boolean>;
  ean: string | null;
  display_products: ColumnType<DisplayProduct[], string, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** Case rules in units (migration 0041; src/modules/pricing/README.md); null: no rule. */
  min_units: number | null;
  max_units: number | null;
  multiple: number | null;
}

export interface PriceListsTable {
  id: Generated<number>;
  supplier_id: number;
  internal_code: string;
  name: string | null;
  enabled: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface PriceEntriesTable {
  supplier_id: number;
  price_list_id: number;
  product_id: number;
  units: number;
  price: Numeric;
  updated_at: Generated<Date>;
}

export interface StoreAddress {
  street: string;
  city: string;
  state?: string;
  country?: string;
  postalCode?: string;
  latitude?: number;
  longitude?: number;
  default?: boolean;
}

export interface StoresTable {
  id: Generated<number>;
  supplier_id: number;
  internal_code: string;
  name: string;
  legal_name: string | null;
  legal_id: string | null;
  owner_name: string | null;
  phone: string | null;
  email: string | null;
  addresses: ColumnType<StoreAddress[], string | undefined, string>;
  drop_size: Numeric | null;
  enabled: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** The store's delivery zone (migration 0034); null: none, today's behaviour. */
  delivery_zone_id: number | null;
  /** The store confirms its sellers' orders itself (migration 0043, src/modules/sellers). */
  confirm_seller_orders: Generated<boolean>;
}

export interface DeliveryDay {
  /** ISO weekday: 1 Monday ... 7 Sunday. */
  weekday: number;
  cutoff: { daysBefore: number; time: string };
}

export type DeliveryException = { date: string; closed: true } | { date: string; movedTo: string };

export interface MinimumOrderRule {
  amount: number;
  mode: 'hard' | 'soft' | 'fee';
  fee?: number;
}

export interface DeliveryZonesTable {
  id: Generated<number>;
  supplier_id: number;
  internal_code: string;
  name: string;
  timezone: string;
  cutoff_mode: 'strict' | 'flexible';
  days: ColumnType<DeliveryDay[], string, string>;
  exceptions: ColumnType<DeliveryException[], string | undefined, string>;
  minimum_order: ColumnType<MinimumOrderRule | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A (zone, delivery date) whose cut-off was reached and announced (migration 0034). */
export interface DeliveryCutoffsTable {
  zone_id: number;
  delivery_date: string;
  supplier_id: number;
  cutoff_at: Timestamp;
  order_count: number;
  reached_at: Generated<Date>;
}

export interface PriceListStoresTable {
  supplier_id: number;
  store_code: string;
  price_list_id: number;
  created_at: Generated<Date>;
}

export type GrouperKind = 'promotion' | 'stock';

export interface GroupersTable {
  id: Generated<number>;
  supplier_id: number;
  kind: GrouperKind;
  internal_code: string;
  name: string;
  enabled: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface GrouperStoresTable {
  supplier_id: number;
  grouper_id: number;
  kind: GrouperKind;
  store_code: string;
  created_at: Generated<Date>;
}

export interface StockRulesTable {
  supplier_id: number;
  grouper_id: number;
  product_id: number;
  units: number;
  available: boolean;
  updated_at: Generated<Date>;
}

export interface PeopleTable {
  id: Generated<number>;
  phone: string | null;
  email: string | null;
  name: string | null;
  sessions_revoked_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface StoreUsersTable {
  id: Generated<number>;
  supplier_id: number;
  store_id: number;
  phone: string | null;
  email: string | null;
  name: string | null;
  created_at: Generated<Date>;
}

export interface SignInCodesTable {
  id: Generated<number>;
  identifier: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
  /** The signed-in person proving a second identifier; null for a sign-in code. */
  person_id: number | null;
  /** Whose code: a store user's (the shop) or a member's or operator's (the console). */
  realm: Generated<CodeRealm>;
  created_at: Generated<Date>;
  /** The client network that asked for it (src/lib/client-network.ts); null before migration 0036. */
  requested_from: string | null;
  /** Wrong guesses from other networks (`attempts` counts the asking network's). */
  foreign_attempts: Generated<number>;
}

export type CodeRealm = 'store' | 'console';

export type PromotionType = 'DISCOUNT_SIMPLE' | 'DISCOUNT_MULTIPLE' | 'BONUS_INDIVIDUAL' | 'BONUS_CROSSED';
export type PromotionTierKind = 'discountTiersData' | 'discountTiersDataCash' | 'bonusTierData' | 'bonusTierDataCash';

export interface PromotionsTable {
  id: Generated<number>;
  supplier_id: number;
  internal_code: string;
  type: PromotionType;
  name: string;
  title: string | null;
  description: string | null;
  image: string | null;
  enabled: boolean;
  /** 'YYYY-MM-DD' (the driver leaves dates as text). */
  start_date: string;
  end_date: string;
  tier_kind: PromotionTierKind;
  /** The tier field as sent: an array of discount tiers or one bonus tier object. */
  tiers: ColumnType<unknown, string, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface PromotionProductsTable {
  supplier_id: number;
  promotion_id: number;
  product_id: number;
  box_ratio: Numeric;
  position: number;
}

export interface PromotionGroupersTable {
  supplier_id: number;
  promotion_id: number;
  grouper_id: number;
}

export type ImageStatus = 'pending' | 'ready' | 'failed';

/** One stored file of an image: its name under /images/<content_hash>/ and its size in pixels. */
export interface StoredImageFile {
  file: string;
  contentType: string;
  width: number;
  height: number;
  bytes: number;
}

/** The stored files of a ready image: the original and one WebP version per width. */
export type StoredImageVariants = Record<'original' | '160' | '480' | '1024', StoredImageFile>;

export interface ImagesTable {
  id: Generated<number>;
  supplier_id: number;
  url: string;
  status: Generated<ImageStatus>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  lease_owner: string | null;
  lease_expires_at: Timestamp | null;
  error: string | null;
  content_hash: string | null;
  variants: ColumnType<StoredImageVariants | null, string | null, string | null>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type OrderStatus = 'PENDING' | 'CONFIRMED' | 'DELIVERED' | 'RETURNED' | 'CANCELLED';

type Json<T> = ColumnType<T, string, string>;

export interface OrdersTable {
  id: Generated<number>;
  supplier_id: number;
  store_id: number;
  status: OrderStatus;
  external_id: string | null;
  imported: Generated<boolean>;
  buyer: Json<unknown>;
  address: ColumnType<unknown, string | null, string | null>;
  price_list_code: string | null;
  products: Json<unknown[]>;
  promotions: ColumnType<unknown, string | undefined, string>;
  subtotal: Numeric;
  discount_total: Numeric;
  total: Numeric;
  delivery_date: string | null;
  notes: string | null;
  cancellation: ColumnType<unknown, string | null | undefined, string | null>;
  history: Json<unknown[]>;
  placed_by: number | null;
  /** The seller who placed it, as they were then (migration 0043); null for every other order. */
  seller: ColumnType<OrderSeller | null, string | null | undefined, string | null>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: Generated<Date>;
  /** The zone the order was placed for, and whether after its date's cut-off (migration 0034); null without a zone. */
  delivery_zone_id: number | null;
  after_cutoff: boolean | null;
  /** The fee charged below a zone's minimum in fee mode, included in total (migration 0041); null otherwise. */
  delivery_fee: Numeric | null;
  /** How the store pays it (migration 0042); null: the store had no payment methods (every order before credit). */
  payment_method: PaymentMethod | null;
  /** Why an order on credit waits for the supplier (src/modules/credit); null: not held. */
  credit_hold: ColumnType<CreditHold | null, string | null | undefined, string | null>;
}

/** How a store pays an order (src/modules/credit/README.md). */
export type PaymentMethod = 'CASH_ON_DELIVERY' | 'TRANSFER' | 'CREDIT';

/** An order on credit the supplier must release or cancel: why, and since when. */
export interface CreditHold {
  reason: 'CREDIT_LIMIT_EXCEEDED' | 'OVERDUE_INVOICES';
  detail: string;
  /** What the order lacked of the available credit (CREDIT_LIMIT_EXCEEDED), exact decimal. */
  shortfall?: number;
  at: string;
}

/** A store's payment methods and credit terms (migration 0042); no row: none, today's behaviour. */
export interface StoreCreditTable {
  store_id: number;
  supplier_id: number;
  payment_methods: PaymentMethod[];
  credit_limit: ColumnType<string, string | number | undefined, string | number>;
  term_days: number | null;
  hold_when_overdue_days: number | null;
  allow_over_limit_with_approval: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** An invoice the ERP relayed (migration 0042); `paid` is the sum of its payments' allocations. */
export interface InvoicesTable {
  id: Generated<number>;
  supplier_id: number;
  store_id: number;
  internal_code: string;
  amount: Numeric;
  paid: ColumnType<string, string | number | undefined, string | number>;
  issued_at: Timestamp;
  due_date: string;
  pdf_url: string | null;
  order_ids: ColumnType<number[], number[] | undefined, number[]>;
  overdue_announced_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface InvoiceOrdersTable {
  supplier_id: number;
  invoice_id: number;
  order_id: number;
}

/** One payment's part for one invoice, as stored in payments.allocations. */
export interface PaymentAllocation {
  invoiceId: number;
  invoiceInternalCode: string;
  amount: number;
}

/** A payment the ERP relayed (migration 0042). */
export interface PaymentsTable {
  id: Generated<number>;
  supplier_id: number;
  store_id: number;
  internal_code: string;
  amount: Numeric;
  method: 'CASH' | 'TRANSFER' | 'CARD';
  collected_by: string | null;
  paid_at: Timestamp;
  allocations: ColumnType<PaymentAllocation[], string | undefined, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A store's pin, hidden flag and par for one product of its order guide (migration 0040). */
export interface OrderGuidePreferencesTable {
  supplier_id: number;
  store_id: number;
  product_code: string;
  pinned: Generated<boolean>;
  hidden: Generated<boolean>;
  par: number | null;
  updated_at: Generated<Date>;
}

export type RecommendationReason = 'NEW' | 'PROMOTION' | 'MUST_STOCK' | 'USUALLY_BOUGHT_TOGETHER';

/** A product of a recommendation, as the supplier sent it. */
export interface RecommendedProduct {
  productInternalCode: string;
  units: number;
  quantity: number;
}

/** A supplier's recommendation (migration 0040; src/modules/recommendations/README.md). */
export interface RecommendationsTable {
  id: Generated<number>;
  supplier_id: number;
  internal_code: string;
  name: string;
  reason: RecommendationReason;
  start_date: string;
  end_date: string;
  /** No store and no grouper named: every store of the supplier. */
  everyone: boolean;
  products: Json<RecommendedProduct[]>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A supplier's seller (migration 0043, src/modules/sellers): identifiers it signs in with, never a person. */
export interface SellersTable {
  id: Generated<number>;
  supplier_id: number;
  internal_code: string;
  name: string;
  phone: string | null;
  email: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A store a seller serves, by code. */
export interface SellerStoresTable {
  seller_id: number;
  supplier_id: number;
  store_code: string;
}

/** Who placed an order as a seller, as they were when it was placed. */
export interface OrderSeller {
  sellerInternalCode: string;
  name: string;
}

export type SellerProposalStatus = 'AWAITING_STORE' | 'ACCEPTED' | 'DECLINED';

/** A seller's order kept for the store's own confirmation (stores.confirm_seller_orders). */
export interface SellerOrderProposalsTable {
  id: Generated<number>;
  supplier_id: number;
  store_id: number;
  seller_id: number | null;
  seller: ColumnType<OrderSeller, string, string>;
  body: ColumnType<unknown, string, string>;
  status: Generated<SellerProposalStatus>;
  order_id: number | null;
  created_at: Generated<Date>;
  decided_at: Date | null;
}

/** Who a recommendation is for: a store code or a promotion grouper code. */
export interface RecommendationTargetsTable {
  recommendation_id: number;
  supplier_id: number;
  kind: 'store' | 'grouper';
  code: string;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookEventsTable {
  supplier_id: number;
  id: Generated<number>;
  message_id: string;
  type: string;
  path: string;
  ordering_key: string | null;
  /** The JSON text sent, exactly as recorded when the event happened. */
  body: string;
  created_at: Generated<Date>;
}

export interface WebhookDeliveriesTable {
  supplier_id: number;
  id: Generated<number>;
  event_id: number;
  event_type: string;
  ordering_key: string | null;
  redelivery_of: number | null;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_status_code: number | null;
  last_error: string | null;
  lease_owner: string | null;
  lease_expires_at: Timestamp | null;
  created_at: Generated<Date>;
  finished_at: Timestamp | null;
  /** The W3C traceparent of the request that caused the delivery (null with tracing off). */
  traceparent: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface WebhookAttemptsTable {
  supplier_id: number;
  delivery_id: number;
  id: Generated<number>;
  at: Timestamp;
  status_code: number | null;
  latency_ms: number;
  response_body: string | null;
  error: string | null;
}

export type TicketStatus = 'PENDING' | 'IN_PROGRESS' | 'ADDITIONAL_INFO_REQUESTED' | 'SOLVED' | 'CLOSED';

export interface TicketMessage {
  from: 'STORE' | 'SUPPLIER';
  message: string;
  at: string;
}

export interface TicketsTable {
  supplier_id: number;
  id: Generated<number>;
  store_id: number;
  opened_by: number | null;
  status: TicketStatus;
  user_message: string;
  external_ticket_id: string | null;
  order_id: number | null;
  resolved_at: Timestamp | null;
  messages: ColumnType<TicketMessage[], string, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface NotificationsTable {
  supplier_id: number;
  id: Generated<number>;
  store_id: number;
  type: string;
  ticket_id: number | null;
  order_id: number | null;
  message: string | null;
  created_at: Generated<Date>;
}

export interface NotificationReadsTable {
  supplier_id: number;
  notification_id: number;
  person_id: number;
  read_at: Generated<Date>;
}

export type MessageChannel = 'email' | 'sms' | 'whatsapp';
export type MessageStatus = 'pending' | 'sent' | 'failed' | 'dropped';

export interface MessagesTable {
  id: Generated<number>;
  purpose: 'code' | 'event';
  to_kind: 'phone' | 'email';
  recipient: string;
  /** The channel the person chose (events); null: chosen by the identifier's kind (codes). */
  channel: MessageChannel | null;
  language: Generated<string>;
  /** Codes: sent only when a person or a membership names the recipient (checked by the worker). */
  only_if_known: Generated<boolean>;
  subject: string | null;
  /** Blanked once a code is sent, dropped or expired. */
  body: string;
  variables: Json<Record<string, string>> | null;
  status: Generated<MessageStatus>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  locked_until: Date | null;
  last_error: string | null;
  sent_via: string | null;
  expires_at: Timestamp | null;
  created_at: Generated<Date>;
  sent_at: Date | null;
  /** Set: a test twin's message, kept in its test inbox and never sent (migration 0037). */
  supplier_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface MessageAttemptsTable {
  id: Generated<number>;
  message_id: number;
  attempt: number;
  channel: string;
  ok: boolean;
  error: string | null;
  duration_ms: number;
  created_at: Generated<Date>;
}

export interface PersonPreferencesTable {
  person_id: number;
  language: Generated<string>;
  channel: MessageChannel | null;
  events: Generated<string[]>;
  updated_at: Generated<Date>;
}

/** A supplier member's role (src/modules/auth/scopes.ts maps each to its scopes). */
export type MemberRole = 'owner' | 'manager' | 'agent' | 'viewer';

export interface SupplierMembersTable {
  id: Generated<number>;
  supplier_id: number;
  email: string;
  role: MemberRole;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface OperatorsTable {
  id: Generated<number>;
  email: string;
  created_at: Generated<Date>;
}

export interface ConsoleSessionsTable {
  /** SHA-256 (hex) of the session id the console token carries (migration 0033). */
  id: string;
  email: string;
  supplier_id: number | null;
  created_at: Generated<Date>;
  last_used_at: Generated<Date>;
  expires_at: Date;
  ends_at: Date;
  revoked_at: Date | null;
  /** The console's test-mode switch (migration 0037): on, supplier calls work on the twin. */
  test_mode: Generated<boolean>;
}

/** A store user's session (migration 0033): named by its token, ended by signing out or by an operator. */
export interface StoreSessionsTable {
  /** SHA-256 (hex) of the session id the store token carries. */
  id: string;
  person_id: number;
  created_at: Generated<Date>;
  expires_at: Date;
  revoked_at: Date | null;
}

export type AuditActorKind = 'credential' | 'operator' | 'person';

export interface AuditEntriesTable {
  id: Generated<number>;
  at: Generated<Date>;
  supplier_id: number | null;
  actor_kind: AuditActorKind;
  actor_id: string;
  operation: string;
  entity: string;
  entity_id: string | null;
  detail: ColumnType<unknown, string | null, string | null>;
  request_id: string | null;
  client_address: string | null;
}

/** An uploaded file read into batches (src/modules/imports, migration 0022). */
export interface ImportsTable {
  id: string;
  supplier_id: number;
  seq: Generated<number>;
  /** The import kind's name (src/integrator/kinds.ts): `products`, `prices`... */
  kind: string;
  remove: boolean;
  format: 'csv' | 'jsonl';
  file_name: string;
  delimiter: string;
  /** The CSV header as read; null for JSON Lines. */
  header: ColumnType<string[] | null, string | null, string | null>;
  uploaded_by_kind: 'person' | 'credential';
  uploaded_by: string;
  rows_read: number;
  refused: number;
  sent: number;
  created_at: Generated<Date>;
}

/** A run of an import's rows: items `first_idx`.. of one batch, or (batch_id null) rows refused before sending. */
export interface ImportPartsTable {
  import_id: string;
  part: number;
  batch_id: string | null;
  first_idx: number;
  lines: number[];
  /** Each row as read: its CSV cells, its JSON value, or its text when it was not JSON. */
  originals: ColumnType<unknown[], string, string>;
  /** Refused rows: each one's problems ([{code, field?, message}]); null for a batch's rows. */
  problems: ColumnType<unknown[] | null, string | null, string | null>;
}

export interface DB {
  suppliers: SuppliersTable;
  sandbox_clocks: SandboxClocksTable;
  api_clients: ApiClientsTable;
  supplier_webhooks: SupplierWebhooksTable;
  platform_secrets: PlatformSecretsTable;
  idempotency_keys: IdempotencyKeysTable;
  batches: BatchesTable;
  batch_item_results: BatchItemResultsTable;
  batch_price_chunks: BatchPriceChunksTable;
  batch_product_chunks: BatchProductChunksTable;
  batch_store_chunks: BatchStoreChunksTable;
  brands: BrandsTable;
  categories: CategoriesTable;
  products: ProductsTable;
  images: ImagesTable;
  price_lists: PriceListsTable;
  price_entries: PriceEntriesTable;
  stores: StoresTable;
  delivery_zones: DeliveryZonesTable;
  delivery_cutoffs: DeliveryCutoffsTable;
  price_list_stores: PriceListStoresTable;
  groupers: GroupersTable;
  grouper_stores: GrouperStoresTable;
  stock_rules: StockRulesTable;
  people: PeopleTable;
  store_users: StoreUsersTable;
  promotions: PromotionsTable;
  promotion_products: PromotionProductsTable;
  promotion_groupers: PromotionGroupersTable;
  sign_in_codes: SignInCodesTable;
  orders: OrdersTable;
  store_credit: StoreCreditTable;
  invoices: InvoicesTable;
  invoice_orders: InvoiceOrdersTable;
  payments: PaymentsTable;
  order_guide_preferences: OrderGuidePreferencesTable;
  recommendations: RecommendationsTable;
  recommendation_targets: RecommendationTargetsTable;
  sellers: SellersTable;
  seller_stores: SellerStoresTable;
  seller_order_proposals: SellerOrderProposalsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  tickets: TicketsTable;
  notifications: NotificationsTable;
  notification_reads: NotificationReadsTable;
  messages: MessagesTable;
  message_attempts: MessageAttemptsTable;
  person_preferences: PersonPreferencesTable;
  audit_entries: AuditEntriesTable;
  supplier_members: SupplierMembersTable;
  operators: OperatorsTable;
  console_sessions: ConsoleSessionsTable;
  store_sessions: StoreSessionsTable;
  imports: ImportsTable;
  import_parts: ImportPartsTable;
}
