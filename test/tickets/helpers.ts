import { expect } from 'vitest';
import { as, type TestApp, type TestSupplier } from '../helpers/app.ts';

export interface Person {
  email: string;
  headers: Record<string, string>;
}

export async function createStores(t: TestApp, s: TestSupplier, codes: string[]) {
  await t.runBatch(s, '/batch/store', { upsert: codes.map((internalCode) => ({ internalCode, name: `Tienda ${internalCode}` })) });
}

export async function addPerson(t: TestApp, s: TestSupplier, storeCode: string, email: string): Promise<Person> {
  const added = await as(t, s, 'POST', `/store/${storeCode}/add/user`, { users: [{ email }] });
  expect(added.statusCode, added.body).toBe(200);
  const token = await t.admin('POST', '/admin/store-users/token', { email });
  expect(token.statusCode, token.body).toBe(200);
  return { email, headers: { authorization: `Bearer ${token.json().access_token}` } };
}

/** The platform id of the person's store of that supplier and code. */
export async function storeId(t: TestApp, p: Person, s: TestSupplier, code: string): Promise<number> {
  const me = await t.request({ method: 'GET', url: '/app/me', headers: p.headers });
  const store = me.json().stores.find((x: { internalCode: string; supplier: { code: string } }) => x.internalCode === code && x.supplier.code === s.code);
  expect(store, `${p.email} belongs to ${s.code}/${code}`).toBeDefined();
  return store.id;
}

export function asPerson(t: TestApp, p: Person, method: 'GET' | 'POST', url: string, payload?: unknown) {
  return t.request({ method, url, payload: payload as never, headers: p.headers });
}
