// A small marketplace for the isolation matrices: supplier A owns one entity of every
// kind a route addresses (several where the entity's state decides what a route may do),
// supplier B owns nothing, supplier C owns one store. Person P1 buys for A's store S1 and
// has orders and tickets there; person P2 buys for A's store S2 and C's store S3.
// Everything of A is named ALPHA-..., so an answer that mentions it is easy to spot.
import { expect } from 'vitest';
import { SUPPLIER_SCOPES } from '../../src/modules/auth/scopes.ts';
import { as, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { memberSession } from '../helpers/console.ts';

export interface Person {
  email: string;
  headers: Record<string, string>;
}

export interface World {
  a: TestSupplier;
  b: TestSupplier;
  /** B again, as its owner's console session (no API key): the matrices run for both. */
  bConsole: TestSupplier;
  c: TestSupplier;
  p1: Person;
  p2: Person;
  /** Platform ids of the stores: S1 and S2 are A's, S3 is C's. */
  stores: { s1: number; s2: number; s3: number };
  codes: {
    category: string;
    subcategory: string;
    brand: string;
    product: string;
    priceList: string;
    promotion: string;
    recommendation: string;
    promotionGrouper: string;
    stockGrouper: string;
    store1: string;
    store2: string;
    /** S2's delivery zone. */
    deliveryZone: string;
    /** A's seller V1, serving S1 (src/modules/sellers). */
    seller: string;
  };
  /** P1's orders at S1, one in each state a supplier operation starts from. */
  orders: { pending: number; confirmed: number; delivered: number; cancelled: number };
  /** P1's tickets at S1; `pending` carries externalTicketId `externalTicketId`. */
  tickets: { pending: number; infoRequested: number; closed: number };
  externalTicketId: string;
  /** A batch of A's, and a webhook delivery of A's. */
  batchId: string;
  deliveryId: number;
  /** A's sellers as signed-in people: V1 serves S1, V2 serves S2 only (src/modules/sellers). */
  v1: Person;
  v2: Person;
  /** V1's order kept for S1's confirmation (S1 confirms its sellers' orders while it is made). */
  proposalId: number;
  /** Notifications P1 has at S1. */
  notificationIds: number[];
  /** A's file import (a prices CSV with a row naming a product nobody has), finished. */
  importId: string;
  /** A's member `agent.alpha@example.com`, and a spare credential of A's. */
  memberId: number;
  spareClientId: string;
}

const ok = (res: { statusCode: number; body: string }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return JSON.parse(res.body);
};

async function batch(t: TestApp, s: TestSupplier, url: string, body: unknown): Promise<string> {
  const { ids, statuses } = await t.runBatch(s, url, body);
  for (const status of statuses) expect(status.failed, JSON.stringify(status)).toBe(0);
  return ids[0]!;
}

async function person(t: TestApp, s: TestSupplier, storeCode: string, email: string): Promise<Person> {
  ok(await as(t, s, 'POST', `/store/${storeCode}/add/user`, { users: [{ email, name: email }] }));
  const token = ok(await t.admin('POST', '/admin/store-users/token', { email }));
  return { email, headers: { authorization: `Bearer ${token.access_token}` } };
}

export const asPerson = (t: TestApp, p: Person, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  t.request({ method, url, payload: payload as never, headers: p.headers });

export async function buildWorld(t: TestApp): Promise<World> {
  // A and B hold every scope, the owner-only ones too: B's 404s are then tenancy, never a missing scope.
  const a = await t.supplier(undefined, [...SUPPLIER_SCOPES]);
  const b = await t.supplier(undefined, [...SUPPLIER_SCOPES]);
  const c = await t.supplier();
  const codes = {
    category: 'ALPHA-C',
    subcategory: 'ALPHA-SC',
    brand: 'ALPHA-B',
    product: 'ALPHA-P',
    priceList: 'ALPHA-PL',
    promotion: 'ALPHA-PROMO',
    recommendation: 'ALPHA-REC',
    promotionGrouper: 'ALPHA-G',
    stockGrouper: 'ALPHA-W',
    store1: 'ALPHA-S1',
    store2: 'ALPHA-S2',
    deliveryZone: 'ALPHA-Z',
    seller: 'ALPHA-V',
  };
  ok(await as(t, a, 'PUT', '/category', { internalCode: codes.category, name: 'ALPHA category' }));
  ok(await as(t, a, 'PUT', '/subcategory', { internalCode: codes.subcategory, name: 'ALPHA subcategory', parentCategoryInternalCode: codes.category }));
  await batch(t, a, '/batch/brand', { upsert: [{ internalCode: codes.brand, name: 'ALPHA brand' }] });
  await batch(t, a, '/batch/product', {
    upsert: [{ internalCode: codes.product, name: 'ALPHA product', brandInternalCode: codes.brand, categoryInternalCode: codes.subcategory, displayProducts: [{ units: 1, name: 'Unit' }] }],
  });
  ok(await as(t, a, 'POST', '/pricelist', { internalCode: codes.priceList }));
  ok(await as(t, a, 'POST', '/grouper/promotion', { internalCode: codes.promotionGrouper, name: 'ALPHA segment' }));
  ok(await as(t, a, 'POST', '/grouper/stock', { internalCode: codes.stockGrouper, name: 'ALPHA warehouse' }));
  const address = { street: 'Calle 1', city: 'Bogotá', default: true };
  // Every day, so S2 always has delivery options; S1 has no zone (its orders below take no date).
  const everyDay = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, cutoff: { daysBefore: 1, time: '18:00' } }));
  ok(await as(t, a, 'PUT', `/deliveryzone/${codes.deliveryZone}`, { name: 'ALPHA zone', timezone: 'America/Bogota', days: everyDay }));
  const batchId = await batch(t, a, '/batch/store', {
    upsert: [codes.store1, codes.store2].map((internalCode) => ({
      internalCode,
      name: `${internalCode} store`,
      priceListCode: codes.priceList,
      promotionGrouperCodes: [codes.promotionGrouper],
      addresses: [address],
      ...(internalCode === codes.store2 ? { deliveryZoneCode: codes.deliveryZone } : {}),
    })),
  });
  await batch(t, a, '/batch/pricelist', { upsert: { products: [{ priceListInternalCode: codes.priceList, productInternalCode: codes.product, units: 1, price: 1000 }] } });
  ok(
    await as(t, a, 'PUT', '/promotion/discount/simple', {
      internalCode: codes.promotion,
      name: 'ALPHA promotion',
      start: '2000-01-01',
      end: '2099-12-31',
      enabled: true,
      promotionGrouperCodes: [codes.promotionGrouper],
      products: { internalCode: codes.product },
      discountTiersData: [{ min: 10, discountPercentage: 5 }],
    }),
  );
  ok(
    await as(t, a, 'PUT', `/recommendation/${codes.recommendation}`, {
      name: 'ALPHA recommendation',
      reason: 'MUST_STOCK',
      start: '2000-01-01',
      end: '2099-12-31',
      storeInternalCodes: [codes.store1],
      promotionGrouperCodes: [codes.promotionGrouper],
      products: [{ productInternalCode: codes.product, units: 1, quantity: 3 }],
    }),
  );
  await batch(t, c, '/batch/store', { upsert: [{ internalCode: 'GAMMA-S3', name: 'GAMMA store', addresses: [address] }] });

  const p1 = await person(t, a, codes.store1, 'p1.alpha@example.com');
  const p2 = await person(t, a, codes.store2, 'p2@example.com');
  await as(t, c, 'POST', '/store/GAMMA-S3/add/user', { users: [{ email: p2.email }] });
  const storeOf = async (p: Person, code: string) =>
    ok(await asPerson(t, p, 'GET', '/app/me')).stores.find((s: { internalCode: string }) => s.internalCode === code).id as number;
  const stores = { s1: await storeOf(p1, codes.store1), s2: await storeOf(p2, codes.store2), s3: await storeOf(p2, 'GAMMA-S3') };

  const place = async () => ok(await asPerson(t, p1, 'POST', `/app/stores/${stores.s1}/orders`, { lines: [{ productInternalCode: codes.product, units: 1, quantity: 2 }] })).id as number;
  const orders = { pending: await place(), confirmed: await place(), delivered: await place(), cancelled: await place() };
  ok(await as(t, a, 'PUT', `/order/${orders.confirmed}/confirm`, {}));
  ok(await as(t, a, 'PUT', `/order/${orders.delivered}/confirm`, {}));
  ok(await as(t, a, 'PUT', `/order/${orders.delivered}/deliver`, { complete: true }));
  ok(await asPerson(t, p1, 'POST', `/app/orders/${orders.cancelled}/cancel`, { cancelCode: 'NEW_ORDER' }));

  const open = async (message: string, orderId?: number) => ok(await asPerson(t, p1, 'POST', `/app/stores/${stores.s1}/tickets`, { message, orderId })).id as number;
  const tickets = { pending: await open('ALPHA missing boxes', orders.delivered), infoRequested: await open('ALPHA wrong product'), closed: await open('ALPHA late') };
  const externalTicketId = 'ALPHA-EXT-1';
  ok(await as(t, a, 'PUT', `/support/ticket/${tickets.pending}`, { externalTicketId }));
  ok(await as(t, a, 'POST', '/support/ticket/additional-info', { ticketId: tickets.infoRequested, message: 'A photo?' }));
  ok(await as(t, a, 'PUT', '/support/ticket/close', { ticketId: tickets.closed, message: 'Refunded' }));
  // A's account with S1 (src/modules/credit): the delivered order's invoice, partly paid, so B's reads of accounts have something of A's to leak.
  await batch(t, a, '/batch/invoice', {
    upsert: [{ internalCode: 'ALPHA-F1', storeInternalCode: codes.store1, orderIds: [orders.delivered], amount: 2000, issuedAt: '2026-01-01T00:00:00.000Z', dueDate: '2026-01-15' }],
  });
  await batch(t, a, '/batch/payment', {
    upsert: [{ internalCode: 'ALPHA-P1', storeInternalCode: codes.store1, amount: 500, method: 'CASH', paidAt: '2026-01-10T00:00:00.000Z', allocations: [{ invoiceInternalCode: 'ALPHA-F1', amount: 500 }] }],
  });

  // A's sellers: V1 serves S1 and has an order waiting for S1's confirmation; V2 serves S2 only.
  ok(await as(t, a, 'PUT', `/seller/${codes.seller}`, { name: 'ALPHA seller', email: 'v1.alpha@example.com', storeInternalCodes: [codes.store1] }));
  ok(await as(t, a, 'PUT', '/seller/ALPHA-V2', { name: 'ALPHA seller two', email: 'v2.alpha@example.com', storeInternalCodes: [codes.store2] }));
  const signedIn = async (email: string): Promise<Person> => ({ email, headers: { authorization: `Bearer ${ok(await t.admin('POST', '/admin/store-users/token', { email })).access_token}` } });
  const v1 = await signedIn('v1.alpha@example.com');
  const v2 = await signedIn('v2.alpha@example.com');
  ok(await asPerson(t, p1, 'PUT', `/app/stores/${stores.s1}/seller-settings`, { confirmSellerOrders: true }));
  const proposalId = ok(await asPerson(t, v1, 'POST', `/app/stores/${stores.s1}/orders`, { lines: [{ productInternalCode: codes.product, units: 1, quantity: 2 }] }), 202).id as number;
  ok(await asPerson(t, p1, 'PUT', `/app/stores/${stores.s1}/seller-settings`, { confirmSellerOrders: false }));

  const deliveries = ok(await as(t, a, 'GET', '/webhook/deliveries')).data as { id: number }[];
  expect(deliveries.length).toBeGreaterThan(0);
  const notifications = ok(await asPerson(t, p1, 'GET', '/app/notifications')).data as { id: number }[];
  expect(notifications.length).toBeGreaterThan(0);
  const imported = await t.request({
    method: 'POST',
    url: '/import/prices?name=ALPHA-prices.csv',
    headers: { ...a.headers, 'content-type': 'text/csv' },
    payload: `priceListInternalCode,productInternalCode,units,price\n${codes.priceList},${codes.product},6,5000\n${codes.priceList},ALPHA-GONE,1,10\n`,
  });
  const importId = ok(imported, 202).id as string;
  await t.waitForBatches(a, ok(imported, 202).batchIds);
  const memberId = ok(await as(t, a, 'POST', '/member', { email: 'agent.alpha@example.com', role: 'agent' })).id as number;
  const spareClientId = ok(await as(t, a, 'POST', '/credential', { scopes: ['supplier/batch.read'] })).clientId as string;
  const bConsole = await memberSession(t, b, 'owner.beta@example.com', 'owner');
  // A's webhook settings, last (disabled: nothing is sent), so B's GET /webhook has something of A's to leak.
  ok(await t.admin('PUT', `/admin/suppliers/${a.id}/webhook`, { baseUrl: 'https://alpha.example/erp', enabled: false }));

  return {
    a,
    b,
    bConsole,
    c,
    p1,
    p2,
    stores,
    codes,
    orders,
    tickets,
    externalTicketId,
    batchId,
    deliveryId: deliveries[0]!.id,
    v1,
    v2,
    proposalId,
    notificationIds: notifications.map((n) => n.id),
    importId,
    memberId,
    spareClientId,
  };
}

/** Missing identifiers of each kind: nobody's. */
export const MISSING = { code: 'NOBODY-HAS-THIS', id: 2_000_000_000, uuid: '00000000-0000-4000-8000-00000000dead' } as const;

/**
 * The answer with everything that may differ between two requests for two identifiers
 * taken out: the request id, and the identifier itself wherever the answer repeats it.
 */
export function comparable(res: { statusCode: number; headers: Record<string, unknown>; body: string }, id: string | number) {
  const text = String(id).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(?<![\\w-])${text}(?![\\w-])`, 'g');
  const scrub = (v: unknown): unknown =>
    typeof v === 'string'
      ? v.replace(pattern, '<id>')
      : typeof v === 'number' && String(v) === String(id)
        ? '<id>'
        : Array.isArray(v)
          ? v.map(scrub)
          : v && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'requestId').map(([k, x]) => [k, scrub(x)]))
            : v;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, contentType: res.headers['content-type'], body: scrub(body) };
}
