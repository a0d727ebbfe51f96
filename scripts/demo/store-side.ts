// The other half: a store user buys (the store app, /app), which makes the platform call
// the supplier's webhook; the supplier moves the order along and handles a support ticket
// through the SDK. Money is in the currency's units; the pricing rules are src/modules/pricing/README.md's.
import type { SurtidoClient } from 'surtido/client';
import * as data from './data.ts';
import type { JsonCall } from './http.ts';
import { money, note, sent, step, table } from './print.ts';
import type { ReceivedCall, WebhookReceiver } from './receiver.ts';

/** The store app's priced cart (the pricing engine's result plus the preview's hints), as far as the demo reads it. */
interface PricedCart {
  lines: { productInternalCode: string; units: number; quantity: number; unitPrice?: number; subtotal?: number; discount?: number; total?: number; error?: string }[];
  discounts: { promoInternalCode: string; appliedDiscountPercentage: number | null; appliedDiscountAmount: number }[];
  rewards: { promoInternalCode: string; quantity: number; products: { internalCode: string; units: number }[] }[];
  subtotal: number;
  discountTotal: number;
  total: number;
  minimumOrder: { amount: number; missing: number } | null;
  hints: { nextTiers: { promoInternalCode: string; missing: number; gives: Record<string, unknown> }[] };
}

interface Order {
  id: number;
  status: string;
  subtotal: number;
  discountTotal: number;
  total: number;
  deliveryDate: string | null;
  history: { status: string; by: string }[];
}

export interface StoreUser {
  phone: string;
  storeId: number;
  /** Calls the store app as this person. */
  app: JsonCall;
}

export async function signIn(phone: string, supplierCode: string, call: (token: () => string | undefined) => JsonCall, admin: JsonCall, signInCode: ((to: string) => Promise<string | undefined>) | undefined): Promise<StoreUser> {
  step('A store user signs in', 'Rosa, the user added above, signs in to the store app with a one-time code sent to her phone, and sees what her store can buy.');
  let token: string | undefined;
  const app = call(() => token);
  const { expiresIn } = await app<{ expiresIn: number }>('POST', '/app/auth/code', { phone });
  sent('POST /app/auth/code', `202 a 6-digit code is on its way (valid ${expiresIn} s)`);
  const code = await signInCode?.(phone);
  if (code) {
    note(`the demo's notifier stands in for the SMS: the code is ${code}`);
    token = (await app<{ access_token: string }>('POST', '/app/auth/token', { phone, code })).access_token;
    sent('POST /app/auth/token', '200 a store-user token');
  } else {
    // A service running elsewhere sends the code through its own notifier: the operators' route stands in.
    token = (await admin<{ access_token: string }>('POST', '/admin/store-users/token', { phone })).access_token;
    sent('POST /admin/store-users/token', "200 a store-user token (the code went to the service's log)");
  }
  const me = await app<{ stores: { id: number; internalCode: string; name: string; supplier: { code: string } }[] }>('GET', '/app/me');
  const store = me.stores.find((s) => s.supplier.code === supplierCode && s.internalCode === data.STORE);
  if (!store) throw new Error(`GET /app/me does not list ${data.STORE} of ${supplierCode}`);
  sent('GET /app/me', `200 store ${store.id} "${store.name}" of ${supplierCode}`);
  const catalog = await app<{ data: { internalCode: string; sizes: { units: number; price: number }[]; promotions: { internalCode: string }[] }[] }>('GET', `/app/stores/${store.id}/catalog`);
  sent(`GET /app/stores/${store.id}/catalog`, `200 ${catalog.data.length} products (JUGO-NAR-1L is unavailable in this store's warehouse)`);
  table(
    ['product', 'sizes and prices', 'promotions'],
    catalog.data.map((p) => [p.internalCode, p.sizes.map((s) => `x${s.units} ${money(s.price)}`).join(', '), p.promotions.map((x) => x.internalCode).join(', ') || '-']),
  );
  return { phone, storeId: store.id, app };
}

/** `10 % ` for a percentage tier, nothing for a fixed amount. */
const rate = (d: { appliedDiscountPercentage: number | null }) => (d.appliedDiscountPercentage === null ? '' : `${d.appliedDiscountPercentage} % `);

function printCart(cart: PricedCart) {
  table(
    ['line', 'unit price', 'subtotal', 'discount', 'total'],
    cart.lines.map((l) => [`${l.productInternalCode} x${l.units} * ${l.quantity}`, l.error ?? money(l.unitPrice!), money(l.subtotal ?? 0), money(l.discount ?? 0), money(l.total ?? 0)]),
  );
  for (const d of cart.discounts) note(`discount: ${d.promoInternalCode} ${rate(d)}-${money(d.appliedDiscountAmount)}`);
  for (const r of cart.rewards) note(`bonus: ${r.promoInternalCode} gives ${r.quantity} free ${r.products[0]!.internalCode} x${r.products[0]!.units}`);
  note(`subtotal ${money(cart.subtotal)}, discounts -${money(cart.discountTotal)}, total ${money(cart.total)}; minimum order ${cart.minimumOrder ? `missing ${money(cart.minimumOrder.missing)}` : 'met'}`);
}

export async function previewCart(user: StoreUser) {
  step('Cart preview', 'The platform prices the cart with the store\'s list and the promotions it sees; the preview changes nothing and says what the next tier needs.');
  const first = await user.app<PricedCart>('POST', `/app/stores/${user.storeId}/cart`, { lines: data.firstCart });
  sent(`POST /app/stores/${user.storeId}/cart`, `200 4 boxes of soda, 3 displays of chips`);
  printCart(first);
  for (const hint of first.hints.nextTiers.filter((h) => 'discountPercentage' in h.gives)) {
    note(`hint: ${hint.promoInternalCode} needs ${hint.missing} more box(es) for ${hint.gives.discountPercentage} %`);
  }
  const final = await user.app<PricedCart>('POST', `/app/stores/${user.storeId}/cart`, { lines: data.finalCart });
  sent(`POST /app/stores/${user.storeId}/cart`, '200 one more box of cola');
  printCart(final);
  if (final.discountTotal <= 0 || final.rewards.length === 0) throw new Error('the final cart should earn a discount and a bonus');
  return final;
}

function printWebhook(call: ReceivedCall) {
  const h = call.headers;
  note(`the receiver got POST ${call.path}`);
  note(`  webhook-id         ${h['webhook-id']}`);
  note(`  webhook-timestamp  ${h['webhook-timestamp']}`);
  note(`  webhook-signature  ${String(h['webhook-signature']).slice(0, 24)}...`);
  note(`  x-event-type       ${h['x-event-type']}`);
  note(`  body               ${call.rawBody.length > 90 ? `${call.rawBody.slice(0, 90)}... (${call.rawBody.length} bytes)` : call.rawBody}`);
  note('signature verified with standardwebhooks (verifyWebhook from surtido/client): answered 200');
}

export async function placeOrder(user: StoreUser, preview: PricedCart, receiver: WebhookReceiver): Promise<number> {
  step('Order placed', 'The store places the previewed cart; the order and its webhook are one transaction, and the worker delivers the signed order.created call.');
  const order = await user.app<Order>('POST', `/app/stores/${user.storeId}/orders`, { lines: data.finalCart, notes: 'Entregar en la mañana' }, { 'idempotency-key': `demo-order-${user.storeId}` });
  sent(`POST /app/stores/${user.storeId}/orders`, `200 order ${order.id} ${order.status}, total ${money(order.total)} (as previewed: ${order.total === preview.total})`);
  const call = await receiver.waitFor('order.created', (e) => e.payload.id === order.id);
  printWebhook(call);
  const payload = call.event.payload;
  note(`order.created ${payload.id} from ${payload.buyer.storeInternalCode} "${payload.buyer.storeName}", user ${payload.buyer.user?.name} ${payload.buyer.user?.phone}`);
  table(
    ['product', 'units', 'qty', 'subtotal', 'discount', 'total'],
    payload.products.map((p) => [p.internalCode, p.units, p.quantity, money(p.subtotal), money(p.discount), money(p.total)]),
  );
  for (const d of payload.promotions.discounts) note(`discount ${d.promoInternalCode}: ${rate(d)}= -${money(d.appliedDiscountAmount)}`);
  for (const r of payload.promotions.rewards) note(`bonus ${r.promoInternalCode}: ${r.quantity} free ${r.products.map((p) => `${p.internalCode} x${p.units}`).join(', ')}`);
  note(`order totals: subtotal ${money(payload.subtotal)}, discounts -${money(payload.discountTotal)}, total ${money(payload.total)}`);
  return order.id;
}

export async function confirmAndDeliver(client: SurtidoClient, user: StoreUser, orderId: number) {
  step('Confirm and deliver', 'The ERP manages the order by its platform id: confirm with a delivery date, then deliver (complete, or per product for a partial delivery).');
  const deliveryDate = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const confirmed = await client.put('/order/{id}/confirm', { params: { path: { id: orderId } }, body: { deliveryDate } });
  sent(`PUT /order/${orderId}/confirm`, `200 ${confirmed.status}, delivery ${confirmed.deliveryDate}`);
  const delivered = await client.put('/order/{id}/deliver', { params: { path: { id: orderId } }, body: { complete: true } });
  sent(`PUT /order/${orderId}/deliver`, `200 ${delivered.status}, ${delivered.products.map((p) => `${p.internalCode} ${p.deliveredQuantity}/${p.quantity}`).join(', ')}`);
  note(`history: ${delivered.history.map((h) => `${h.status} (${h.by})`).join(' -> ')}`);
  const notifications = await user.app<{ data: { type: string; orderId: number | null }[] }>('GET', '/app/notifications');
  note(`the store app tells Rosa: ${notifications.data.filter((n) => n.orderId === orderId).map((n) => n.type).reverse().join(', ')}`);
}

export async function supportTicket(client: SurtidoClient, user: StoreUser, orderId: number, receiver: WebhookReceiver) {
  step('Support ticket', 'A store opens a ticket; the supplier links its own case id, asks for more information, receives the answer by webhook and closes the ticket.');
  const opened = await user.app<{ id: number; status: string }>('POST', `/app/stores/${user.storeId}/tickets`, { message: 'Llegaron 2 cajas de limonada, no 3', orderId });
  sent(`POST /app/stores/${user.storeId}/tickets`, `200 ticket ${opened.id} ${opened.status}`);
  const created = await receiver.waitFor('ticket.created', (e) => e.payload.id === opened.id);
  sent('webhook ticket.created', `POST ${created.path}, signature verified: "${created.event.payload.userMessage}"`);

  const linked = await client.put('/support/ticket/{id}', { params: { path: { id: opened.id } }, body: { externalTicketId: 'ERP-CASO-1', status: 'IN_PROGRESS' } });
  sent(`PUT /support/ticket/${opened.id}`, `200 ${linked.status}, externalTicketId ${linked.externalTicketId}`);
  const asked = await client.post('/support/ticket/additional-info', { body: { externalTicketId: 'ERP-CASO-1', message: '¿Cuál producto faltó? Envíe una foto de la factura.' } });
  sent('POST /support/ticket/additional-info', `200 ${asked.status}`);
  const notifications = await user.app<{ data: { type: string; ticketId: number | null; message: string | null }[] }>('GET', '/app/notifications');
  const request = notifications.data.find((n) => n.ticketId === opened.id && n.type === 'TICKET_INFO_REQUESTED');
  note(`the store app tells Rosa: ${request?.type} "${request?.message}"`);

  const answered = await user.app<{ status: string }>('POST', `/app/tickets/${opened.id}/answer`, { message: 'Faltó una caja de GAS-LIMA-350; la factura es la 1234.' });
  sent(`POST /app/tickets/${opened.id}/answer`, `200 ${answered.status}`);
  const info = await receiver.waitFor('ticket.additional_info_received', (e) => e.payload.id === opened.id);
  sent('webhook ticket.additional_info_received', `POST ${info.path}, signature verified: "${info.event.payload.messages.at(-1)?.message}"`);

  const closed = await client.put('/support/ticket/close', { body: { ticketId: opened.id, message: 'Enviamos la caja faltante con el próximo pedido.' } });
  sent('PUT /support/ticket/close', `200 ${closed.status}, resolvedAt ${closed.resolvedAt}`);
  note(`conversation: ${closed.messages.map((m) => m.from).join(' -> ')}`);
}

export async function deliveryLog(client: SurtidoClient) {
  step('Delivery log', 'Every webhook delivery is kept with its attempts; GET /webhook/deliveries shows them and POST /webhook/deliveries/{id}/redeliver replays one.');
  const log = await client.get('/webhook/deliveries');
  sent('GET /webhook/deliveries', `200 ${log.total} deliveries`);
  table(
    ['event', 'path', 'status', 'attempts', 'HTTP'],
    [...log.data].reverse().map((d) => [d.eventType, d.path, d.status, d.attempts.length, d.lastStatusCode ?? '-']),
  );
}
