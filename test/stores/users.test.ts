// POST /store/{code}/add/user and /remove/user: a store membership names the phone and/or
// email its supplier gave (emails without regard to case). Each store shows its users as
// its supplier gave them, and signing in with one of those identifiers opens the
// memberships naming it: nothing one supplier sent reaches another supplier's store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let a: TestSupplier;
let b: TestSupplier;

async function createStores(s: TestSupplier, ...codes: string[]) {
  const { statuses: [status] } = await t.runBatch(s, '/batch/store', { upsert: codes.map((code) => ({ internalCode: code, name: `Store ${code}` })) });
  expect(status).toMatchObject({ status: 'processed', failed: 0 });
}

beforeAll(async () => {
  t = await createTestApp();
  a = await t.supplier();
  b = await t.supplier();
});
afterAll(() => t.close());

let seq = 0;
/** Fresh stores, phones and emails per test, so no test depends on another's people. */
const phone = () => `+57300${String(1_000_000 + ++seq)}`;
const email = (name = 'user') => `${name}.${++seq}@example.com`;
async function newStores(s: TestSupplier, n = 1) {
  const codes = Array.from({ length: n }, () => `S-U${++seq}`);
  await createStores(s, ...codes);
  return codes;
}
const add = (s: TestSupplier, store: string, users: unknown[]) => as(t, s, 'POST', `/store/${store}/add/user`, { users });
const remove = (s: TestSupplier, store: string, users: unknown[]) => as(t, s, 'POST', `/store/${store}/remove/user`, { users });
const usersOf = async (s: TestSupplier, store: string) => (await as(t, s, 'GET', `/store/${store}`)).json().users;
function ok(res: { statusCode: number; body: string; json(): any }) {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().users;
}

describe('POST /store/{code}/add/user', () => {
  it('adds by phone, by email and by both; answers the store users', async () => {
    const [store] = await newStores(a);
    const [p1, e2, p3, e3] = [phone(), email('luis'), phone(), email('ana')];
    const users = ok(await add(a, store!, [{ phone: p1 }, { email: e2, name: 'Luis' }, { phone: p3, email: e3, name: 'Ana' }]));
    expect(users).toEqual([
      { phone: p1, email: null, name: null },
      { phone: null, email: e2, name: 'Luis' },
      { phone: p3, email: e3, name: 'Ana' },
    ]);
    expect(await usersOf(a, store!)).toEqual(users);
  });

  it('adding someone again changes nothing; the same person twice in one request counts once', async () => {
    const [store] = await newStores(a);
    const p = phone();
    ok(await add(a, store!, [{ phone: p }, { phone: p }]));
    expect(ok(await add(a, store!, [{ phone: p }]))).toEqual([{ phone: p, email: null, name: null }]);
  });

  it('one person in several stores and across two suppliers, each seeing only what it sent', async () => {
    const [s1, s2] = await newStores(a, 2);
    const [sb] = await newStores(b);
    const [p, e] = [phone(), email('ana')];
    ok(await add(a, s1!, [{ phone: p, email: e, name: 'Ana' }]));
    expect(ok(await add(a, s2!, [{ phone: p }]))).toEqual([{ phone: p, email: null, name: null }]);
    // Supplier b learns nothing of what supplier a registered.
    expect(ok(await add(b, sb!, [{ email: e }]))).toEqual([{ phone: null, email: e, name: null }]);
    expect(await usersOf(a, s1!)).toEqual([{ phone: p, email: e, name: 'Ana' }]);
    // Each identifier opens the memberships naming it; the email alone is not the phone's.
    const storesBy = async (contact: object) => {
      const token = (await t.admin('POST', '/admin/store-users/token', contact)).json().access_token;
      return (await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token}` } })).json();
    };
    const byPhone = await storesBy({ phone: p });
    expect(byPhone.user).toEqual({ phone: p, email: null, name: 'Ana', language: null });
    expect(byPhone.stores.map((x: { internalCode: string }) => x.internalCode).sort()).toEqual([s1, s2].sort());
    const byEmail = await storesBy({ email: e });
    expect(byEmail.user).toEqual({ phone: null, email: e, name: 'Ana', language: null });
    expect(byEmail.stores.map((x: { internalCode: string }) => x.internalCode).sort()).toEqual([s1, sb].sort());
  });

  it('matches emails without regard to case and stores them in lower case', async () => {
    const [s1, s2] = await newStores(a, 2);
    const e = email('Mixed.Case');
    ok(await add(a, s1!, [{ email: e.toUpperCase(), name: 'Mixed' }]));
    expect(await usersOf(a, s1!)).toEqual([{ phone: null, email: e.toLowerCase(), name: 'Mixed' }]);
    expect(ok(await add(a, s2!, [{ email: e }]))).toEqual([{ phone: null, email: e.toLowerCase(), name: null }]);
    // The phone given with the email in another case completes the same person.
    const p = phone();
    expect(ok(await add(a, s2!, [{ email: e.toLowerCase(), phone: p }]))).toEqual([{ phone: p, email: e.toLowerCase(), name: null }]);
    const token = (await t.admin('POST', '/admin/store-users/token', { email: e.toUpperCase() })).json().access_token;
    const me = (await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token}` } })).json();
    expect(me.user).toEqual({ phone: null, email: e.toLowerCase(), name: 'Mixed', language: null });
    expect(me.stores.map((x: { internalCode: string }) => x.internalCode).sort()).toEqual([s1, s2].sort());
  });

  it("completes or renames the supplier's own view of a store user", async () => {
    const [store] = await newStores(a);
    const [p, e] = [phone(), email()];
    ok(await add(a, store!, [{ phone: p, name: 'Old' }]));
    expect(ok(await add(a, store!, [{ phone: p, email: e, name: 'New' }]))).toEqual([{ phone: p, email: e, name: 'New' }]);
    // Nothing sent: nothing changed.
    expect(ok(await add(a, store!, [{ email: e }]))).toEqual([{ phone: p, email: e, name: 'New' }]);
  });

  it('a membership is opened by each identifier its supplier named, and by nothing else', async () => {
    const [s1, s2] = await newStores(a, 2);
    const [p1, e1, p2, e2] = [phone(), email(), phone(), email()];
    ok(await add(a, s1!, [{ phone: p1, email: e1 }, { phone: p2, email: e2 }]));
    expect(ok(await add(a, s2!, [{ phone: p1, email: e2 }]))).toEqual([{ phone: p1, email: e2, name: null }]);
    const storesOf = async (contact: object) => {
      const token = (await t.admin('POST', '/admin/store-users/token', contact)).json().access_token;
      return (await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${token}` } })).json().stores.map((x: { internalCode: string }) => x.internalCode).sort();
    };
    expect(await storesOf({ phone: p1 })).toEqual([s1, s2].sort());
    // s2's supplier named e2 for its user: e2 opens s2 too (the supplier's own store).
    expect(await storesOf({ email: e2 })).toEqual([s1, s2].sort());
    expect(await storesOf({ email: e1 })).toEqual([s1]);
  });

  it('a known phone with another email replaces the email: the old one no longer opens the store', async () => {
    const [store] = await newStores(a);
    const [p, e, other] = [phone(), email(), email()];
    ok(await add(a, store!, [{ phone: p, email: e }]));
    const old = (await t.admin('POST', '/admin/store-users/token', { email: e })).json().access_token;
    expect(ok(await add(a, store!, [{ phone: p, email: other }]))).toEqual([{ phone: p, email: other, name: null }]);
    const me = (await t.request({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${old}` } })).json();
    expect(me.user).toEqual({ phone: null, email: e, name: null, language: null });
    expect(me.stores).toEqual([]);
  });

  it('a user with neither phone nor email: 400 with a pointer per user', async () => {
    const [store] = await newStores(a);
    const res = await add(a, store!, [{ phone: phone() }, { name: 'Nobody' }, {}]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(res.json().errors.map((e: any) => [e.pointer, e.code])).toEqual([
      ['/users/1', 'REQUIRED'],
      ['/users/2', 'REQUIRED'],
    ]);
    expect(await usersOf(a, store!)).toEqual([]);
  });

  it('validates phones, emails and the list (400)', async () => {
    const [store] = await newStores(a);
    const res = await add(a, store!, [{ phone: '3001234567' }, { email: 'nope' }, { phone: '+57 300', email: 'a@b.co' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: any) => [e.pointer, e.code])).toEqual([
      ['/users/0/phone', 'INVALID_FORMAT'],
      ['/users/1/email', 'INVALID_FORMAT'],
      ['/users/2/phone', 'INVALID_FORMAT'],
    ]);
    expect((await add(a, store!, [])).json()).toMatchObject({ errors: [{ pointer: '/users', code: 'INVALID_LENGTH' }] });
    expect((await as(t, a, 'POST', `/store/${store}/add/user`, {})).json()).toMatchObject({ errors: [{ pointer: '/users', code: 'REQUIRED' }] });
    const tooMany = await add(a, store!, Array.from({ length: 101 }, () => ({ phone: phone() })));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ errors: [{ pointer: '/users' }] });
    expect(await usersOf(a, store!)).toEqual([]);
  });

  it('an unknown store: 404 for add and remove', async () => {
    for (const verb of ['add', 'remove']) {
      const res = await as(t, a, 'POST', `/store/S-NOPE/${verb}/user`, { users: [{ phone: phone() }] });
      expect(res.statusCode, verb).toBe(404);
      expect(res.json()).toMatchObject({ status: 404, code: 'NOT_FOUND', errors: [{ pointer: '/params/code' }] });
    }
  });

  it('the same new person added to many stores at once is one person', async () => {
    const stores = await newStores(a, 8);
    const [p, e] = [phone(), email()];
    const answers = await Promise.all(stores.map((store, i) => add(a, store, [i % 2 ? { phone: p, email: e } : { email: e.toUpperCase(), phone: p }])));
    for (const res of answers) expect(ok(res)).toEqual([{ phone: p, email: e, name: null }]);
    for (const store of stores) expect(await usersOf(a, store)).toEqual([{ phone: p, email: e, name: null }]);
  });
});

describe('POST /store/{code}/remove/user', () => {
  it('removes by phone, by email (any case) or both, only from that store', async () => {
    const [s1, s2] = await newStores(a, 2);
    const [sb] = await newStores(b);
    const people = [
      { phone: phone(), email: email(), name: 'One' },
      { phone: phone(), email: email(), name: 'Two' },
      { phone: phone(), email: email(), name: 'Three' },
      { phone: phone(), email: null, name: 'Four' },
    ];
    const input = people.map(({ phone, email, name }) => ({ phone, ...(email ? { email } : {}), name }));
    ok(await add(a, s1!, input));
    ok(await add(a, s2!, input));
    ok(await add(b, sb!, input));
    const left = ok(await remove(a, s1!, [{ phone: people[0]!.phone }, { email: people[1]!.email!.toUpperCase() }, { phone: people[2]!.phone, email: people[2]!.email }]));
    expect(left).toEqual([people[3]]);
    expect(await usersOf(a, s1!)).toEqual([people[3]]);
    expect(await usersOf(a, s2!)).toEqual(people);
    expect(await usersOf(b, sb!)).toEqual(people);
  });

  it('removing someone who is not in the store, or unknown, changes nothing', async () => {
    const [s1, s2] = await newStores(a, 2);
    const p = phone();
    ok(await add(a, s1!, [{ phone: p }]));
    expect(ok(await remove(a, s2!, [{ phone: p }]))).toEqual([]);
    expect(ok(await remove(a, s1!, [{ phone: phone() }, { email: email() }]))).toEqual([{ phone: p, email: null, name: null }]);
    expect(ok(await remove(a, s1!, [{ phone: p }, { phone: p }]))).toEqual([]);
    expect(ok(await remove(a, s1!, [{ phone: p }]))).toEqual([]);
    // The person still exists: adding them again finds the same person.
    ok(await add(a, s2!, [{ phone: p, name: 'Back' }]));
    expect(ok(await add(a, s1!, [{ phone: p }]))).toEqual([{ phone: p, email: null, name: null }]);
    expect(await usersOf(a, s2!)).toEqual([{ phone: p, email: null, name: 'Back' }]);
  });

  it('removes the people the supplier knows by the phones and emails given', async () => {
    const [store] = await newStores(a);
    const [p1, e1, p2, e2, p3] = [phone(), email(), phone(), email(), phone()];
    ok(await add(a, store!, [{ phone: p1, email: e1 }, { phone: p2, email: e2 }, { phone: p3 }]));
    expect(ok(await remove(a, store!, [{ phone: p1, email: e2 }]))).toEqual([{ phone: p3, email: null, name: null }]);
  });

  it('a user with neither phone nor email: 400', async () => {
    const [store] = await newStores(a);
    const res = await remove(a, store!, [{ name: 'Nobody' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'REQUIRED', errors: [{ pointer: '/users/0', code: 'REQUIRED' }] });
  });
});
