// Support tickets through their whole lifecycle (openapi.json): every transition, allowed
// and refused, from both sides, with the webhook events and the store notifications they
// cause; and who may reach which ticket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { orderOf } from '../webhooks/helpers.ts';
import { addPerson, asPerson, createStores, storeId, type Person } from './helpers.ts';

let t: TestApp;
let a: TestSupplier;
let b: TestSupplier;
let ana: Person;
let bob: Person;
let anaStore: number;
let bobStore: number;

beforeAll(async () => {
  t = await createTestApp();
  a = await t.supplier();
  b = await t.supplier();
  await createStores(t, a, ['S-1', 'S-2']);
  await createStores(t, b, ['S-1']);
  ana = await addPerson(t, a, 'S-1', 'ana@example.com');
  bob = await addPerson(t, a, 'S-2', 'bob@example.com');
  anaStore = await storeId(t, ana, a, 'S-1');
  bobStore = await storeId(t, bob, a, 'S-2');
});
afterAll(() => t.close());

async function open(message = 'Faltan las cajas', orderId?: number) {
  const res = await asPerson(t, ana, 'POST', `/app/stores/${anaStore}/tickets`, { message, ...(orderId ? { orderId } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const put = (id: number, body: unknown, s = a) => as(t, s, 'PUT', `/support/ticket/${id}`, body);
const askInfo = (body: unknown, s = a) => as(t, s, 'POST', '/support/ticket/additional-info', body);
const close = (body: unknown, s = a) => as(t, s, 'PUT', '/support/ticket/close', body);
const answer = (id: number, message = 'Aquí tiene', p = ana) => asPerson(t, p, 'POST', `/app/tickets/${id}/answer`, { message });

type Status = 'PENDING' | 'IN_PROGRESS' | 'ADDITIONAL_INFO_REQUESTED' | 'SOLVED' | 'CLOSED';

/** A fresh ticket brought to `status` through the API. */
async function ticketIn(status: Status): Promise<number> {
  const { id } = await open();
  const reach: Record<Status, () => Promise<unknown>> = {
    PENDING: async () => {},
    IN_PROGRESS: () => put(id, { status: 'IN_PROGRESS' }),
    ADDITIONAL_INFO_REQUESTED: () => askInfo({ ticketId: id }),
    SOLVED: () => put(id, { status: 'SOLVED' }),
    CLOSED: () => close({ ticketId: id }),
  };
  await reach[status]();
  expect((await as(t, a, 'GET', `/support/ticket/${id}`)).json().status).toBe(status);
  return id;
}

const ALL: Status[] = ['PENDING', 'IN_PROGRESS', 'ADDITIONAL_INFO_REQUESTED', 'SOLVED', 'CLOSED'];

describe('opening a ticket', () => {
  it('opens a PENDING ticket with the store message and records the create-ticket webhook in the same transaction', async () => {
    const orderId = await orderOf(t, a, 'S-1');
    const ticket = await open('Llegó sin las cajas de cola', orderId);
    expect(ticket).toMatchObject({
      status: 'PENDING',
      userMessage: 'Llegó sin las cajas de cola',
      externalTicketId: null,
      platformInternalCode: 'S-1',
      resolvedAt: null,
      orderId,
      storeId: anaStore,
      messages: [{ from: 'STORE', message: 'Llegó sin las cajas de cola', at: ticket.createdAt }],
    });
    expect(ticket.updatedAt).toBe(ticket.createdAt);
    const supplierView = (await as(t, a, 'GET', `/support/ticket/${ticket.id}`)).json();
    const { storeId: _storeId, ...rest } = ticket;
    expect(supplierView).toEqual(rest);
    const [delivery] = (await as(t, a, 'GET', '/webhook/deliveries?eventType=ticket.created')).json().data;
    expect(delivery).toMatchObject({ eventType: 'ticket.created', path: '/webhooks/support/create-ticket', status: 'pending', attempts: [] });
  });

  it('validates the body', async () => {
    const url = `/app/stores/${anaStore}/tickets`;
    expect((await asPerson(t, ana, 'POST', url, {})).json()).toMatchObject({ status: 400, code: 'REQUIRED' });
    expect((await asPerson(t, ana, 'POST', url, { message: '' })).json()).toMatchObject({ status: 400, code: 'INVALID_LENGTH' });
    expect((await asPerson(t, ana, 'POST', url, { message: 'x'.repeat(5001) })).statusCode).toBe(400);
    expect((await asPerson(t, ana, 'POST', url, { message: 'x', orderId: 'ten' })).json()).toMatchObject({ status: 400, code: 'INVALID_TYPE' });
  });
});

describe('transitions', () => {
  const cases: { op: string; run: (id: number) => Promise<{ statusCode: number; json(): any }>; from: Status[]; to: Status }[] = [
    { op: 'PUT status IN_PROGRESS', run: (id) => put(id, { status: 'IN_PROGRESS' }), from: ['PENDING', 'IN_PROGRESS', 'ADDITIONAL_INFO_REQUESTED', 'SOLVED'], to: 'IN_PROGRESS' },
    { op: 'PUT status SOLVED', run: (id) => put(id, { status: 'SOLVED' }), from: ['PENDING', 'IN_PROGRESS', 'ADDITIONAL_INFO_REQUESTED', 'SOLVED'], to: 'SOLVED' },
    { op: 'additional-info', run: (id) => askInfo({ ticketId: id, message: '¿Foto?' }), from: ['PENDING', 'IN_PROGRESS', 'ADDITIONAL_INFO_REQUESTED'], to: 'ADDITIONAL_INFO_REQUESTED' },
    { op: 'close', run: (id) => close({ ticketId: id, message: 'Reenviado' }), from: ['PENDING', 'IN_PROGRESS', 'ADDITIONAL_INFO_REQUESTED', 'SOLVED'], to: 'CLOSED' },
    { op: 'store answers', run: (id) => answer(id), from: ['ADDITIONAL_INFO_REQUESTED'], to: 'IN_PROGRESS' },
  ];
  for (const c of cases) {
    for (const from of ALL) {
      const allowed = c.from.includes(from);
      it(`${c.op} from ${from}: ${allowed ? c.to : '409 INVALID_TICKET_TRANSITION'}`, async () => {
        const id = await ticketIn(from);
        const before = (await as(t, a, 'GET', `/support/ticket/${id}`)).json();
        const res = await c.run(id);
        if (allowed) {
          expect(res.statusCode, JSON.stringify(res.json())).toBe(200);
          expect(res.json().status).toBe(c.to);
        } else {
          expect(res.statusCode).toBe(409);
          expect(res.json()).toMatchObject({ code: 'INVALID_TICKET_TRANSITION' });
          expect((await as(t, a, 'GET', `/support/ticket/${id}`)).json()).toEqual(before);
        }
      });
    }
  }
});

describe('the supplier side', () => {
  it('links an externalTicketId, appends every supplier message, and finds tickets by it', async () => {
    const { id } = await open();
    const linked = await put(id, { externalTicketId: 'ZD-77', message: 'Lo revisamos' });
    expect(linked.json()).toMatchObject({ status: 'PENDING', externalTicketId: 'ZD-77' });
    expect(linked.json().messages.map((m: { from: string }) => m.from)).toEqual(['STORE', 'SUPPLIER']);
    const asked = await askInfo({ externalTicketId: 'ZD-77', message: '¿Qué cajas?' });
    expect(asked.json()).toMatchObject({ id, status: 'ADDITIONAL_INFO_REQUESTED' });
    const closed = await close({ externalTicketId: 'ZD-77', message: 'Reenviamos las cajas' });
    expect(closed.json().messages.map((m: { message: string }) => m.message)).toEqual(['Faltan las cajas', 'Lo revisamos', '¿Qué cajas?', 'Reenviamos las cajas']);
    expect(closed.json().resolvedAt).toBe(closed.json().updatedAt);
  });

  it('refuses a duplicate externalTicketId of the same supplier with 409; another supplier may use it', async () => {
    const first = await open();
    const second = await open();
    expect((await put(first.id, { externalTicketId: 'DUP-1' })).statusCode).toBe(200);
    const dup = await put(second.id, { externalTicketId: 'DUP-1', status: 'SOLVED' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'ALREADY_EXISTS', errors: [{ pointer: '/externalTicketId' }] });
    expect((await as(t, a, 'GET', `/support/ticket/${second.id}`)).json()).toMatchObject({ status: 'PENDING', externalTicketId: null });
    // Re-linking the same id to the same ticket is no conflict.
    expect((await put(first.id, { externalTicketId: 'DUP-1' })).statusCode).toBe(200);
  });

  it('sets resolvedAt when SOLVED (kept when solved again), clears it when reopened, and keeps it when closed', async () => {
    const { id } = await open();
    const solved = (await put(id, { status: 'SOLVED', message: 'Listo' })).json();
    expect(solved.resolvedAt).toBe(solved.updatedAt);
    await new Promise((r) => setTimeout(r, 5));
    const again = (await put(id, { status: 'SOLVED' })).json();
    expect(again.resolvedAt).toBe(solved.resolvedAt);
    const reopened = (await put(id, { status: 'IN_PROGRESS' })).json();
    expect(reopened.resolvedAt).toBeNull();
    const solvedTwice = (await put(id, { status: 'SOLVED' })).json();
    await new Promise((r) => setTimeout(r, 5));
    const closed = (await close({ ticketId: id })).json();
    expect(closed).toMatchObject({ status: 'CLOSED', resolvedAt: solvedTwice.resolvedAt });
  });

  it('answers 400 for neither or both of ticketId and externalTicketId, 404 for an unknown ticket', async () => {
    const { id } = await open();
    for (const call of [askInfo, close]) {
      expect((await call({ message: 'x' })).json()).toMatchObject({ status: 400, code: 'REQUIRED' });
      expect((await call({ ticketId: id, externalTicketId: 'E' })).json()).toMatchObject({ status: 400, code: 'MUTUALLY_EXCLUSIVE' });
      expect((await call({ ticketId: 99999999 })).json()).toMatchObject({ status: 404, code: 'NOT_FOUND', errors: [{ pointer: '/ticketId' }] });
      expect((await call({ externalTicketId: 'NOPE' })).statusCode).toBe(404);
    }
    expect((await put(99999999, { status: 'SOLVED' })).statusCode).toBe(404);
    expect((await as(t, a, 'GET', '/support/ticket/99999999')).statusCode).toBe(404);
    expect((await put(id, { status: 'CLOSED' })).json()).toMatchObject({ status: 400, errors: [{ pointer: '/status' }] });
  });

  it("never shows or changes another supplier's ticket", async () => {
    const { id } = await open();
    expect((await as(t, b, 'GET', `/support/ticket/${id}`)).statusCode).toBe(404);
    expect((await put(id, { status: 'SOLVED' }, b)).statusCode).toBe(404);
    expect((await askInfo({ ticketId: id }, b)).statusCode).toBe(404);
    expect((await close({ ticketId: id }, b)).statusCode).toBe(404);
    expect((await as(t, b, 'GET', '/support/ticket')).json().data.map((x: { id: number }) => x.id)).not.toContain(id);
    expect((await as(t, a, 'GET', `/support/ticket/${id}`)).json().status).toBe('PENDING');
  });

  it('lists tickets newest first by id, filtered by status, with list conventions', async () => {
    const s = await t.supplier();
    await createStores(t, s, ['L-1']);
    const p = await addPerson(t, s, 'L-1', 'lister@example.com');
    const store = await storeId(t, p, s, 'L-1');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await asPerson(t, p, 'POST', `/app/stores/${store}/tickets`, { message: `n${i}` })).json().id);
    await as(t, s, 'PUT', '/support/ticket/close', { ticketId: ids[1] });
    const all = (await as(t, s, 'GET', '/support/ticket')).json();
    expect(all).toMatchObject({ page: 1, take: 50, total: 3, totalPages: 1 });
    expect(all.data.map((x: { id: number }) => x.id)).toEqual([...ids].reverse());
    expect((await as(t, s, 'GET', '/support/ticket?status=CLOSED')).json().data.map((x: { id: number }) => x.id)).toEqual([ids[1]]);
    expect((await as(t, s, 'GET', '/support/ticket?status=PENDING&take=1&page=2')).json()).toMatchObject({ total: 2, totalPages: 2, data: [{ id: ids[0] }] });
    expect((await as(t, s, 'GET', '/support/ticket?take=0')).statusCode).toBe(400);
    expect((await as(t, s, 'GET', '/support/ticket?status=OPEN')).statusCode).toBe(400);
  });

  it('needs supplier/support.read to read and supplier/support.write to change', async () => {
    const reader = await t.supplier(undefined, ['supplier/support.read']);
    const writer = await t.supplier(undefined, ['supplier/support.write']);
    expect((await as(t, reader, 'GET', '/support/ticket')).statusCode).toBe(200);
    expect((await close({ ticketId: 1 }, reader)).statusCode).toBe(403);
    expect((await askInfo({ ticketId: 1 }, reader)).statusCode).toBe(403);
    expect((await put(1, { status: 'SOLVED' }, reader)).statusCode).toBe(403);
    expect((await as(t, writer, 'GET', '/support/ticket/1')).statusCode).toBe(403);
    expect((await close({ ticketId: 1 }, writer)).statusCode).toBe(404);
  });
});

describe('the store side', () => {
  it('answers only while information is requested, and records the additional-info-received webhook', async () => {
    const id = await ticketIn('ADDITIONAL_INFO_REQUESTED');
    const answered = await answer(id, 'Tres cajas');
    expect(answered.json()).toMatchObject({ status: 'IN_PROGRESS', storeId: anaStore });
    expect(answered.json().messages.at(-1)).toMatchObject({ from: 'STORE', message: 'Tres cajas' });
    const [delivery] = (await as(t, a, 'GET', '/webhook/deliveries?eventType=ticket.additional_info_received')).json().data;
    expect(delivery).toMatchObject({ path: '/webhooks/support/ticket-additional-info-received', status: 'pending' });
    expect((await answer(id, 'otra vez')).json()).toMatchObject({ status: 409, code: 'INVALID_TICKET_TRANSITION' });
  });

  it("lists the store's tickets newest first and shows one", async () => {
    const first = await open('uno');
    const second = await open('dos');
    const list = (await asPerson(t, ana, 'GET', `/app/stores/${anaStore}/tickets?take=2`)).json();
    expect(list.data.map((x: { id: number }) => x.id)).toEqual([second.id, first.id]);
    expect(list.data[0].storeId).toBe(anaStore);
    expect((await asPerson(t, ana, 'GET', `/app/tickets/${first.id}`)).json()).toEqual(first);
  });

  it("answers 404 for another person's store or ticket, and for stores that do not exist", async () => {
    const ticket = await open();
    const id = await ticketIn('ADDITIONAL_INFO_REQUESTED');
    expect((await asPerson(t, bob, 'GET', `/app/tickets/${ticket.id}`)).statusCode).toBe(404);
    expect((await answer(id, 'no soy yo', bob)).statusCode).toBe(404);
    expect((await asPerson(t, bob, 'POST', `/app/stores/${anaStore}/tickets`, { message: 'x' })).statusCode).toBe(404);
    expect((await asPerson(t, bob, 'GET', `/app/stores/${anaStore}/tickets`)).statusCode).toBe(404);
    expect((await asPerson(t, ana, 'GET', `/app/stores/${bobStore}/tickets`)).statusCode).toBe(404);
    expect((await asPerson(t, ana, 'GET', '/app/stores/99999999/tickets')).statusCode).toBe(404);
    expect((await asPerson(t, ana, 'GET', '/app/tickets/99999999')).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/app/tickets/${ticket.id}` })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: `/app/tickets/${ticket.id}`, headers: a.headers })).statusCode).toBe(401);
    expect((await as(t, a, 'GET', `/support/ticket/${id}`)).json().status).toBe('ADDITIONAL_INFO_REQUESTED');
  });
});
