// Recorded answers: the safety net of a refactor that must not change what the service
// answers. The test builds one small, fixed marketplace through the real HTTP API (fixed
// codes, every batch waited for), then sends a fixed list of requests covering every kind
// of answer of the supplier API, the store app's /app API and the admin API, error answers
// and batch answers included. Each answer (status, content type, body) is normalised —
// what differs from run to run (ids, uuids, tokens, keys, secrets, request ids, times) is
// replaced by a stable placeholder, the same value always by the same one — and compared
// with test/fixtures/recorded-answers.json.
//
// To record the fixture again (after a change that is meant to change an answer; look at
// the diff of the fixture before committing it):
//
//   RECORD_ANSWERS=1 npx vitest run test/foundation/recorded-answers.test.ts
//
// The answers are the same on PGlite and on PostgreSQL (DATABASE_URL set): record on
// either, check on both.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { priceEntries } from '../helpers/fixtures.ts';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/recorded-answers.json');
const RECORDING = process.env.RECORD_ANSWERS === '1';

interface Recorded {
  name: string;
  request: string;
  status: number;
  contentType: string | null;
  body: unknown;
}

// ---------------------------------------------------------------------------------------
// Normalisation
// ---------------------------------------------------------------------------------------

/**
 * Replaces what varies between runs by placeholders. Equal values get equal placeholders
 * (numbered in order of first appearance, per kind), so "this answer names the same order
 * as that one" is still checked; different values get different ones.
 *
 * - database ids become `<order:1>`, `<store:1>`, ...: the kind comes from the key
 *   (`orderId`, `storeId`, `ticketId`, `supplierId`, `redeliveryOf`; an audit entry's
 *   `entityId` takes its `entity`), from the enclosing key (`stores[].id`, `store.id`),
 *   or, for the answer's own `id` and its list's `data[].id`, from the request's path;
 *   numbers in a request's path take the kind of the segment before them;
 * - uuids (batch ids), JWTs, API keys, client ids and secrets, webhook secrets and
 *   message ids become `<uuid:1>`, `<jwt:1>`, `<key:1>`, `<cli:1>`, `<sec:1>`,
 *   `<whsec:1>`, `<msg:1>`;
 * - timestamps become `<timestamp>`, a request id `<request-id>`, a measured latency
 *   `<ms>`, the local webhook receiver's port `<port>`.
 */
class Normaliser {
  private readonly maps = new Map<string, Map<string, string>>();

  placeholder(kind: string, value: string | number): string {
    let map = this.maps.get(kind);
    if (!map) this.maps.set(kind, (map = new Map()));
    let p = map.get(String(value));
    if (!p) map.set(String(value), (p = `<${kind}:${map.size + 1}>`));
    return p;
  }

  text(s: string): string {
    return s
      .replace(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, (m) => this.placeholder('jwt', m))
      .replace(/\bwhsec_[A-Za-z0-9+/]+=*/g, (m) => this.placeholder('whsec', m))
      .replace(/\b(?:key|cli|sec|adm)_[\w-]+/g, (m) => this.placeholder(m.slice(0, 3), m))
      .replace(/\bmsg_[0-9a-f]{32}\b/g, (m) => this.placeholder('msg', m))
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, (m) => this.placeholder('uuid', m.toLowerCase()))
      .replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<timestamp>')
      .replace(/\b127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');
  }

  /** A request's method and path: a number in the path is an id of the kind its segment names. */
  request(method: string, url: string): string {
    const normalised = this.text(url)
      .replace(/\/([a-z-]+)\/(\d+)(?=\/|$|\?)/g, (_, segment: string, n: string) => `/${segment}/${this.placeholder(SEGMENT_KINDS[segment] ?? segment, n)}`)
      .replace(/([?&]supplier=)(\d+)/g, (_, k: string, n: string) => `${k}${this.placeholder('supplier', n)}`);
    return `${method} ${normalised}`;
  }

  /** An answer's body; `kind` is what the request's path names (the kind of a top-level `id`). */
  body(v: unknown, kind: string): unknown {
    return this.value(v, kind);
  }

  private value(v: unknown, kind: string): unknown {
    if (typeof v === 'string') return this.text(v);
    if (Array.isArray(v)) return v.map((x) => this.value(x, kind));
    if (!v || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(o).map(([k, x]) => {
        if (k === 'requestId' && typeof x === 'string') return [k, '<request-id>'];
        if (k === 'latencyMs' && typeof x === 'number') return [k, '<ms>'];
        if (k === 'id' && typeof x === 'number') return [k, this.placeholder(kind, x)];
        if (k in ID_KEYS && typeof x === 'number') return [k, this.placeholder(ID_KEYS[k]!, x)];
        if (k === 'entityId' && typeof x === 'string' && /^\d+$/.test(x) && typeof o.entity === 'string') return [k, this.placeholder(o.entity, x)];
        if (k === 'ids' && Array.isArray(x)) return [k, x.map((id) => (typeof id === 'number' ? this.placeholder(kind, id) : this.value(id, kind)))];
        return [k, this.value(x, k === 'data' ? kind : (CHILD_KINDS[k] ?? `${kind}.${k}`))];
      }),
    );
  }
}

/** Keys whose number is the id of something of that kind. */
const ID_KEYS: Record<string, string> = { orderId: 'order', storeId: 'store', ticketId: 'ticket', supplierId: 'supplier', redeliveryOf: 'delivery', notificationId: 'notification' };
/** Keys whose object (or list of objects) is something of that kind. */
const CHILD_KINDS: Record<string, string> = { stores: 'store', store: 'store', supplier: 'supplier', suppliers: 'supplier', order: 'order', orders: 'order', ticket: 'ticket', tickets: 'ticket' };
/** Path segments followed by the id of something of that kind. */
const SEGMENT_KINDS: Record<string, string> = { stores: 'store', orders: 'order', order: 'order', tickets: 'ticket', ticket: 'ticket', suppliers: 'supplier', deliveries: 'delivery' };

/** What the answer's own `id` (or its list's `data[].id`) is, from the request's path. */
function kindOf(url: string): string {
  const path = url.split('?')[0]!;
  if (/\/deliveries|\/webhook\/test|\/redeliver/.test(path)) return 'delivery';
  if (/audit/.test(path)) return 'audit';
  if (/ticket/.test(path)) return 'ticket';
  if (/\/orders?(\/|$)/.test(path)) return 'order';
  if (/notifications/.test(path)) return 'notification';
  if (/^\/admin\/suppliers/.test(path)) return 'supplier';
  return 'id';
}

// ---------------------------------------------------------------------------------------
// The world and the requests
// ---------------------------------------------------------------------------------------

let t: TestApp;
let s: TestSupplier;
const normaliser = new Normaliser();
const answers: Recorded[] = [];

type Who = 'supplier' | 'admin' | 'ana' | 'bea' | 'nobody' | { headers: Record<string, string> };
const people: Record<string, Record<string, string>> = {};

function headersOf(who: Who): Record<string, string> {
  if (who === 'supplier') return s.headers;
  if (who === 'admin') return { authorization: `Bearer ${ADMIN_TOKEN}` };
  if (who === 'nobody') return {};
  if (typeof who === 'string') return people[who]!;
  return who.headers;
}

/** Sends a request and records its answer under `name`; answers the parsed body. */
async function call(name: string, who: Who, method: InjectOptions['method'], url: string, payload?: unknown, expected?: number): Promise<any> {
  const res: LightMyRequestResponse = await t.request({ method, url, payload: payload as never, headers: headersOf(who) });
  let body: unknown;
  try {
    body = res.body ? JSON.parse(res.body) : null;
  } catch {
    body = res.body;
  }
  if (expected !== undefined) expect(res.statusCode, `${name}: ${res.body.slice(0, 2000)}`).toBe(expected);
  expect(
    answers.some((a) => a.name === name),
    `two answers named ${name}`,
  ).toBe(false);
  answers.push({
    name,
    request: normaliser.request(String(method), url),
    status: res.statusCode,
    contentType: (res.headers['content-type'] as string | undefined) ?? null,
    body: normaliser.body(body, kindOf(url)),
  });
  return body;
}

/** A batch request recorded (202), waited for, its status and detail recorded. */
async function batch(name: string, url: string, body: unknown, failed = 0) {
  const accepted = await call(`${name}: accepted`, 'supplier', 'POST', url, body, 202);
  const ids: string[] = accepted.batchId;
  const statuses = await t.waitForBatches(s, ids);
  for (const status of statuses) expect(status.failed, JSON.stringify(status)).toBe(failed);
  for (const [i, id] of ids.entries()) {
    const suffix = ids.length > 1 ? ` #${i + 1}` : '';
    await call(`${name}: status${suffix}`, 'supplier', 'GET', `/batch/${id}/status`, undefined, 200);
    await call(`${name}: detail${suffix}`, 'supplier', 'GET', `/batch/${id}/detail`, undefined, 200);
  }
  return ids;
}

const ANA = { phone: '+573001112233', name: 'Ana Tendera' };
const BEA = { email: 'bea@example.com', name: 'Bea' };
const ADDRESS = { street: 'Calle 10 # 5-20', city: 'Bogotá', state: 'Cundinamarca', country: 'CO', postalCode: '110111', default: true };

async function buildAndAsk() {
  // --- the supplier, its credentials and its token -----------------------------------
  const supplier = await call('admin: create supplier', 'admin', 'POST', '/admin/suppliers', { code: 'RA-SUP', name: 'Recorded Answers S.A.S.' }, 200);
  const creds = await call('admin: issue credentials', 'admin', 'POST', `/admin/suppliers/${supplier.id}/credentials`, {}, 200);
  const login = await call('supplier: login', { headers: { 'x-api-key': creds.apiKey } }, 'POST', '/login', { clientId: creds.clientId, clientSecret: creds.clientSecret }, 200);
  s = {
    id: supplier.id,
    code: 'RA-SUP',
    apiKey: creds.apiKey,
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    token: login.access_token,
    headers: { 'x-api-key': creds.apiKey, authorization: `Bearer ${login.access_token}` },
  };
  const readOnly = await call('admin: issue read-only credentials', 'admin', 'POST', `/admin/suppliers/${s.id}/credentials`, { scopes: ['supplier/catalog.read'] }, 200);
  await call('admin: supplier settings', 'admin', 'PUT', `/admin/suppliers/${s.id}/settings`, { minimumOrder: 5000 }, 200);
  const readOnlyLogin = await call('supplier: login with one scope', { headers: { 'x-api-key': readOnly.apiKey } }, 'POST', '/login', { clientId: readOnly.clientId, clientSecret: readOnly.clientSecret }, 200);
  people.readOnly = { 'x-api-key': readOnly.apiKey, authorization: `Bearer ${readOnlyLogin.access_token}` };
  await call('error: 403 missing scope', { headers: people.readOnly! }, 'GET', '/order', undefined, 403);
  await call('error: 409 webhook test without a webhook', 'supplier', 'POST', '/webhook/test', undefined, 409);
  await call('admin: webhook settings', 'admin', 'PUT', `/admin/suppliers/${s.id}/webhook`, { baseUrl: `${receiver.url}/hooks`, enabled: true }, 200);

  // --- catalogue ------------------------------------------------------------------------
  await call('supplier: put category', 'supplier', 'PUT', '/category', { internalCode: 'BEB', name: 'Bebidas' }, 200);
  await call('supplier: post category', 'supplier', 'POST', '/category', { internalCode: 'ASEO', name: 'Aseo' }, 200);
  await call('supplier: put subcategory', 'supplier', 'PUT', '/subcategory', { internalCode: 'GAS', name: 'Gaseosas', parentCategoryInternalCode: 'BEB' }, 200);
  await batch('batch brand', '/batch/brand', {
    upsert: [
      { internalCode: 'COLA', name: 'Cola Andina' },
      { internalCode: 'LIMPIO', name: 'Limpio' },
    ],
  });
  const product = (internalCode: string, name: string, brand: string, category: string, extra: object = {}) => ({
    internalCode,
    name,
    brandInternalCode: brand,
    categoryInternalCode: category,
    displayProducts: [
      { units: 1, name: 'Unidad', default: true },
      { units: 12, name: 'Caja x12' },
    ],
    ...extra,
  });
  await batch('batch product', '/batch/product', {
    upsert: [
      product('P-COLA', 'Cola 350 ml', 'COLA', 'GAS', { description: 'Gaseosa sabor cola', ean: '7700000000011' }),
      product('P-LIMON', 'Limón 350 ml', 'COLA', 'GAS'),
      product('P-AGUA', 'Agua 600 ml', 'COLA', 'BEB'),
      product('P-JABON', 'Jabón en barra', 'LIMPIO', 'ASEO'),
      product('P-REGALO', 'Vaso de regalo', 'COLA', 'BEB'),
      product('P-OFF', 'Producto apagado', 'LIMPIO', 'ASEO', { enabled: false }),
    ],
  });
  await batch(
    'batch product with a failing item',
    '/batch/product',
    { upsert: [product('P-BAD', 'Sin marca', 'NO-SUCH-BRAND', 'BEB'), product('P-JABON', 'Jabón en barra', 'LIMPIO', 'ASEO')] },
    1,
  );

  // --- groupers and price list -----------------------------------------------------------
  await call('supplier: create promotion grouper', 'supplier', 'POST', '/grouper/promotion', { internalCode: 'SEG-TIENDAS', name: 'Tiendas' }, 200);
  await call('supplier: create stock grouper', 'supplier', 'POST', '/grouper/stock', { internalCode: 'BOD-NORTE', name: 'Bodega norte' }, 200);
  await call('supplier: rename stock grouper', 'supplier', 'PUT', '/grouper/BOD-NORTE/stock', { name: 'Bodega Norte' }, 200);
  await call('supplier: create second promotion grouper', 'supplier', 'POST', '/grouper/promotion', { internalCode: 'SEG-MAYOR', name: 'Mayoristas' }, 200);
  await batch('batch stock rules', '/batch/stock/grouper', {
    upsert: [
      { grouperCode: 'BOD-NORTE', productInternalCode: 'P-JABON', available: false },
      { grouperCode: 'BOD-NORTE', productInternalCode: 'P-AGUA', units: 12, available: false },
    ],
  });
  await call('supplier: create price list', 'supplier', 'POST', '/pricelist', { internalCode: 'PL-BASE' }, 200);
  await batch('batch price list', '/batch/pricelist', {
    upsert: {
      products: priceEntries('PL-BASE', [
        ['P-COLA', 1, 1500],
        ['P-COLA', 12, 16200],
        ['P-LIMON', 1, 1450.5],
        ['P-AGUA', 1, 1000],
        ['P-AGUA', 12, 11000],
        ['P-JABON', 1, 3200],
        ['P-REGALO', 1, 500],
      ]),
    },
  });

  // --- stores and their people -------------------------------------------------------------
  await batch('batch store', '/batch/store', {
    upsert: [
      {
        internalCode: 'T-CENTRO',
        name: 'Tienda Centro',
        legalName: 'Tienda Centro Ltda.',
        legalId: '900123456-7',
        ownerName: 'Ana Tendera',
        phone: '+5716000000',
        email: 'centro@example.com',
        addresses: [ADDRESS, { street: 'Carrera 7 # 1-1', city: 'Bogotá' }],
        priceListCode: 'PL-BASE',
        stockGrouperCode: 'BOD-NORTE',
        promotionGrouperCodes: ['SEG-TIENDAS'],
        settings: { dropSize: 20000 },
      },
      { internalCode: 'T-NORTE', name: 'Tienda Norte', addresses: [{ street: 'Calle 100', city: 'Bogotá', default: true }], priceListCode: 'PL-BASE', promotionGrouperCodes: ['SEG-MAYOR'] },
    ],
  });
  await batch('batch promotion grouper members', '/batch/grouper/promotion', { add: { stores: [{ groupInternalCode: 'SEG-TIENDAS', storeInternalCode: 'T-NORTE' }] } });
  await call('supplier: add store users', 'supplier', 'POST', '/store/T-CENTRO/add/user', { users: [ANA, BEA] }, 200);
  await call('supplier: add a store user to another store', 'supplier', 'POST', '/store/T-NORTE/add/user', { users: [BEA] }, 200);
  await call('supplier: remove store user', 'supplier', 'POST', '/store/T-NORTE/remove/user', { users: [BEA] }, 200);

  // --- promotions of the four types ------------------------------------------------------------
  const period = { start: '2000-01-01', end: '2099-12-31', enabled: true, promotionGrouperCodes: ['SEG-TIENDAS'] };
  await call('supplier: put discount simple', 'supplier', 'PUT', '/promotion/discount/simple', {
    internalCode: 'PR-SIMPLE',
    name: '10% en cajas de cola',
    ...period,
    products: { internalCode: 'P-COLA', boxRatio: 12 },
    discountTiersData: [
      { min: 2, max: 4, discountPercentage: 5 },
      { min: 5, discountPercentage: 10 },
    ],
  }, 200);
  await call('supplier: put discount multiple', 'supplier', 'PUT', '/promotion/discount/multiple', {
    internalCode: 'PR-MULTIPLE',
    name: 'Descuento por compra de gaseosas',
    ...period,
    products: [{ internalCode: 'P-LIMON' }, { internalCode: 'P-AGUA' }],
    discountTiersDataCash: [
      { min: 10000, max: 49999.99, discountPercentage: 2.5 },
      { min: 50000, discountAmount: 1234.5678 },
    ],
  }, 200);
  await call('supplier: put bonus individual', 'supplier', 'PUT', '/promotion/bonus/individual', {
    internalCode: 'PR-INDIVIDUAL',
    name: 'Lleve 11 pague 10 en agua',
    ...period,
    products: { internalCode: 'P-AGUA' },
    bonusTierData: { quantityRequired: 10, quantityGiven: 1, units: 1 },
  }, 200);
  await call('supplier: put bonus crossed', 'supplier', 'PUT', '/promotion/bonus/crossed', {
    internalCode: 'PR-CROSSED',
    name: 'Vaso de regalo con gaseosas',
    ...period,
    products: [{ internalCode: 'P-COLA' }, { internalCode: 'P-LIMON' }],
    bonusTierData: { quantityRequired: 6, quantityGiven: 1, units: 1, productInternalCode: 'P-REGALO' },
  }, 200);
  await batch('batch promotion', '/batch/promotion', {
    upsert: {
      discount: {
        simple: [
          {
            internalCode: 'PR-OFF',
            name: 'Promoción apagada',
            start: '2000-01-01',
            end: '2099-12-31',
            enabled: false,
            products: { internalCode: 'P-JABON' },
            discountTiersData: [{ min: 1, discountPercentage: 50 }],
          },
        ],
      },
    },
  });

  // --- the store side: sign-in, catalogue, cart, orders --------------------------------------
  await call('app: request sign-in code', 'nobody', 'POST', '/app/auth/code', { phone: ANA.phone }, 202);
  const code = await t.notifier.waitForCode(ANA.phone);
  await call('app: wrong sign-in code', 'nobody', 'POST', '/app/auth/token', { phone: ANA.phone, code: code === '000000' ? '000001' : '000000' }, 401);
  const token = await call('app: exchange sign-in code', 'nobody', 'POST', '/app/auth/token', { phone: ANA.phone, code }, 200);
  people.ana = { authorization: `Bearer ${token.access_token}` };
  const beaToken = await call('admin: store-user token', 'admin', 'POST', '/admin/store-users/token', { email: BEA.email }, 200);
  people.bea = { authorization: `Bearer ${beaToken.access_token}` };

  const me = await call('app: me', 'ana', 'GET', '/app/me', undefined, 200);
  const storeId: number = me.stores[0].id;
  await call('app: preferences', 'ana', 'GET', '/app/me/preferences', undefined, 200);
  await call('app: change preferences', 'ana', 'PUT', '/app/me/preferences', { language: 'es', channel: 'sms', events: ['ORDER_CONFIRMED', 'ORDER_DELIVERED', 'TICKET_INFO_REQUESTED'] }, 200);
  await call('app: me after preferences', 'ana', 'GET', '/app/me', undefined, 200);
  await call('app: catalog', 'ana', 'GET', `/app/stores/${storeId}/catalog`, undefined, 200);
  await call('app: catalog search', 'ana', 'GET', `/app/stores/${storeId}/catalog?search=cola&take=1`, undefined, 200);
  await call('app: catalog by brand, page 2', 'ana', 'GET', `/app/stores/${storeId}/catalog?brand=COLA&take=2&page=2`, undefined, 200);
  await call('app: catalog filters', 'ana', 'GET', `/app/stores/${storeId}/catalog/filters`, undefined, 200);
  await call('app: promotions', 'ana', 'GET', `/app/stores/${storeId}/promotions`, undefined, 200);
  await call('app: cancel codes', 'ana', 'GET', `/app/stores/${storeId}/cancel-codes`, undefined, 200);
  const lines = [
    { productInternalCode: 'P-COLA', units: 12, quantity: 3 },
    { productInternalCode: 'P-COLA', units: 1, quantity: 6 },
    { productInternalCode: 'P-LIMON', units: 1, quantity: 10 },
    { productInternalCode: 'P-AGUA', units: 1, quantity: 10 },
  ];
  await call('app: price cart', 'ana', 'POST', `/app/stores/${storeId}/cart`, { lines }, 200);
  await call('app: price cart with hints', 'ana', 'POST', `/app/stores/${storeId}/cart`, {
    lines: [
      { productInternalCode: 'P-COLA', units: 12, quantity: 1 },
      { productInternalCode: 'P-JABON', units: 1, quantity: 1 },
      { productInternalCode: 'NO-SUCH', units: 1, quantity: 1 },
    ],
  }, 200);
  await call('supplier: price cart as the store', 'supplier', 'POST', '/store/T-CENTRO/cart', { lines }, 200);
  const order = await call('app: place order', 'ana', 'POST', `/app/stores/${storeId}/orders`, { lines, notes: 'Entregar en la mañana' }, 200);
  await call('error: 400 below the minimum order', 'ana', 'POST', `/app/stores/${storeId}/orders`, { lines: [{ productInternalCode: 'P-LIMON', units: 1, quantity: 4 }] }, 400);
  const second = await call('app: place second order', 'ana', 'POST', `/app/stores/${storeId}/orders`, { lines: [{ productInternalCode: 'P-LIMON', units: 1, quantity: 20 }], address: { street: 'Carrera 7 # 1-1', city: 'Bogotá' } }, 200);
  await call('error: 400 unavailable size', 'bea', 'POST', `/app/stores/${storeId}/orders`, { lines: [{ productInternalCode: 'P-AGUA', units: 12, quantity: 2 }] }, 400);
  const third = await call('app: place third order', 'bea', 'POST', `/app/stores/${storeId}/orders`, { lines: [{ productInternalCode: 'P-COLA', units: 12, quantity: 2 }] }, 200);
  await call('app: cancel order', 'ana', 'POST', `/app/orders/${second.id}/cancel`, { cancelCode: 'NEW_ORDER' }, 200);

  // --- the supplier moves the orders --------------------------------------------------------
  await call('supplier: confirm order', 'supplier', 'PUT', `/order/${order.id}/confirm`, { deliveryDate: '2099-01-15' }, 200);
  await call('supplier: deliver part of the order', 'supplier', 'PUT', `/order/${order.id}/deliver`, { products: [{ internalCode: 'P-COLA', units: 12, quantity: 2 }, { internalCode: 'P-LIMON', units: 1, quantity: 10 }] }, 200);
  await call('supplier: return part of the order', 'supplier', 'POST', `/order/${order.id}/return`, { products: [{ internalCode: 'P-LIMON', units: 1, quantity: 1 }], reason: 'Botella rota' }, 200);
  await batch('batch order', '/batch/order', { confirm: [{ id: third.id }] });
  await call('supplier: orders', 'supplier', 'GET', '/order', undefined, 200);
  await call('supplier: orders by status', 'supplier', 'GET', '/order?status=CANCELLED&storeInternalCode=T-CENTRO', undefined, 200);
  await call('supplier: order', 'supplier', 'GET', `/order/${order.id}`, undefined, 200);
  await call('supplier: cancel codes', 'supplier', 'GET', '/supplier/cancelcodes', undefined, 200);

  await call('app: orders', 'ana', 'GET', `/app/stores/${storeId}/orders`, undefined, 200);
  await call('app: order detail', 'ana', 'GET', `/app/orders/${order.id}`, undefined, 200);
  await call('app: cancelled order detail', 'ana', 'GET', `/app/orders/${second.id}`, undefined, 200);

  // --- tickets --------------------------------------------------------------------------------------
  const ticket = await call('app: open ticket', 'ana', 'POST', `/app/stores/${storeId}/tickets`, { message: 'Llegaron dos botellas rotas', orderId: order.id }, 200);
  const other = await call('app: open second ticket', 'ana', 'POST', `/app/stores/${storeId}/tickets`, { message: '¿Tienen envases retornables?' }, 200);
  await call('supplier: ticket external id', 'supplier', 'PUT', `/support/ticket/${ticket.id}`, { externalTicketId: 'CRM-1001' }, 200);
  await call('supplier: request info', 'supplier', 'POST', '/support/ticket/additional-info', { ticketId: ticket.id, message: '¿Puede enviar una foto?' }, 200);
  await call('app: answer ticket', 'ana', 'POST', `/app/tickets/${ticket.id}/answer`, { message: 'Adjunto la foto por correo' }, 200);
  await call('supplier: close ticket', 'supplier', 'PUT', '/support/ticket/close', { ticketId: other.id, message: 'Sí, desde el próximo mes' }, 200);
  await call('supplier: tickets', 'supplier', 'GET', '/support/ticket', undefined, 200);
  await call('supplier: ticket', 'supplier', 'GET', `/support/ticket/${ticket.id}`, undefined, 200);
  await call('app: tickets', 'ana', 'GET', `/app/stores/${storeId}/tickets`, undefined, 200);
  await call('app: ticket', 'ana', 'GET', `/app/tickets/${ticket.id}`, undefined, 200);

  // --- notifications ------------------------------------------------------------------------------------
  const notifications = await call('app: notifications', 'ana', 'GET', '/app/notifications', undefined, 200);
  await call('app: mark notifications read', 'ana', 'POST', '/app/notifications/read', { ids: notifications.data.slice(0, 1).map((n: { id: number }) => n.id) }, 200);
  await call('app: notifications after reading', 'ana', 'GET', '/app/notifications', undefined, 200);

  // --- supplier reads ---------------------------------------------------------------------------------------
  await call('supplier: categories', 'supplier', 'GET', '/category', undefined, 200);
  await call('supplier: category', 'supplier', 'GET', '/category/BEB', undefined, 200);
  await call('supplier: brand', 'supplier', 'GET', '/brand/COLA', undefined, 200);
  await call('supplier: products', 'supplier', 'GET', '/product', undefined, 200);
  await call('supplier: products filtered', 'supplier', 'GET', '/product?search=cola&enabled=true&take=1', undefined, 200);
  await call('supplier: product', 'supplier', 'GET', '/product/P-COLA', undefined, 200);
  await call('supplier: price lists', 'supplier', 'GET', '/pricelist', undefined, 200);
  await call('supplier: price list', 'supplier', 'GET', '/pricelist/PL-BASE', undefined, 200);
  await call('supplier: price list entries', 'supplier', 'GET', '/pricelist/PL-BASE/entries', undefined, 200);
  await call('supplier: promotion groupers', 'supplier', 'GET', '/grouper/promotion', undefined, 200);
  await call('supplier: promotion grouper', 'supplier', 'GET', '/grouper/SEG-TIENDAS/promotion', undefined, 200);
  await call('supplier: stock groupers', 'supplier', 'GET', '/grouper/stock', undefined, 200);
  await call('supplier: stock grouper', 'supplier', 'GET', '/grouper/BOD-NORTE/stock', undefined, 200);
  await call('supplier: stock rules', 'supplier', 'GET', '/grouper/BOD-NORTE/stock/rules', undefined, 200);
  await call('supplier: promotions', 'supplier', 'GET', '/promotion', undefined, 200);
  for (const code of ['PR-SIMPLE', 'PR-MULTIPLE', 'PR-INDIVIDUAL', 'PR-CROSSED']) await call(`supplier: promotion ${code}`, 'supplier', 'GET', `/promotion/${code}`, undefined, 200);
  await call('supplier: stores', 'supplier', 'GET', '/store', undefined, 200);
  await call('supplier: store', 'supplier', 'GET', '/store/T-CENTRO', undefined, 200);
  await call('supplier: batches', 'supplier', 'GET', '/batch?take=3', undefined, 200);
  await call('supplier: batches by endpoint', 'supplier', 'GET', '/batch?status=processed&endpoint=/batch/product', undefined, 200);
  await call('supplier: credential', 'supplier', 'GET', '/credential', undefined, 200);
  await call('supplier: webhook', 'supplier', 'GET', '/webhook', undefined, 200);
  const deliveries = await call('supplier: webhook deliveries', 'supplier', 'GET', '/webhook/deliveries?take=3', undefined, 200);
  await call('supplier: audit', 'supplier', 'GET', '/audit?take=5', undefined, 200);

  // --- supplier writes that answer something of their own ---------------------------------------------------
  await call('supplier: enable price list', 'supplier', 'PUT', '/pricelist/PL-BASE/status', { enabled: true }, 200);
  await call('supplier: disable promotion', 'supplier', 'PUT', '/promotion/PR-CROSSED/status', { enabled: false }, 200);
  await call('supplier: disable stock grouper', 'supplier', 'PUT', '/grouper/BOD-NORTE/status/stock', { enabled: false }, 200);
  await call('supplier: rename promotion grouper', 'supplier', 'PUT', '/grouper/SEG-MAYOR/promotion', { name: 'Mayoristas grandes' }, 200);
  if (deliveries.data?.[0]) await call('supplier: redeliver', 'supplier', 'POST', `/webhook/deliveries/${deliveries.data[0].id}/redeliver`, undefined);

  // --- admin reads and writes -------------------------------------------------------------------------------
  await call('admin: suppliers', 'admin', 'GET', '/admin/suppliers', undefined, 200);
  await call('admin: cancel codes', 'admin', 'PUT', `/admin/suppliers/${s.id}/cancel-codes`, [
    { code: 'ME_EQUIVOQUE', reason: 'Me equivoqué', usage: 'STORE' },
    { code: 'SIN_STOCK', reason: 'Sin inventario', usage: 'SUPPLIER' },
  ], 200);
  await call('app: cancel codes after the admin', 'ana', 'GET', `/app/stores/${storeId}/cancel-codes`, undefined, 200);
  await call('admin: webhook deliveries', 'admin', 'GET', `/admin/suppliers/${s.id}/webhook/deliveries?take=2`, undefined, 200);
  await call('admin: rotate webhook secret', 'admin', 'POST', `/admin/suppliers/${s.id}/webhook/rotate-secret`, undefined, 200);
  await call('admin: audit', 'admin', 'GET', `/admin/audit?supplier=${s.id}&take=5`, undefined, 200);
  await call('supplier: webhook test', 'supplier', 'POST', '/webhook/test', undefined, 200);
  await call('admin: webhook test', 'admin', 'POST', `/admin/suppliers/${s.id}/webhook/test`, undefined, 200);
  await call('admin: revoke credentials', 'admin', 'DELETE', `/admin/credentials/${readOnly.clientId}`, undefined);

  // --- error answers ---------------------------------------------------------------------------------------
  await call('error: 401 without credentials', 'nobody', 'GET', '/product', undefined, 401);
  await call('error: 401 app without token', 'nobody', 'GET', '/app/me', undefined, 401);
  await call('error: 401 admin with a supplier token', { headers: { authorization: `Bearer ${s.token}` } }, 'GET', '/admin/suppliers', undefined, 401);
  await call('error: 400 with pointers', 'supplier', 'PUT', '/promotion/discount/simple', { internalCode: '', name: 'x', start: '2026-13-01', products: {}, discountTiersData: [{ min: -1 }] }, 400);
  await call('error: 400 app cart', 'ana', 'POST', `/app/stores/${storeId}/cart`, { lines: [{ productInternalCode: 'P-COLA', units: 0, quantity: 1 }] }, 400);
  await call('error: 400 invalid cancel code', 'ana', 'POST', `/app/orders/${third.id}/cancel`, { cancelCode: 'NOPE' });
  await call('error: 404 product', 'supplier', 'GET', '/product/NO-SUCH', undefined, 404);
  await call('error: 404 order', 'supplier', 'GET', '/order/2000000000', undefined, 404);
  await call('error: 404 app store', 'ana', 'GET', '/app/stores/2000000000/catalog', undefined);
  await call('error: 404 batch', 'supplier', 'GET', '/batch/00000000-0000-4000-8000-000000000000/status', undefined, 404);
  await call('error: 409 deliver a cancelled order', 'supplier', 'PUT', `/order/${second.id}/deliver`, { complete: true });
  await call('error: 402 batch structure', 'supplier', 'POST', '/batch/product', { upsert: [{ internalCode: 'X' }, { internalCode: 'Y', name: 'Y', brandInternalCode: 'B', categoryInternalCode: 'C', displayProducts: [{ units: 0, name: '' }] }] }, 402);
  await call('error: 402 empty batch', 'supplier', 'POST', '/batch/brand', { upsert: [] }, 402);
  await call('error: 401 revoked credentials', { headers: people.readOnly! }, 'GET', '/product', undefined, 401);
  await call('error: 415 not JSON', { headers: { ...s.headers, 'content-type': 'text/plain' } }, 'PUT', '/category', 'internalCode=X', 415);
  await call('error: 400 malformed JSON', { headers: { ...s.headers, 'content-type': 'application/json' } }, 'PUT', '/category', '{"internalCode":', 400);
}

// ---------------------------------------------------------------------------------------

const recorded: Recorded[] | undefined = !RECORDING && fs.existsSync(FIXTURE) ? JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) : undefined;

/** A webhook receiver on this machine that answers every request with 200 "ok". */
const receiver = { server: undefined as http.Server | undefined, url: '' };

beforeAll(async () => {
  receiver.server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  });
  await new Promise<void>((resolve) => receiver.server!.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
  // The receiver is on a private address.
  t = await createTestApp({ env: { ALLOW_PRIVATE_ADDRESSES: 'true' } });
  await buildAndAsk();
}, 120_000);
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => receiver.server?.close(resolve));
});

describe('recorded answers', () => {
  if (RECORDING || !recorded) {
    it('records the answers (RECORD_ANSWERS=1)', () => {
      expect(RECORDING, `${FIXTURE} is missing: run with RECORD_ANSWERS=1 to record it`).toBe(true);
      fs.writeFileSync(FIXTURE, `${JSON.stringify(answers, null, 2)}\n`);
    });
    return;
  }

  it('asks the same requests as recorded', () => {
    expect(answers.map((a) => `${a.name} — ${a.request}`)).toEqual(recorded.map((a) => `${a.name} — ${a.request}`));
  });

  for (const [i, expected] of recorded.entries()) {
    it(`answers as recorded: ${expected.name}`, () => {
      const actual = answers.find((a) => a.name === expected.name);
      expect(actual, `no answer named ${expected.name}`).toBeDefined();
      expect(actual, `answer ${i + 1}, ${expected.request}`).toEqual(expected);
    });
  }
});
