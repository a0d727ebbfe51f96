// What a ticket write may leave out (issue 13): a PUT whose every field is optional
// changes nothing when it sends none (200, no event, no message), `null` in an optional
// field is the field left out, and "exactly one of ticketId and externalTicketId" counts
// the values that are not null.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { addPerson, asPerson, createStores, storeId, type Person } from './helpers.ts';

let t: TestApp;
let s: TestSupplier;
let ana: Person;
let store: number;

beforeAll(async () => {
  t = await createTestApp();
  s = await t.supplier();
  await createStores(t, s, ['S-1']);
  ana = await addPerson(t, s, 'S-1', 'ana@example.com');
  store = await storeId(t, ana, s, 'S-1');
});
afterAll(() => t.close());

let seq = 0;
async function open(externalTicketId?: string) {
  const res = await asPerson(t, ana, 'POST', `/app/stores/${store}/tickets`, { message: `Ticket ${++seq}` });
  expect(res.statusCode, res.body).toBe(200);
  const id: number = res.json().id;
  if (externalTicketId) expect((await as(t, s, 'PUT', `/support/ticket/${id}`, { externalTicketId })).statusCode).toBe(200);
  return id;
}
const get = async (id: number) => (await as(t, s, 'GET', `/support/ticket/${id}`)).json();
const events = async (id: number) =>
  (await t.deps.db.selectFrom('webhook_events').select('type').where('supplier_id', '=', s.id).execute()).length + (await get(id)).messages.length;

describe('PUT /support/ticket/{id} with nothing to change', () => {
  for (const [what, request] of [
    ['{}', { payload: {} }],
    ['no body', {}],
    ['only unknown fields', { payload: { priority: 'HIGH' } }],
    ['every field null', { payload: { status: null, externalTicketId: null, message: null } }],
  ] as const) {
    it(`answers 200 and changes nothing for ${what}`, async () => {
      const id = await open('ZD-KEEP-' + seq);
      const before = await get(id);
      const count = await events(id);
      const res = await t.request({ method: 'PUT', url: `/support/ticket/${id}`, headers: s.headers, ...request });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual(before);
      expect(await get(id)).toEqual(before);
      expect(await events(id)).toBe(count);
    });
  }

  it('refuses a status outside its list, naming the allowed values', async () => {
    const id = await open();
    const res = await as(t, s, 'PUT', `/support/ticket/${id}`, { status: 'CLOSED' });
    expect(res.json()).toMatchObject({ status: 400, code: 'INVALID_VALUE', errors: [{ pointer: '/status', message: 'must be one of: IN_PROGRESS, SOLVED' }] });
    expect(res.json().detail).toBe('/status must be one of: IN_PROGRESS, SOLVED');
  });
});

describe('ticketId or externalTicketId: null is absent', () => {
  it('closes by the external id when ticketId is null', async () => {
    const id = await open('ZD-100');
    const res = await as(t, s, 'PUT', '/support/ticket/close', { ticketId: null, externalTicketId: 'ZD-100' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, status: 'CLOSED' });
  });

  it('asks for information by ticketId when externalTicketId and message are null', async () => {
    const id = await open();
    const res = await as(t, s, 'POST', '/support/ticket/additional-info', { ticketId: id, externalTicketId: null, message: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, status: 'ADDITIONAL_INFO_REQUESTED' });
    expect(res.json().messages).toHaveLength(1);
  });

  it('still refuses both null (REQUIRED) and both set (MUTUALLY_EXCLUSIVE), changing nothing', async () => {
    const id = await open('ZD-200');
    expect((await as(t, s, 'PUT', '/support/ticket/close', { ticketId: null, externalTicketId: null })).json()).toMatchObject({
      status: 400,
      code: 'REQUIRED',
      errors: [{ pointer: '/ticketId' }],
    });
    expect((await as(t, s, 'PUT', '/support/ticket/close', { ticketId: id, externalTicketId: 'ZD-200' })).json()).toMatchObject({ status: 400, code: 'MUTUALLY_EXCLUSIVE' });
    expect((await t.request({ method: 'PUT', url: '/support/ticket/close', headers: s.headers })).json()).toMatchObject({ status: 400, code: 'REQUIRED' });
    expect((await get(id)).status).toBe('PENDING');
  });

  it('refuses a null where the field is required', async () => {
    const res = await asPerson(t, ana, 'POST', `/app/stores/${store}/tickets`, { message: null });
    expect(res.json()).toMatchObject({ status: 400, errors: [{ pointer: '/message' }] });
  });
});
