// With ALLOW_PRIVATE_ADDRESSES off (production's default), a webhook never reaches a
// loopback or private address: not as an IP literal, not through a name that resolves
// to one. Only 127.0.0.1 is used as the target here; nothing connects to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/modules/webhooks/webhooks.events.ts';
import { as, type TestApp } from '../helpers/app.ts';
import { appAndReceiver, Receiver, waitUntil } from './helpers.ts';

let t: TestApp, receiver: Receiver, close: () => Promise<void>;

beforeAll(async () => void ({ t, receiver, close } = await appAndReceiver({ dispatcher: true, env: { ALLOW_PRIVATE_ADDRESSES: 'false' } })));
afterAll(() => close());

describe('private addresses refused', () => {
  it('refuses an IP literal in a loopback range, before connecting', async () => {
    const s = await t.supplier();
    await t.admin('PUT', `/admin/suppliers/${s.id}/webhook`, { baseUrl: receiver.baseUrl(s.code), enabled: true });
    const res = await as(t, s, 'POST', '/webhook/test');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'failed', attempts: [{ statusCode: null }] });
    expect(res.json().attempts[0].error).toBe('refused: 127.0.0.1 is a loopback address (ALLOW_PRIVATE_ADDRESSES is off)');
    expect(receiver.calls).toEqual([]);
  });

  it('refuses NAT64, 6to4 and IPv4-mapped forms of a loopback address, before connecting', async () => {
    const s = await t.supplier();
    for (const [host, reason] of [
      ['[64:ff9b::7f00:1]', '64:ff9b::7f00:1 is a NAT64 address embedding 127.0.0.1 (a loopback address)'],
      ['[2002:7f00:1::1]', '2002:7f00:1::1 is a 6to4 address embedding 127.0.0.1 (a loopback address)'],
      ['[::ffff:127.0.0.1]', '::ffff:7f00:1 is a loopback address'],
      ['[fec0::1]', 'fec0::1 is a site-local address'],
    ]) {
      await t.admin('PUT', `/admin/suppliers/${s.id}/webhook`, { baseUrl: `http://${host}:${receiver.port}/s/${s.code}`, enabled: true });
      const res = await as(t, s, 'POST', '/webhook/test');
      expect(res.json().attempts[0].error, host).toBe(`refused: ${reason} (ALLOW_PRIVATE_ADDRESSES is off)`);
    }
    expect(receiver.calls).toEqual([]);
  });

  it('refuses a name that resolves to a loopback address, checked on the resolved address', async () => {
    const s = await t.supplier();
    await t.admin('PUT', `/admin/suppliers/${s.id}/webhook`, { baseUrl: `http://localhost:${receiver.port}/s/${s.code}`, enabled: true });
    const { deliveryId } = await t.deps.db.transaction().execute((trx) => recordEvent(trx, { supplierId: s.id, type: 'order.created', orderingKey: 'order:1', body: { id: 1 } }));
    t.deps.workAccepted();
    let delivery: any;
    await waitUntil('the refused attempt', async () => {
      delivery = (await as(t, s, 'GET', '/webhook/deliveries')).json().data.find((d: { id: number }) => d.id === deliveryId);
      return delivery?.attempts.length === 1;
    });
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0].error).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1) is a loopback address/);
    expect(receiver.calls).toEqual([]);
  });
});
