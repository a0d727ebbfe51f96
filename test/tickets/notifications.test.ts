// A store hears of every supplier action on its tickets through /app/notifications:
// scoped to the person's stores, newest first, read state per person.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { addPerson, asPerson, createStores, storeId, type Person } from './helpers.ts';

let t: TestApp;
let a: TestSupplier;
let ana: Person;
let eva: Person;
let bob: Person;
let store: number;

beforeAll(async () => {
  t = await createTestApp();
  a = await t.supplier();
  await createStores(t, a, ['S-1', 'S-2']);
  ana = await addPerson(t, a, 'S-1', 'ana@example.com');
  eva = await addPerson(t, a, 'S-1', 'eva@example.com');
  bob = await addPerson(t, a, 'S-2', 'bob@example.com');
  store = await storeId(t, ana, a, 'S-1');
});
afterAll(() => t.close());

const notifications = async (p: Person, query = '') => {
  const res = await asPerson(t, p, 'GET', `/app/notifications${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('store notifications', () => {
  it('tells the store when the supplier asks for information, writes, solves and closes, newest first', async () => {
    const { id } = (await asPerson(t, ana, 'POST', `/app/stores/${store}/tickets`, { message: 'Hola' })).json();
    expect((await notifications(ana)).data).toEqual([]);
    await as(t, a, 'PUT', `/support/ticket/${id}`, { externalTicketId: 'ZD-1' });
    await as(t, a, 'PUT', `/support/ticket/${id}`, { status: 'IN_PROGRESS' });
    await as(t, a, 'POST', '/support/ticket/additional-info', { ticketId: id, message: '¿Qué pedido?' });
    await asPerson(t, ana, 'POST', `/app/tickets/${id}/answer`, { message: 'El 1001' });
    await as(t, a, 'PUT', `/support/ticket/${id}`, { message: 'Va en camino' });
    await as(t, a, 'PUT', `/support/ticket/${id}`, { status: 'SOLVED' });
    await as(t, a, 'PUT', '/support/ticket/close', { ticketId: id, message: 'Entregado' });

    const list = await notifications(ana);
    expect(list).toMatchObject({ page: 1, take: 50, total: 4, totalPages: 1 });
    expect(list.data.map((n: { type: string; message: string | null }) => [n.type, n.message])).toEqual([
      ['TICKET_CLOSED', 'Entregado'],
      ['TICKET_SOLVED', null],
      ['TICKET_MESSAGE', 'Va en camino'],
      ['TICKET_INFO_REQUESTED', '¿Qué pedido?'],
    ]);
    expect(list.data[0]).toMatchObject({ ticketId: id, orderId: null, read: false, store: { id: store, internalCode: 'S-1', name: 'Tienda S-1' } });
    // Everyone of the store is told; nobody of another store is.
    expect((await notifications(eva)).total).toBe(4);
    expect((await notifications(bob)).total).toBe(0);
  });

  it('marks notifications read for one person only, filters unread, and ignores ids of other stores', async () => {
    const all = (await notifications(ana)).data;
    const [newest, second] = all;
    const res = await asPerson(t, bob, 'POST', '/app/notifications/read', { ids: [newest.id] });
    expect(res.json()).toEqual({ read: [] });
    const marked = await asPerson(t, ana, 'POST', '/app/notifications/read', { ids: [newest.id, second.id, newest.id, 99999999] });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toEqual({ read: [second.id, newest.id].sort((x, y) => x - y) });
    expect((await asPerson(t, ana, 'POST', '/app/notifications/read', { ids: [newest.id] })).json()).toEqual({ read: [newest.id] });

    const unread = await notifications(ana, '?unread=true');
    expect(unread.total).toBe(all.length - 2);
    expect(unread.data.every((n: { read: boolean }) => !n.read)).toBe(true);
    expect((await notifications(ana)).data.slice(0, 2).map((n: { read: boolean }) => n.read)).toEqual([true, true]);
    expect((await notifications(eva, '?unread=true')).total).toBe(all.length);
    expect((await notifications(ana, '?take=1&page=2')).data.map((n: { id: number }) => n.id)).toEqual([second.id]);
  });

  it('validates and authenticates', async () => {
    expect((await asPerson(t, ana, 'POST', '/app/notifications/read', { ids: [] })).statusCode).toBe(400);
    expect((await asPerson(t, ana, 'POST', '/app/notifications/read', {})).statusCode).toBe(400);
    expect((await asPerson(t, ana, 'GET', '/app/notifications?take=51')).statusCode).toBe(400);
    expect((await t.request({ method: 'GET', url: '/app/notifications' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/app/notifications', headers: a.headers })).statusCode).toBe(401);
  });
});
