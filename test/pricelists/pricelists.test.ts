// POST /pricelist, GET /pricelist/{code}, PUT /pricelist/{code}/status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { appWithSupplier, ISO, stamps } from '../helpers/fixtures.ts';

let t: TestApp;
let s: TestSupplier;
beforeAll(async () => {
  ({ t, s } = await appWithSupplier());
});
afterAll(() => t.close());


describe('POST /pricelist', () => {
  it('creates a list and answers it, empty and enabled', async () => {
    const res = await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-1', name: 'Main' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ internalCode: 'PL-1', name: 'Main', enabled: true, products: [], stores: [], ...stamps });
    const got = await as(t, s, 'GET', '/pricelist/PL-1');
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(res.json());
  });

  it('makes the name optional (null when absent) and ignores unknown fields', async () => {
    const res = await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-NONAME', enabled: false, products: [{ x: 1 }], colour: 'blue' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ internalCode: 'PL-NONAME', name: null, enabled: true, products: [], stores: [], ...stamps });
  });

  it('answers 404 ALREADY_EXISTS for an existing code and changes nothing', async () => {
    expect((await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-DUP', name: 'Main' })).statusCode).toBe(200);
    const res = await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-DUP', name: 'Other name' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({
      status: 404,
      code: 'ALREADY_EXISTS',
      errors: [{ pointer: '/internalCode', code: 'ALREADY_EXISTS', message: 'price list PL-DUP already exists' }],
      requestId: res.headers['x-request-id'],
    });
    expect((await as(t, s, 'GET', '/pricelist/PL-DUP')).json().name).toBe('Main');
  });

  it('treats codes as case-sensitive', async () => {
    expect((await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-CASE', name: 'upper' })).statusCode).toBe(200);
    expect((await as(t, s, 'POST', '/pricelist', { internalCode: 'pl-case', name: 'lower' })).statusCode).toBe(200);
    expect((await as(t, s, 'GET', '/pricelist/pl-case')).json().name).toBe('lower');
    expect((await as(t, s, 'GET', '/pricelist/PL-CASE')).json().name).toBe('upper');
  });

  it('refuses a bad body with 400 and pointers', async () => {
    const missing = await as(t, s, 'POST', '/pricelist', { name: 'No code' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'REQUIRED', errors: [{ pointer: '/internalCode', code: 'REQUIRED' }] });

    const bad = await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-BAD\t', name: 7 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_FAILED');
    expect(bad.json().errors.map((e: any) => [e.pointer, e.code]).sort()).toEqual([
      ['/internalCode', 'INVALID_FORMAT'],
      ['/name', 'INVALID_TYPE'],
    ]);
    const long = await as(t, s, 'POST', '/pricelist', { internalCode: 'L'.repeat(101) });
    expect(long.json()).toMatchObject({ status: 400, code: 'INVALID_LENGTH', errors: [{ pointer: '/internalCode' }] });
    expect((await as(t, s, 'POST', '/pricelist', { internalCode: 'L'.repeat(100) })).statusCode).toBe(200);
  });
});

describe('GET /pricelist/{code}', () => {
  it('answers 404 NOT_FOUND for a missing list', async () => {
    const res = await as(t, s, 'GET', '/pricelist/NOPE');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 404, code: 'NOT_FOUND', errors: [{ pointer: '/params/code', code: 'NOT_FOUND' }] });
  });
});

describe('PUT /pricelist/{code}/status', () => {
  it('disables and enables a list, answering its summary', async () => {
    await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-S', name: 'Status' });
    const off = await as(t, s, 'PUT', '/pricelist/PL-S/status', { enabled: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ internalCode: 'PL-S', name: 'Status', enabled: false });
    expect((await as(t, s, 'GET', '/pricelist/PL-S')).json()).toMatchObject({ enabled: false, name: 'Status' });

    const again = await as(t, s, 'PUT', '/pricelist/PL-S/status', { enabled: false });
    expect(again.json()).toEqual({ internalCode: 'PL-S', name: 'Status', enabled: false });
    const on = await as(t, s, 'PUT', '/pricelist/PL-S/status', { enabled: true });
    expect(on.json()).toEqual({ internalCode: 'PL-S', name: 'Status', enabled: true });
  });

  it('answers 404 for a missing list and 400 for a bad body', async () => {
    await as(t, s, 'POST', '/pricelist', { internalCode: 'PL-S2' });
    const missing = await as(t, s, 'PUT', '/pricelist/NOPE/status', { enabled: true });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('NOT_FOUND');
    for (const body of [{}, { enabled: 'false' }, { enabled: 0 }]) {
      const res = await as(t, s, 'PUT', '/pricelist/PL-S2/status', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ pointer: '/enabled', code: expect.stringMatching(/^(REQUIRED|INVALID_TYPE)$/), message: expect.any(String) }]);
    }
    expect((await as(t, s, 'GET', '/pricelist/PL-S2')).json().enabled).toBe(true);
  });
});
