// A webhook base URL with a query string or credentials (`https://user:pass@erp/x?token=t`):
// each event's path is joined to the URL's path, before its query; the user and password go
// as HTTP Basic credentials; and no answer ever shows the password or the query's values
// (every reader sees `user:***@` and `token=***`, the writers too: to change them, they set
// the whole URL again, and saving the masked URL back is refused). An attempt's error never
// carries the URL either. Spans are covered by test/observability/tracing.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { memberSession } from '../helpers/console.ts';
import { json } from '../helpers/fixtures.ts';
import { startRecorder, type Recorder } from '../helpers/recorder.ts';

let t: TestApp;
let receiver: Recorder;

beforeAll(async () => {
  t = await createTestApp();
  receiver = await startRecorder();
}, 180_000);
afterAll(async () => {
  await receiver.close();
  await t.close();
});

/** Sends a ping and answers the one call the receiver got for it. */
async function ping(s: TestSupplier) {
  receiver.calls.length = 0;
  const delivery = await json(as(t, s, 'POST', '/webhook/test'));
  expect(delivery.status, JSON.stringify(delivery)).toBe('delivered');
  expect(receiver.calls).toHaveLength(1);
  return receiver.calls[0]!;
}

describe("the event's path", () => {
  it("is joined to the URL's path, and the query string stays after it", async () => {
    const s = await t.supplier();
    await json(as(t, s, 'PUT', '/webhook', { baseUrl: `http://127.0.0.1:${receiver.port}/erp/x?token=t0k3n&v=2`, enabled: true }));
    expect((await ping(s)).url).toBe('/erp/x/webhooks/ping?token=t0k3n&v=2');
    // A trailing slash is not doubled; a fragment is never sent.
    await json(as(t, s, 'PUT', '/webhook', { baseUrl: `http://127.0.0.1:${receiver.port}/erp/?token=t0k3n#part`, enabled: true }));
    expect((await ping(s)).url).toBe('/erp/webhooks/ping?token=t0k3n');
    await json(as(t, s, 'PUT', '/webhook', { baseUrl: `http://127.0.0.1:${receiver.port}?token=t0k3n`, enabled: true }));
    expect((await ping(s)).url).toBe('/webhooks/ping?token=t0k3n');
  });
});

describe('credentials in the URL', () => {
  it('are sent as HTTP Basic credentials (percent-decoded), never in the request line', async () => {
    const s = await t.supplier();
    await json(as(t, s, 'PUT', '/webhook', { baseUrl: `http://erp-user:s3cr%40t%3Ax@127.0.0.1:${receiver.port}/erp`, enabled: true }));
    const call = await ping(s);
    expect(call.url).toBe('/erp/webhooks/ping');
    expect(call.headers.authorization).toBe(`Basic ${Buffer.from('erp-user:s3cr@t:x').toString('base64')}`);
    // Without credentials, no Authorization header.
    await json(as(t, s, 'PUT', '/webhook', { baseUrl: `http://127.0.0.1:${receiver.port}/erp`, enabled: true }));
    expect((await ping(s)).headers.authorization).toBeUndefined();
  });
});

describe('what readers see', () => {
  const secretUrl = () => `http://erp-user:s3cr3tpass@127.0.0.1:${receiver.port}/erp?token=t0k3nvalue&v=2`;
  const masked = () => `http://erp-user:***@127.0.0.1:${receiver.port}/erp?token=***&v=***`;

  it('never the password nor the query values: members of every role, credentials, operators, the write answers, the audit and the delivery log', async () => {
    const s = await t.supplier();
    const owner = await memberSession(t, s, 'owner.url@example.com', 'owner');
    const viewer = await memberSession(t, s, 'viewer.url@example.com', 'viewer');
    const set = await as(t, owner, 'PUT', '/webhook', { baseUrl: secretUrl(), enabled: true }, { 'idempotency-key': 'url-1' });
    expect(set.statusCode, set.body).toBe(200);
    const operatorSet = await t.admin('PUT', `/admin/suppliers/${s.id}/webhook`, { baseUrl: secretUrl(), enabled: true });
    expect(operatorSet.statusCode, operatorSet.body).toBe(200);
    await ping(s);
    const answers = [
      set,
      operatorSet,
      await as(t, owner, 'PUT', '/webhook', { baseUrl: secretUrl(), enabled: true }, { 'idempotency-key': 'url-1' }),
      await as(t, owner, 'GET', '/webhook'),
      await as(t, viewer, 'GET', '/webhook'),
      await as(t, s, 'GET', '/webhook'),
      await t.admin('GET', `/admin/suppliers/${s.id}/webhook`),
      await as(t, viewer, 'GET', '/webhook/deliveries'),
      await t.admin('GET', `/admin/suppliers/${s.id}/webhook/deliveries`),
      await as(t, owner, 'GET', '/audit'),
      await t.admin('GET', `/admin/audit?supplier=${s.id}`),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain('s3cr3tpass');
      expect(res.body).not.toContain('t0k3nvalue');
    }
    for (const res of answers.slice(0, 7)) expect(res.json().baseUrl).toBe(masked());
    const kept = await t.deps.db.selectFrom('idempotency_keys').select('response_body').where('owner', '=', `supplier:${s.id}`).where('key', '=', 'url-1').executeTakeFirstOrThrow();
    expect(String(kept.response_body)).not.toContain('s3cr3tpass');
    // The webhook itself still holds them, and sends them.
    const call = await ping(s);
    expect(call.url).toBe('/erp/webhooks/ping?token=t0k3nvalue&v=2');
    expect(call.headers.authorization).toBe(`Basic ${Buffer.from('erp-user:s3cr3tpass').toString('base64')}`);
  });

  it('a user name alone counts as the credential: masked whole', async () => {
    const s = await t.supplier();
    const set = await json(as(t, s, 'PUT', '/webhook', { baseUrl: 'https://tok_abcdef@erp.example/hooks', enabled: false }));
    expect(set.baseUrl).toBe('https://***@erp.example/hooks');
    expect((await json(as(t, s, 'GET', '/webhook'))).baseUrl).toBe('https://***@erp.example/hooks');
  });

  it('a URL without credentials or query is answered as it was set', async () => {
    const s = await t.supplier();
    await json(as(t, s, 'PUT', '/webhook', { baseUrl: 'https://ERP.example/Hooks/', enabled: false }));
    expect((await json(as(t, s, 'GET', '/webhook'))).baseUrl).toBe('https://ERP.example/Hooks/');
  });
});

describe('changing a webhook whose URL is masked', () => {
  const secretUrl = () => `http://erp-user:s3cr3tpass@127.0.0.1:${receiver.port}/erp?token=t0k3nvalue`;

  it('without baseUrl changes only the state and keeps the URL whole', async () => {
    const s = await t.supplier();
    await json(as(t, s, 'PUT', '/webhook', { baseUrl: secretUrl(), enabled: false }));
    const changed = await json(as(t, s, 'PUT', '/webhook', { enabled: true }));
    expect(changed).toMatchObject({ baseUrl: `http://erp-user:***@127.0.0.1:${receiver.port}/erp?token=***`, enabled: true });
    const row = await t.deps.db.selectFrom('supplier_webhooks').select(['base_url', 'enabled']).where('supplier_id', '=', s.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ base_url: secretUrl(), enabled: true });
    // The operators' route takes the same body.
    await json(t.admin('PUT', `/admin/suppliers/${s.id}/webhook`, { enabled: false }));
    expect(await t.deps.db.selectFrom('supplier_webhooks').select(['base_url', 'enabled']).where('supplier_id', '=', s.id).executeTakeFirstOrThrow()).toEqual({ base_url: secretUrl(), enabled: false });
    // A webhook never set gets no URL from a body without one.
    const fresh = await t.supplier();
    expect(await json(as(t, fresh, 'PUT', '/webhook', { enabled: false }))).toMatchObject({ baseUrl: null, enabled: false });
  });

  it('saving the masked URL back is refused with 400 naming baseUrl, and the stored one stays', async () => {
    const s = await t.supplier();
    await json(as(t, s, 'PUT', '/webhook', { baseUrl: secretUrl(), enabled: true }));
    const shown = (await json(as(t, s, 'GET', '/webhook'))).baseUrl as string;
    for (const baseUrl of [shown, shown.replace('/erp', '/erp2'), 'https://***@erp.example/x', 'https://erp.example/x?a=***']) {
      const res = await as(t, s, 'PUT', '/webhook', { baseUrl, enabled: true });
      expect(res.statusCode, baseUrl).toBe(400);
      expect(res.json().errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/baseUrl']);
      expect(res.json().errors[0].message).toMatch(/masked/);
    }
    expect((await t.deps.db.selectFrom('supplier_webhooks').select('base_url').where('supplier_id', '=', s.id).executeTakeFirstOrThrow()).base_url).toBe(secretUrl());
  });
});

describe("an attempt's error", () => {
  it('never carries the URL', async () => {
    const s = await t.supplier();
    // Nothing listens on port 1: the attempt fails without an answer.
    await json(as(t, s, 'PUT', '/webhook', { baseUrl: 'http://erp-user:s3cr3tpass@127.0.0.1:1/erp?token=t0k3nvalue', enabled: true }));
    const delivery = await json(as(t, s, 'POST', '/webhook/test'));
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts[0].error).toEqual(expect.any(String));
    expect(JSON.stringify(delivery)).not.toMatch(/s3cr3tpass|t0k3nvalue/);
  });
});
