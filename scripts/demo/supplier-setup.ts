// The supplier's half of the supplier integration flow, in its recommended load
// order: token, groupers, catalog, stock, price lists, stores, users, prices, promotions,
// webhooks. Every call goes through the SDK (`surtido/client`), as an ERP connector would
// make it: it logs in, caches the token, adds an Idempotency-Key to writes and retries.
import { randomBytes } from 'node:crypto';
import { createSurtidoClient, type SurtidoClient } from 'surtido/client';
import * as data from './data.ts';
import type { JsonCall } from './http.ts';
import { note, sent, shortId, step } from './print.ts';
import type { WebhookReceiver } from './receiver.ts';

export interface Supplier {
  id: number;
  code: string;
  client: SurtidoClient;
}

/** Waits for batches through the SDK and fails the demo if any item failed. */
async function applied(client: SurtidoClient, request: string, batchId: string[]) {
  let last = '';
  const outcome = await client.waitForBatch(batchId, (p) => (last = `${p.completed}/${p.total} completed, ${p.failed} failed`), { pollMs: 100, timeoutMs: 60_000 });
  sent(request, `202 batch ${batchId.map(shortId).join(', ')} -> processed, ${last}`);
  if (outcome.failed.length > 0) {
    throw new Error(`${request}: ${outcome.failed.map((f) => `${f.code} ${f.errorCode}: ${f.message}`).join('; ')}`);
  }
  return outcome;
}

export async function createSupplier(baseUrl: string, admin: JsonCall): Promise<Supplier> {
  step('Supplier and credentials', 'An operator registers the supplier and issues its credentials through the admin API (npm start does this once for its demo supplier).');
  const code = `DEMO-${randomBytes(3).toString('hex').toUpperCase()}`;
  const supplier = await admin<{ id: number; code: string }>('POST', '/admin/suppliers', { code, name: 'Distribuidora Andina (demo)' });
  sent('POST /admin/suppliers', `supplier ${supplier.id} (${supplier.code})`);
  const credentials = await admin<{ apiKey: string; clientId: string; clientSecret: string; scopes: string[] }>('POST', `/admin/suppliers/${supplier.id}/credentials`, {});
  sent(`POST /admin/suppliers/${supplier.id}/credentials`, `API key, client id and client secret (${credentials.scopes.length} scopes)`);
  note(`client id ${credentials.clientId}; the secret is shown only once`);

  // This is all an integrator needs: the base URL and the three credentials.
  const client = createSurtidoClient({ baseUrl, apiKey: credentials.apiKey, clientId: credentials.clientId, clientSecret: credentials.clientSecret });
  return { id: supplier.id, code: supplier.code, client };
}

export async function logIn({ client }: Supplier) {
  step('Token', 'POST /login exchanges the client id and secret for a bearer token; every call sends it with the x-api-key header.');
  const token = await client.login();
  sent('POST /login', `200 access_token ${token.slice(0, 12)}... (Bearer)`);
  note(`scopes: ${client.scopes()?.length ?? 0}, e.g. ${client.scopes()?.slice(0, 3).join(', ')}`);
  note('the SDK caches the token and renews it before it expires; no later step logs in again');
}

export async function groupers({ client }: Supplier) {
  step('Groupers', 'A stock grouper is a warehouse (which products stores can get); a promotion grouper is a commercial segment (which promotions stores see).');
  await client.post('/grouper/stock', { body: data.STOCK_GROUPER });
  sent('POST /grouper/stock', `200 ${data.STOCK_GROUPER.internalCode} "${data.STOCK_GROUPER.name}"`);
  await client.post('/grouper/promotion', { body: data.PROMOTION_GROUPER });
  sent('POST /grouper/promotion', `200 ${data.PROMOTION_GROUPER.internalCode} "${data.PROMOTION_GROUPER.name}"`);
}

export async function catalog({ client }: Supplier) {
  step('Catalog', 'Brands, categories and products, identified by your own internalCode. Batch endpoints answer 202 at once and apply in the background.');
  await applied(client, 'POST /batch/brand', (await client.post('/batch/brand', { body: data.brands })).batchId);
  for (const category of data.categories) {
    await client.put('/category', { body: category });
    sent('PUT /category', `200 ${category.internalCode} "${category.name}"`);
  }
  await client.put('/subcategory', { body: data.subcategory });
  sent('PUT /subcategory', `200 ${data.subcategory.internalCode} under ${data.subcategory.parentCategoryInternalCode}`);
  await applied(client, 'POST /batch/product', (await client.post('/batch/product', { body: data.products })).batchId);
  const cola = await client.get('/product/{code}', { params: { path: { code: 'GAS-COLA-350' } } });
  sent('GET /product/GAS-COLA-350', `200 "${cola.name}", sizes ${(cola.displayProducts ?? []).map((d) => `${d.units} (${d.name})`).join(', ')}`);
}

export async function stock({ client }: Supplier) {
  step('Stock', 'Stores are assigned to a stock grouper, then availability is set per grouper: a product is available unless marked otherwise.');
  const assign = await client.post('/batch/grouper/stock', { body: { add: { stores: [{ groupInternalCode: data.STOCK_GROUPER.internalCode, storeInternalCode: data.STORE }] } } });
  await applied(client, 'POST /batch/grouper/stock', assign.batchId);
  note(`${data.STORE} does not exist yet: the link is kept and takes effect when the store is created`);
  await applied(client, 'POST /batch/stock/grouper', (await client.post('/batch/stock/grouper', { body: data.availability })).batchId);
  note(`JUGO-NAR-1L is unavailable in ${data.STOCK_GROUPER.internalCode}: its stores will not see it`);
}

export async function priceLists({ client }: Supplier) {
  step('Price lists', 'A price list holds a price per product and package size; each store buys from one list.');
  const list = await client.post('/pricelist', { body: data.PRICE_LIST });
  sent('POST /pricelist', `200 ${list.internalCode} (enabled: ${list.enabled})`);
}

export async function stores({ client }: Supplier) {
  step('Stores', 'Stores are upserted in batches with their price list, stock grouper, promotion groupers and minimum order (settings.dropSize).');
  await applied(client, 'POST /batch/store', (await client.post('/batch/store', { body: data.stores })).batchId);
  const store = await client.get('/store/{code}', { params: { path: { code: data.STORE } } });
  sent(`GET /store/${data.STORE}`, `200 "${store.name}", price list ${store.priceListCode}, stock ${store.stockGrouperCode}, segments ${store.promotionGrouperCodes.join(', ')}`);
}

export async function users({ client }: Supplier, phone: string) {
  step('Users', "People who buy for the store, by phone or email; one person may belong to many stores.");
  const answer = await client.post('/store/{code}/add/user', { params: { path: { code: data.STORE } }, body: { users: [{ phone, name: 'Rosa' }] } });
  sent(`POST /store/${data.STORE}/add/user`, `200 the store has ${answer.users.length} user(s): Rosa ${phone}`);
}

export async function prices({ client }: Supplier) {
  step('Prices', 'POST /batch/pricelist sets prices per package size (and can assign stores to lists in the same call).');
  await applied(client, 'POST /batch/pricelist', (await client.post('/batch/pricelist', { body: data.prices })).batchId);
  const list = await client.get('/pricelist/{code}', { params: { path: { code: data.PRICE_LIST.internalCode } } });
  note(`${list.internalCode}: ${list.products.map((p) => `${p.productInternalCode} x${p.units} = ${p.price}`).join(', ')}`);
}

export async function promotions({ client }: Supplier) {
  step('Promotions', 'Four kinds: simple and multiple discounts, individual and crossed bonuses; tiers by quantity or by amount; visible to the segments named.');
  const dates = data.window();
  const discount = data.sodaDiscount(dates);
  await client.put('/promotion/discount/multiple', { body: discount });
  sent('PUT /promotion/discount/multiple', `200 ${discount.internalCode}: 5 % from 2 boxes of soda, 10 % from 5`);
  const bonus = data.chipsBonus(dates);
  await client.put('/promotion/bonus/crossed', { body: bonus });
  sent('PUT /promotion/bonus/crossed', `200 ${bonus.internalCode}: 1 free AGUA-600 every 12 bags of chips`);
  const read = await client.get('/promotion/{code}', { params: { path: { code: discount.internalCode } } });
  sent(`GET /promotion/${discount.internalCode}`, `200 ${read.type}, ${read.start}..${read.end}, active: ${read.active}`);
}

export async function webhooks(supplier: Supplier, admin: JsonCall, receiver: WebhookReceiver) {
  step('Webhooks', 'The platform calls your base URL when stores place orders and open tickets, signed with Standard Webhooks; this demo runs its own receiver.');
  const webhook = await admin<{ secret: string }>('PUT', `/admin/suppliers/${supplier.id}/webhook`, { baseUrl: receiver.baseUrl, enabled: true });
  receiver.useSecret(webhook.secret);
  sent(`PUT /admin/suppliers/${supplier.id}/webhook`, `200 base URL ${receiver.baseUrl}`);
  note(`signing secret ${webhook.secret.slice(0, 12)}... (kept by the receiver to verify every call)`);
  const ping = await supplier.client.post('/webhook/test');
  const received = await receiver.waitFor('ping');
  sent('POST /webhook/test', `200 ping ${ping.status}: the receiver got ${received.path}, signature verified`);
}
