// A ticket's names (issue 34; src/modules/tickets/README.md, "Names"): GET /support/ticket and
// GET /support/ticket/{id} with names=true add the store's name and the store user who opened
// the ticket, as the supplier registered them; without it they answer the contract's ticket
// as before, and the webhook and the changes' answers never carry them. A page with names
// costs the same two statements whatever it holds.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTickets } from '../../src/modules/tickets/tickets.repository.ts';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { StatementCounter } from '../helpers/database.ts';

let t: TestApp;
let a: TestSupplier;
let b: TestSupplier;
const tokens: Record<string, Record<string, string>> = {};
const storeIds: Record<string, number> = {};

const CONTRACT_KEYS = ['createdAt', 'externalTicketId', 'id', 'messages', 'orderId', 'platformInternalCode', 'resolvedAt', 'status', 'updatedAt', 'userMessage'];

async function ok(res: Promise<{ statusCode: number; body: string; json(): any }>, status = 200) {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.json();
}

async function token(contact: { phone: string } | { email: string }) {
  const minted = await ok(t.admin('POST', '/admin/store-users/token', contact));
  return { authorization: `Bearer ${minted.access_token}` };
}

/** Opens a ticket as the person at the supplier's store; answers its id. */
async function open(person: string, s: TestSupplier, code: string, message: string): Promise<number> {
  const headers = tokens[person]!;
  const me = await ok(t.request({ method: 'GET', url: '/app/me', headers }));
  const store = me.stores.find((x: { internalCode: string; supplier: { code: string } }) => x.internalCode === code && x.supplier.code === s.code);
  storeIds[`${s.code}/${code}`] = store.id;
  return (await ok(t.request({ method: 'POST', url: `/app/stores/${store.id}/tickets`, headers, payload: { message } }))).id;
}

let rosaTicket: number;
let phoneTicket: number;
let leftTicket: number;

beforeAll(async () => {
  t = await createTestApp();
  a = await t.supplier();
  b = await t.supplier();
  await t.runBatch(a, '/batch/store', { upsert: [{ internalCode: 'S-1', name: 'Tienda Doña Rosa' }, { internalCode: 'S-2', name: 'Minimercado El Sol' }] });
  await t.runBatch(b, '/batch/store', { upsert: [{ internalCode: 'S-1', name: 'Otra tienda' }] });
  // Rosa is a user of A's store and of B's, each supplier registering her under its own name.
  await ok(as(t, a, 'POST', '/store/S-1/add/user', { users: [{ email: 'rosa@example.com', phone: '+573001110000', name: 'Rosa Pérez' }] }));
  await ok(as(t, b, 'POST', '/store/S-1/add/user', { users: [{ email: 'rosa@example.com', name: 'Doña Rosa de B' }] }));
  // A user A registered with a phone alone, and one A takes off the store after they open a ticket.
  await ok(as(t, a, 'POST', '/store/S-2/add/user', { users: [{ phone: '+573009998877' }, { email: 'leo@example.com', name: 'Leo' }] }));
  tokens.rosa = await token({ email: 'rosa@example.com' });
  tokens.phone = await token({ phone: '+573009998877' });
  tokens.leo = await token({ email: 'leo@example.com' });
  rosaTicket = await open('rosa', a, 'S-1', 'Llegaron latas abolladas');
  phoneTicket = await open('phone', a, 'S-2', 'Falta una caja');
  leftTicket = await open('leo', a, 'S-2', 'Cobro doble');
  await open('rosa', b, 'S-1', 'Para el otro proveedor');
  await ok(as(t, a, 'POST', '/store/S-2/remove/user', { users: [{ email: 'leo@example.com' }] }));
});
afterAll(() => t.close());

describe('names=true', () => {
  it('the list names each store and who opened each ticket, as this supplier registered them', async () => {
    const list = await ok(as(t, a, 'GET', '/support/ticket?names=true'));
    expect(list.total).toBe(3);
    const byId = new Map(list.data.map((k: { id: number }) => [k.id, k]));
    expect(byId.get(rosaTicket)).toMatchObject({
      platformInternalCode: 'S-1',
      storeName: 'Tienda Doña Rosa',
      openedBy: { name: 'Rosa Pérez', phone: '+573001110000', email: 'rosa@example.com' },
    });
    expect(byId.get(phoneTicket)).toMatchObject({ storeName: 'Minimercado El Sol', openedBy: { name: null, phone: '+573009998877', email: null } });
    // Taken off the store: nobody the supplier knows opened it any more.
    expect(byId.get(leftTicket)).toMatchObject({ storeName: 'Minimercado El Sol', openedBy: null });
    // The other supplier sees its own registration of the same person.
    const other = await ok(as(t, b, 'GET', '/support/ticket?names=true'));
    expect(other.data).toEqual([expect.objectContaining({ storeName: 'Otra tienda', openedBy: { name: 'Doña Rosa de B', phone: null, email: 'rosa@example.com' } })]);
  });

  it('one ticket answers the same names, and filters and pages still apply', async () => {
    const one = await ok(as(t, a, 'GET', `/support/ticket/${rosaTicket}?names=true`));
    const listed = (await ok(as(t, a, 'GET', '/support/ticket?names=true'))).data.find((k: { id: number }) => k.id === rosaTicket);
    expect(one).toEqual(listed);
    const paged = await ok(as(t, a, 'GET', '/support/ticket?names=true&take=1&page=2&status=PENDING'));
    expect(paged).toMatchObject({ total: 3, page: 2, take: 1, totalPages: 3 });
    expect(paged.data).toEqual([expect.objectContaining({ id: phoneTicket, storeName: 'Minimercado El Sol' })]);
    expect((await as(t, b, 'GET', `/support/ticket/${rosaTicket}?names=true`)).statusCode).toBe(404);
  });

  it('a page costs two statements (the page and its count), however many tickets and stores it holds', async () => {
    const counter = new StatementCounter();
    const { rows, total } = await listTickets(t.deps.db.withPlugin(counter), { supplierId: a.id }, { names: true, take: 50, page: 1 });
    expect(rows.map((r) => r.store_name)).toEqual(['Minimercado El Sol', 'Minimercado El Sol', 'Tienda Doña Rosa']);
    expect(total).toBe(3);
    expect(counter.count).toBe(2);
  });

  it('a value that is not a boolean is a 400 naming /query/names', async () => {
    const res = await as(t, a, 'GET', '/support/ticket?names=perhaps');
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual([expect.objectContaining({ pointer: '/query/names' })]);
  });
});

describe('without names', () => {
  it("the list and one ticket answer the contract's ticket, as before (names=false too)", async () => {
    for (const url of ['/support/ticket', '/support/ticket?names=false']) {
      for (const k of (await ok(as(t, a, 'GET', url))).data) expect(Object.keys(k).sort()).toEqual(CONTRACT_KEYS);
    }
    expect(Object.keys(await ok(as(t, a, 'GET', `/support/ticket/${rosaTicket}`))).sort()).toEqual(CONTRACT_KEYS);
  });

  it("the webhooks and the changes' answers never carry names", async () => {
    const changed = await ok(as(t, a, 'PUT', `/support/ticket/${rosaTicket}`, { status: 'IN_PROGRESS' }));
    expect(Object.keys(changed).sort()).toEqual(CONTRACT_KEYS);
    const events = await sql<{ body: string }>`select body from webhook_events where type = 'ticket.created' and supplier_id = ${a.id}`.execute(t.deps.db);
    expect(events.rows).toHaveLength(3);
    for (const e of events.rows) expect(Object.keys(JSON.parse(e.body)).sort()).toEqual(CONTRACT_KEYS);
    // The store app's answers are unchanged too.
    const app = await ok(t.request({ method: 'GET', url: `/app/tickets/${rosaTicket}`, headers: tokens.rosa! }));
    expect(Object.keys(app).sort()).toEqual([...CONTRACT_KEYS, 'storeId'].sort());
  });
});
