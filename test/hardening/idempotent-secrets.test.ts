// The idempotency cache never keeps or replays a secret. Replaying a secret-issuing admin
// call with the same Idempotency-Key answers the same status with what identifies the
// result (the client id, the webhook) and a note, without the secret; the kept answer in
// the idempotency table holds no secret either. Before, the replay handed out the API
// key and client secret (or token, or webhook secret) again, and the table kept them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_WITHHELD_NOTE } from '../../src/http/idempotency.ts';
import { ADMIN_TOKEN, as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let s: TestSupplier;
beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
}, 180_000);
afterAll(() => t.close());

const admin = (method: 'POST' | 'PUT', url: string, key: string, payload?: unknown) =>
  t.request({ method, url, payload: payload as never, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'idempotency-key': key } });

async function keptAnswer(key: string): Promise<string> {
  const row = await t.deps.db.selectFrom('idempotency_keys').select(['response_body', 'state']).where('owner', '=', 'admin').where('key', '=', key).executeTakeFirstOrThrow();
  expect(row.state).toBe('done');
  return String(row.response_body);
}

describe('secret-issuing admin calls under a repeated Idempotency-Key', () => {
  it('credentials: the replay names the client, never the API key or the client secret', async () => {
    const first = await admin('POST', `/admin/suppliers/${s.id}/credentials`, 'cred-1', { scopes: ['supplier/pricelist.read'] });
    expect(first.statusCode, first.body).toBe(200);
    const issued = first.json();
    expect(issued.apiKey).toMatch(/^key_/);
    expect(issued.clientSecret).toBeTruthy();
    expect(issued.note).toBeUndefined();

    const replay = await admin('POST', `/admin/suppliers/${s.id}/credentials`, 'cred-1', { scopes: ['supplier/pricelist.read'] });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual({ clientId: issued.clientId, scopes: ['supplier/pricelist.read'], note: SECRET_WITHHELD_NOTE });
    expect(replay.body).not.toContain(issued.apiKey);
    expect(replay.body).not.toContain(issued.clientSecret);

    const kept = await keptAnswer('cred-1');
    expect(kept).not.toContain(issued.apiKey);
    expect(kept).not.toContain(issued.clientSecret);
    expect(kept).toContain(issued.clientId);
    // The first answer's credentials work; no second credential was issued by the replay.
    const login = await t.request({ method: 'POST', url: '/login', headers: { 'x-api-key': issued.apiKey }, payload: { clientId: issued.clientId, clientSecret: issued.clientSecret } });
    expect(login.statusCode).toBe(200);
    const clients = await t.deps.db.selectFrom('api_clients').select('client_id').where('supplier_id', '=', s.id).execute();
    expect(clients).toHaveLength(2);
  });

  it('webhook configuration and secret rotation: the replay names the webhook, never its secret', async () => {
    const body = { baseUrl: 'https://erp.example.com/hooks', enabled: true };
    const first = await admin('PUT', `/admin/suppliers/${s.id}/webhook`, 'hook-1', body);
    expect(first.statusCode, first.body).toBe(200);
    const secret = first.json().secret as string;
    expect(secret).toMatch(/^whsec_/);
    const replay = await admin('PUT', `/admin/suppliers/${s.id}/webhook`, 'hook-1', body);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ baseUrl: body.baseUrl, enabled: true, note: SECRET_WITHHELD_NOTE });
    expect(await keptAnswer('hook-1')).not.toContain(secret);

    const rotated = await admin('POST', `/admin/suppliers/${s.id}/webhook/rotate-secret`, 'rotate-1');
    expect(rotated.statusCode, rotated.body).toBe(200);
    const next = rotated.json().secret as string;
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    const rotatedAgain = await admin('POST', `/admin/suppliers/${s.id}/webhook/rotate-secret`, 'rotate-1');
    expect(rotatedAgain.statusCode).toBe(200);
    expect(rotatedAgain.json()).toEqual({ note: SECRET_WITHHELD_NOTE });
    expect(await keptAnswer('rotate-1')).not.toContain(next);
  });

  it('a store-user token: the replay never carries the token', async () => {
    await t.runBatch(s, '/batch/store', { upsert: [{ internalCode: 'S-1', name: 'Tienda' }] });
    expect((await as(t, s, 'POST', '/store/S-1/add/user', { users: [{ phone: '+573001112233' }] })).statusCode).toBe(200);
    const first = await admin('POST', '/admin/store-users/token', 'mint-1', { phone: '+573001112233' });
    expect(first.statusCode, first.body).toBe(200);
    const token = first.json().access_token as string;
    expect(token.length).toBeGreaterThan(20);
    const replay = await admin('POST', '/admin/store-users/token', 'mint-1', { phone: '+573001112233' });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ token_type: 'Bearer', expires_in: first.json().expires_in, note: SECRET_WITHHELD_NOTE });
    expect(await keptAnswer('mint-1')).not.toContain(token);
  });

  it('an ordinary admin call still replays its whole answer', async () => {
    const first = await admin('POST', '/admin/suppliers', 'sup-1', { code: 'SUP-IDEM', name: 'Idem' });
    expect(first.statusCode, first.body).toBe(200);
    const replay = await admin('POST', '/admin/suppliers', 'sup-1', { code: 'SUP-IDEM', name: 'Idem' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
  });
});
