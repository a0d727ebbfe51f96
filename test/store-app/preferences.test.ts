// PUT /app/me/preferences: every field is optional, and an empty body (or none) keeps
// every preference as it is; a field sent changes only itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  const s = await t.supplier();
  await t.runBatch(s, '/batch/store', { upsert: [{ internalCode: 'S-1', name: 'Tienda' }] });
  expect((await as(t, s, 'POST', '/store/S-1/add/user', { users: [{ email: 'ana@example.com', name: 'Ana' }] })).statusCode).toBe(200);
  token = (await t.admin('POST', '/admin/store-users/token', { email: 'ana@example.com' })).json().access_token;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'PUT', payload?: unknown) =>
  t.request({ method, url: '/app/me/preferences', payload: payload as never, headers: { authorization: `Bearer ${token}` } });

describe('message preferences', () => {
  it('an empty body, or none, changes nothing; a field sent changes only itself', async () => {
    const set = await call('PUT', { language: 'pt-BR', channel: 'email', events: ['ORDER_CONFIRMED'] });
    expect(set.statusCode, set.body).toBe(200);
    const before = (await call('GET')).json();
    expect(before).toMatchObject({ language: 'pt-BR', channel: 'email', events: ['ORDER_CONFIRMED'] });

    for (const payload of [{}, undefined]) {
      const res = await call('PUT', payload);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual(before);
      expect((await call('GET')).json()).toEqual(before);
    }

    const one = await call('PUT', { language: 'en' });
    expect(one.json()).toEqual({ ...before, language: 'en' });
  });

  it('refuses an unknown language, naming the field, and keeps what was stored', async () => {
    const before = (await call('GET')).json();
    const res = await call('PUT', { language: 'xx' });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('/language');
    expect((await call('GET')).json()).toEqual(before);
  });
});
