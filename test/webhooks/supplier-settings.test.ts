// The supplier's own webhook settings (PUT /webhook, POST /webhook/rotate-secret): the same
// operations as the operators' (configureWebhook, rotateWebhookSecret), reached with the
// supplier's credential or a member's console session holding supplier/webhook.write. The
// secret is answered once (an Idempotency-Key replay drops it, and the kept answer never
// holds it), the receiver verifies a ping with the rotated secret, every write is audited,
// and a supplier's writes reach its own webhook only. The route matrices
// (test/hardening) cover the scopes of every role and the 401s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../src/client/index.ts';
import { SECRET_WITHHELD_NOTE } from '../../src/http/idempotency.ts';
import { fingerprint } from '../hardening/fingerprint.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { memberSession } from '../helpers/console.ts';
import { json } from '../helpers/fixtures.ts';
import { startRecorder, type Recorder } from '../helpers/recorder.ts';

let t: TestApp;
let receiverUrl: string;
/** The local receiver: raw body and headers of each call. */
let receiver: Recorder;

beforeAll(async () => {
  t = await createTestApp();
  receiver = await startRecorder();
  receiverUrl = `http://127.0.0.1:${receiver.port}/erp`;
}, 180_000);
afterAll(async () => {
  await receiver.close();
  await t.close();
});

async function keptAnswer(s: TestSupplier, key: string): Promise<string> {
  const row = await t.deps.db.selectFrom('idempotency_keys').select(['response_body', 'state']).where('owner', '=', `supplier:${s.id}`).where('key', '=', key).executeTakeFirstOrThrow();
  expect(row.state).toBe('done');
  return String(row.response_body);
}

describe('PUT /webhook', () => {
  it('sets the URL and state, answering the secret made the first time and the same one after', async () => {
    const s = await t.supplier();
    const first = await json(as(t, s, 'PUT', '/webhook', { baseUrl: 'https://erp.example/hooks', enabled: false }));
    expect(first).toEqual({ baseUrl: 'https://erp.example/hooks', enabled: false, secret: expect.stringMatching(/^whsec_/) });
    const again = await json(as(t, s, 'PUT', '/webhook', { baseUrl: 'https://erp.example/v2', enabled: true }));
    expect(again).toEqual({ baseUrl: 'https://erp.example/v2', enabled: true, secret: first.secret });
    const settings = await as(t, s, 'GET', '/webhook');
    expect(settings.json()).toEqual({ baseUrl: 'https://erp.example/v2', enabled: true, previousSecretExpiresAt: null, updatedAt: expect.any(String) });
    expect(settings.body).not.toContain('whsec_');
    // What the operators see is the same webhook.
    expect(await json(t.admin('GET', `/admin/suppliers/${s.id}/webhook`))).toEqual(settings.json());
    // A null URL keeps the row (and its secret) but sends nothing.
    expect(await json(as(t, s, 'PUT', '/webhook', { baseUrl: null, enabled: false }))).toEqual({ baseUrl: null, enabled: false, secret: first.secret });
  });

  it('refuses a bad body with 400 naming the field, and changes nothing', async () => {
    const s = await t.supplier();
    await json(as(t, s, 'PUT', '/webhook', { baseUrl: 'https://erp.example/hooks', enabled: true }));
    const before = await fingerprint(t.deps.db, ['supplier_webhooks']);
    for (const [body, pointer] of [
      [{ baseUrl: 'ftp://erp.example/hooks', enabled: true }, '/baseUrl'],
      [{ baseUrl: 'not a url', enabled: true }, '/baseUrl'],
      [{ baseUrl: `https://erp.example/${'x'.repeat(2100)}`, enabled: true }, '/baseUrl'],
      [{ baseUrl: 'https://erp.example/hooks' }, '/enabled'],
      [{ baseUrl: 'https://erp.example/hooks', enabled: 'yes' }, '/enabled'],
    ] as const) {
      const res = await as(t, s, 'PUT', '/webhook', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors.map((e: { pointer: string }) => e.pointer), JSON.stringify(body)).toContain(pointer);
    }
    expect(await fingerprint(t.deps.db, ['supplier_webhooks'])).toEqual(before);
  });
});

describe('POST /webhook/rotate-secret', () => {
  it('answers a new secret once; the old one signs beside it; the receiver verifies a ping with the new one', async () => {
    const s = await t.supplier();
    const { secret: old } = await json(as(t, s, 'PUT', '/webhook', { baseUrl: receiverUrl, enabled: true }));
    const rotated = await json(as(t, s, 'POST', '/webhook/rotate-secret'));
    expect(Object.keys(rotated)).toEqual(['secret']);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(old);
    const settings = await as(t, s, 'GET', '/webhook');
    expect(settings.json().previousSecretExpiresAt).toEqual(expect.any(String));
    expect(settings.body).not.toContain(rotated.secret);

    receiver.calls.length = 0;
    expect(await json(as(t, s, 'POST', '/webhook/test'))).toMatchObject({ status: 'delivered' });
    expect(receiver.calls).toHaveLength(1);
    const ping = receiver.calls[0]!;
    expect(verifyWebhook(rotated.secret, ping.body, ping.headers)).toMatchObject({ type: 'ping', payload: { supplierCode: s.code } });
    expect(verifyWebhook(old, ping.body, ping.headers)).toMatchObject({ type: 'ping' });
    expect(() => verifyWebhook('whsec_' + Buffer.alloc(32, 7).toString('base64'), ping.body, ping.headers)).toThrow();
  });

  it('answers 409 WEBHOOK_NOT_CONFIGURED before the webhook was ever set (the operators too), and writes nothing', async () => {
    const s = await t.supplier();
    const mine = await as(t, s, 'POST', '/webhook/rotate-secret');
    expect(mine.statusCode, mine.body).toBe(409);
    expect(mine.json().code).toBe('WEBHOOK_NOT_CONFIGURED');
    const operators = await t.admin('POST', `/admin/suppliers/${s.id}/webhook/rotate-secret`);
    expect(operators.statusCode, operators.body).toBe(409);
    expect(operators.json().code).toBe('WEBHOOK_NOT_CONFIGURED');
    expect((await t.admin('POST', '/admin/suppliers/999999/webhook/rotate-secret')).statusCode).toBe(404);
    expect(await t.deps.db.selectFrom('supplier_webhooks').select('supplier_id').where('supplier_id', '=', s.id).execute()).toEqual([]);
    expect((await as(t, s, 'GET', '/audit?entity=webhook')).json().total).toBe(0);
  });
});

describe('replays under the same Idempotency-Key', () => {
  it('name the webhook and never carry its secret, nor does the kept answer', async () => {
    const s = await t.supplier();
    const body = { baseUrl: 'https://erp.example/hooks', enabled: true };
    const first = await as(t, s, 'PUT', '/webhook', body, { 'idempotency-key': 'hook-1' });
    expect(first.statusCode, first.body).toBe(200);
    const secret = first.json().secret as string;
    expect(secret).toMatch(/^whsec_/);
    const replay = await as(t, s, 'PUT', '/webhook', body, { 'idempotency-key': 'hook-1' });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual({ baseUrl: body.baseUrl, enabled: true, note: SECRET_WITHHELD_NOTE });
    expect(await keptAnswer(s, 'hook-1')).not.toContain(secret);

    const rotated = await as(t, s, 'POST', '/webhook/rotate-secret', undefined, { 'idempotency-key': 'rotate-1' });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const next = rotated.json().secret as string;
    const again = await as(t, s, 'POST', '/webhook/rotate-secret', undefined, { 'idempotency-key': 'rotate-1' });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual({ note: SECRET_WITHHELD_NOTE });
    expect(again.body).not.toContain(next);
    expect(await keptAnswer(s, 'rotate-1')).not.toContain(next);
    // The replay rotated nothing: the secret answered first still signs, and only it and the one before.
    const row = await t.deps.db.selectFrom('supplier_webhooks').select(['secret', 'previous_secret']).where('supplier_id', '=', s.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ secret: next, previous_secret: secret });
  });
});

describe('who may set and rotate', () => {
  it("a member's session by role (owner and manager yes, viewer and agent 403), each write audited with the member", async () => {
    const s = await t.supplier();
    const manager = await memberSession(t, s, 'manager.hooks@example.com', 'manager');
    const viewer = await memberSession(t, s, 'viewer.hooks@example.com', 'viewer');
    const agent = await memberSession(t, s, 'agent.hooks@example.com', 'agent');
    for (const who of [viewer, agent]) {
      for (const [method, url, body] of [
        ['PUT', '/webhook', { baseUrl: 'https://erp.example/x', enabled: true }],
        ['POST', '/webhook/rotate-secret', undefined],
      ] as const) {
        const res = await as(t, who, method, url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'INSUFFICIENT_SCOPE', detail: 'this operation needs the scope supplier/webhook.write' });
      }
    }
    await json(as(t, manager, 'PUT', '/webhook', { baseUrl: 'https://erp.example/hooks', enabled: true }));
    await json(as(t, manager, 'POST', '/webhook/rotate-secret'));
    const entries = (await json(as(t, s, 'GET', '/audit?entity=webhook'))).data;
    expect(entries.map((e: { operation: string; actor: object; supplierId: number }) => [e.operation, e.actor, e.supplierId])).toEqual([
      ['POST /webhook/rotate-secret', { kind: 'person', id: 'manager.hooks@example.com' }, s.id],
      ['PUT /webhook', { kind: 'person', id: 'manager.hooks@example.com' }, s.id],
    ]);
    expect(JSON.stringify(entries)).not.toContain('whsec_');
    // A credential's write names the credential.
    await json(as(t, s, 'POST', '/webhook/rotate-secret'));
    expect((await json(as(t, s, 'GET', '/audit?entity=webhook'))).data[0].actor).toEqual({ kind: 'credential', id: s.clientId });
  });

  it("reaches the caller's own webhook only: another supplier's stays as it was", async () => {
    const a = await t.supplier();
    const b = await t.supplier();
    const { secret: aSecret } = await json(t.admin('PUT', `/admin/suppliers/${a.id}/webhook`, { baseUrl: 'https://alpha.example/erp', enabled: true }));
    const aBefore = await t.deps.db.selectFrom('supplier_webhooks').selectAll().where('supplier_id', '=', a.id).executeTakeFirstOrThrow();
    const bOwner = await memberSession(t, b, 'owner.beta.hooks@example.com', 'owner');
    for (const who of [b, bOwner]) {
      const set = await json(as(t, who, 'PUT', '/webhook', { baseUrl: 'https://beta.example/erp', enabled: false }));
      expect(set.secret).not.toBe(aSecret);
      const rotated = await json(as(t, who, 'POST', '/webhook/rotate-secret'));
      expect(rotated.secret).not.toBe(aSecret);
    }
    expect(await t.deps.db.selectFrom('supplier_webhooks').selectAll().where('supplier_id', '=', a.id).executeTakeFirstOrThrow()).toEqual(aBefore);
    expect((await as(t, a, 'GET', '/webhook')).json()).toMatchObject({ baseUrl: 'https://alpha.example/erp', enabled: true, previousSecretExpiresAt: null });
    expect((await as(t, b, 'GET', '/webhook')).json()).toMatchObject({ baseUrl: 'https://beta.example/erp', enabled: false });
    expect((await json(as(t, a, 'GET', '/audit?entity=webhook'))).data.map((e: { operation: string }) => e.operation)).toEqual(['PUT /admin/suppliers/:supplierId/webhook']);
  });
});
