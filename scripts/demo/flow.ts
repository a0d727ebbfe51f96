// The walk-through, in order: the supplier loads its data (the recommended
// load order), a store buys, the supplier handles the order and a ticket. Each step is a
// function in supplier-setup.ts or store-side.ts; read them as an integration guide.
import { randomInt } from 'node:crypto';
import { jsonCaller } from './http.ts';
import { planSteps } from './print.ts';
import type { WebhookReceiver } from './receiver.ts';
import type { Target } from './service.ts';
import * as store from './store-side.ts';
import * as supplier from './supplier-setup.ts';

export const STEPS = 17;

export async function runFlow(target: Target, receiver: WebhookReceiver) {
  planSteps(STEPS);
  const admin = jsonCaller(target.baseUrl, () => target.adminToken);
  // A new person every run: sign-in codes are limited per phone, and a service running
  // elsewhere may have seen earlier runs.
  const phone = `+57300${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;

  const s = await supplier.createSupplier(target.baseUrl, admin);
  await supplier.logIn(s);
  await supplier.groupers(s);
  await supplier.catalog(s);
  await supplier.stock(s);
  await supplier.priceLists(s);
  await supplier.stores(s);
  await supplier.users(s, phone);
  await supplier.prices(s);
  await supplier.promotions(s);
  await supplier.webhooks(s, admin, receiver);

  const user = await store.signIn(phone, s.code, (token) => jsonCaller(target.baseUrl, token), admin, target.signInCode);
  const preview = await store.previewCart(user);
  const orderId = await store.placeOrder(user, preview, receiver);
  await store.confirmAndDeliver(s.client, user, orderId);
  await store.supportTicket(s.client, user, orderId, receiver);
  await store.deliveryLog(s.client);
}
