// The language a person saved travels with them: GET /app/me answers it (null until they
// save preferences), so an app signing in on another phone adopts it (the shop does in
// web/shop/routes/sign-in.tsx; web/e2e/journey.test.ts checks it in a browser).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
const token: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  const s = await t.supplier();
  const res = await as(t, s, 'POST', '/batch/store', { upsert: [{ internalCode: 'S-1', name: 'Tienda' }] });
  await t.waitForBatches(s, res.json().batchId);
  const users = [{ email: 'ana@example.com', name: 'Ana' }, { email: 'bea@example.com', name: 'Bea' }];
  expect((await as(t, s, 'POST', '/store/S-1/add/user', { users })).statusCode).toBe(200);
  for (const { email } of users) token[email] = (await t.admin('POST', '/admin/store-users/token', { email })).json().access_token;
});
afterAll(() => t.close());

const call = (who: string, method: 'GET' | 'PUT', url: string, payload?: unknown) =>
  t.request({ method, url, payload: payload as never, headers: { authorization: `Bearer ${token[who]}` } });

describe('the language in GET /app/me', () => {
  it('is null until the person saves one, then the saved one, for that person only', async () => {
    expect((await call('ana@example.com', 'GET', '/app/me')).json().user.language).toBeNull();

    const saved = await call('ana@example.com', 'PUT', '/app/me/preferences', { language: 'pt-BR' });
    expect(saved.statusCode, saved.body).toBe(200);
    const me = await call('ana@example.com', 'GET', '/app/me');
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().user).toMatchObject({ email: 'ana@example.com', language: 'pt-BR' });

    expect((await call('ana@example.com', 'PUT', '/app/me/preferences', { language: 'en' })).statusCode).toBe(200);
    expect((await call('ana@example.com', 'GET', '/app/me')).json().user.language).toBe('en');
    expect((await call('bea@example.com', 'GET', '/app/me')).json().user.language).toBeNull();
  });
});
