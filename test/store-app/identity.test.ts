// Issue 12: nothing a supplier sends can make someone else able to sign in to another
// supplier's store. A membership names the phone and/or email its supplier gave; a code
// proves one identifier and opens exactly the memberships naming it; a second identifier
// joins a person only when proven with a code sent to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';

let t: TestApp;
let attacker: TestSupplier;
let victim: TestSupplier;
let seq = 0;
const phone = () => `+57311${String(1_000_000 + ++seq)}`;
const email = (name: string) => `${name}.${++seq}@example.com`;

beforeAll(async () => {
  t = await createTestApp();
  attacker = await t.supplier();
  victim = await t.supplier();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, token?: string) =>
  t.request({ method: 'POST', url, payload: payload as never, headers: token ? { authorization: `Bearer ${token}` } : {} });
const get = (url: string, token: string) => t.request({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

async function newStore(s: TestSupplier) {
  const code = `S-ID${++seq}`;
  await t.runBatch(s, '/batch/store', { upsert: [{ internalCode: code, name: `Store ${code}` }] });
  return code;
}
async function addUser(s: TestSupplier, store: string, user: object) {
  const res = await as(t, s, 'POST', `/store/${store}/add/user`, { users: [user] });
  expect(res.statusCode, res.body).toBe(200);
}
/** Signs in through the real code flow: the code is read where it was sent. */
async function signIn(contact: { phone: string } | { email: string }) {
  expect((await post('/app/auth/code', contact)).statusCode).toBe(202);
  const code = await t.notifier.waitForCode('phone' in contact ? contact.phone : contact.email);
  const res = await post('/app/auth/token', { ...contact, code });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token as string;
}
const storesOf = async (token: string) =>
  (await get('/app/me', token)).json().stores.map((s: { supplier: { code: string }; internalCode: string }) => `${s.supplier.code}/${s.internalCode}`).sort();
const storeIdOf = async (token: string, s: TestSupplier, code: string) =>
  (await get('/app/me', token)).json().stores.find((x: { supplier: { code: string }; internalCode: string }) => x.supplier.code === s.code && x.internalCode === code)?.id as number;

/** Everything the store app offers on a store answers 404 to someone who does not belong to it. */
async function expectShutOut(token: string, storeId: number) {
  expect((await get(`/app/stores/${storeId}/catalog`, token)).statusCode).toBe(404);
  expect((await get(`/app/stores/${storeId}/orders`, token)).statusCode).toBe(404);
  expect((await get(`/app/stores/${storeId}/tickets`, token)).statusCode).toBe(404);
  expect((await post(`/app/stores/${storeId}/tickets`, { message: 'hola' }, token)).statusCode).toBe(404);
  expect((await post(`/app/stores/${storeId}/orders`, { lines: [{ productInternalCode: 'X', units: 1, quantity: 1 }] }, token)).statusCode).toBe(404);
}

describe('store-user identity cannot be claimed by a supplier', () => {
  it("a supplier adding a victim's phone with its own email cannot sign in as the victim", async () => {
    const [vStore, aStore] = [await newStore(victim), await newStore(attacker)];
    const victimPhone = phone();
    await addUser(victim, vStore, { phone: victimPhone, name: 'Rosa' });
    const mine = email('attacker');
    await addUser(attacker, aStore, { phone: victimPhone, email: mine });

    const attackerToken = await signIn({ email: mine });
    expect(await storesOf(attackerToken)).toEqual([`${attacker.code}/${aStore}`]);
    const victimToken = await signIn({ phone: victimPhone });
    const vStoreId = await storeIdOf(victimToken, victim, vStore);
    expect(vStoreId).toBeGreaterThan(0);
    await expectShutOut(attackerToken, vStoreId);
    // The attacker's own email was never added to the victim's sign-in identity.
    expect((await get('/app/me', victimToken)).json().user).toMatchObject({ phone: victimPhone, email: null });
  });

  it("the other way: a supplier adding its own phone to a victim's email gains nothing", async () => {
    const [vStore, aStore] = [await newStore(victim), await newStore(attacker)];
    const victimEmail = email('victim');
    await addUser(victim, vStore, { email: victimEmail });
    const mine = phone();
    await addUser(attacker, aStore, { phone: mine, email: victimEmail });

    const attackerToken = await signIn({ phone: mine });
    expect(await storesOf(attackerToken)).toEqual([`${attacker.code}/${aStore}`]);
    const victimToken = await signIn({ email: victimEmail });
    await expectShutOut(attackerToken, await storeIdOf(victimToken, victim, vStore));
  });

  it('nothing is left behind when the supplier removes the user again', async () => {
    const [vStore, aStore] = [await newStore(victim), await newStore(attacker)];
    const victimPhone = phone();
    await addUser(victim, vStore, { phone: victimPhone });
    const mine = email('attacker');
    await addUser(attacker, aStore, { phone: victimPhone, email: mine });
    expect((await as(t, attacker, 'POST', `/store/${aStore}/remove/user`, { users: [{ phone: victimPhone }] })).statusCode).toBe(200);

    // No membership names the attacker's email any more: no code is even sent to it.
    expect((await post('/app/auth/code', { email: mine })).statusCode).toBe(202);
    await expect(t.notifier.waitForCode(mine, 500)).rejects.toThrow();
    const minted = await t.admin('POST', '/admin/store-users/token', { email: mine });
    expect(minted.statusCode, minted.body).toBe(404);
    const victimToken = await signIn({ phone: victimPhone });
    expect(await storesOf(victimToken)).toEqual([`${victim.code}/${vStore}`]);
  });

  it('a signed-in person adds a second identifier only by proving it with a code sent to it', async () => {
    const [s1, s2] = [await newStore(victim), await newStore(attacker)];
    const [p, e] = [phone(), email('rosa')];
    await addUser(victim, s1, { phone: p });
    await addUser(attacker, s2, { email: e });
    const token = await signIn({ phone: p });
    expect(await storesOf(token)).toEqual([`${victim.code}/${s1}`]);

    // A wrong code, or a sign-in code of that email, proves nothing.
    expect((await post('/app/me/identifiers', { email: e, code: '000000' }, token)).statusCode).toBe(401);
    expect((await post('/app/auth/code', { email: e })).statusCode).toBe(202);
    const signInCode = await t.notifier.waitForCode(e);
    expect((await post('/app/me/identifiers', { email: e, code: signInCode }, token)).statusCode).toBe(401);

    expect((await post('/app/me/identifiers/code', { email: e.toUpperCase() }, token)).statusCode).toBe(202);
    const proof = await t.notifier.waitForCode(e);
    const added = await post('/app/me/identifiers', { email: e, code: proof }, token);
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().user).toMatchObject({ phone: p, email: e });
    expect(await storesOf(token)).toEqual([`${attacker.code}/${s2}`, `${victim.code}/${s1}`].sort());
    // The email now signs in to the same person.
    expect(await storesOf(await signIn({ email: e }))).toEqual([`${attacker.code}/${s2}`, `${victim.code}/${s1}`].sort());
    // Without a token, no identifier can be added at all.
    expect((await post('/app/me/identifiers/code', { email: e })).statusCode).toBe(401);
  });

  it('proving an identifier another person signed in with merges that person in', async () => {
    const store = await newStore(victim);
    const [p, e] = [phone(), email('two')];
    await addUser(victim, store, { phone: p, email: e });
    const byEmail = await signIn({ email: e });
    const byPhone = await signIn({ phone: p });
    expect((await post('/app/me/identifiers/code', { email: e }, byPhone)).statusCode).toBe(202);
    const added = await post('/app/me/identifiers', { email: e, code: await t.notifier.waitForCode(e) }, byPhone);
    expect(added.statusCode, added.body).toBe(200);
    // The email's person was folded into the phone's: its old token opens nothing.
    expect((await get('/app/me', byEmail)).statusCode).toBe(401);
    expect((await get('/app/me', await signIn({ email: e }))).json().user).toMatchObject({ phone: p, email: e });
  });
});
