// POST /batch/promotion: upserts of every type, removes (first), later items winning,
// grouper sets kept or replaced, re-sending, and a volume spread over several chunks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { batchOf, bodies, ISO, PATHS, runBatch, seed } from './fixtures.ts';

let t: TestApp;
let s: TestSupplier;
beforeAll(async () => {
  // Small chunks, so one request spans several chunk transactions.
  t = await createTestApp({ env: { BATCH_CHUNK_SIZE: '50' } });
  s = await t.supplier();
  await seed(t, s);
});
afterAll(() => t.close());

const run = (body: unknown) => runBatch(t, s, '/batch/promotion', body);
const get = (code: string) => as(t, s, 'GET', `/promotion/${code}`);

describe('upsert', () => {
  it('creates promotions of every type, as the PUT endpoints do', async () => {
    const body = {
      upsert: {
        discount: { simple: [bodies.simple('BS-1', { promotionGrouperCodes: ['SEG-A'] })], multiple: [bodies.multiple('BM-1')] },
        bonus: { individual: [bodies.individual('BI-1')], crossed: [bodies.crossed('BC-1')] },
      },
    };
    const { status, detail } = await run(body);
    expect(status).toMatchObject({ endpoint: '/batch/promotion', status: 'processed', total: 4, completed: 4, failed: 0 });
    expect(detail.map((d: any) => [d.code, d.action, d.status])).toEqual([
      ['BS-1', 'upsert.discount.simple', 'completed'],
      ['BM-1', 'upsert.discount.multiple', 'completed'],
      ['BI-1', 'upsert.bonus.individual', 'completed'],
      ['BC-1', 'upsert.bonus.crossed', 'completed'],
    ]);
    expect(detail[0]).toMatchObject({ endpoint: '/batch/promotion', errorCode: null, message: null, finishedAt: expect.stringMatching(ISO) });
    expect(JSON.parse(detail[0].batchItem)).toMatchObject({ internalCode: 'BS-1', products: { internalCode: 'P-1', boxRatio: 12 } });

    // The same bodies through PUT give the same promotions (type, tiers, products, groupers).
    for (const [code, path, make] of [
      ['BS-1', PATHS.simple, () => bodies.simple('PS-1', { promotionGrouperCodes: ['SEG-A'] })],
      ['BM-1', PATHS.multiple, () => bodies.multiple('PM-1')],
      ['BI-1', PATHS.individual, () => bodies.individual('PI-1')],
      ['BC-1', PATHS.crossed, () => bodies.crossed('PC-1')],
    ] as const) {
      const viaPut = (await as(t, s, 'PUT', path, make())).json();
      const viaBatch = (await get(code)).json();
      const strip = ({ internalCode: _c, name: _n, createdAt: _a, updatedAt: _u, ...rest }: any) => rest;
      expect(strip(viaBatch)).toEqual(strip(viaPut));
    }
  });

  it('a later item with the same code wins; without promotionGrouperCodes it keeps the earlier set', async () => {
    const { status } = await run(
      batchOf('simple', [
        bodies.simple('L-1', { name: 'first', promotionGrouperCodes: ['SEG-A'] }),
        bodies.simple('L-1', { name: 'second', products: { internalCode: 'P-2' } }),
        bodies.simple('L-2', { name: 'first', promotionGrouperCodes: ['SEG-A'] }),
        bodies.simple('L-2', { name: 'second', promotionGrouperCodes: ['SEG-B'] }),
        bodies.simple('L-3', { name: 'valid', promotionGrouperCodes: ['SEG-B'] }),
        bodies.simple('L-3', { name: 'invalid', promotionGrouperCodes: ['SEG-NOPE'] }),
      ]),
    );
    expect(status).toMatchObject({ completed: 5, failed: 1 });
    expect((await get('L-1')).json()).toMatchObject({ name: 'second', products: [{ internalCode: 'P-2', boxRatio: 1 }], promotionGrouperCodes: ['SEG-A'] });
    expect((await get('L-2')).json()).toMatchObject({ name: 'second', promotionGrouperCodes: ['SEG-B'] });
    // A failed item changes nothing: the earlier valid one stands.
    expect((await get('L-3')).json()).toMatchObject({ name: 'valid', promotionGrouperCodes: ['SEG-B'] });
  });

  it('keeps or replaces the grouper set of an existing promotion, and changes its type', async () => {
    expect((await as(t, s, 'PUT', PATHS.multiple, bodies.multiple('K-1', { promotionGrouperCodes: ['SEG-A', 'SEG-B'] }))).statusCode).toBe(200);
    expect((await as(t, s, 'PUT', PATHS.multiple, bodies.multiple('K-2', { promotionGrouperCodes: ['SEG-A'] }))).statusCode).toBe(200);
    await run({ upsert: { bonus: { crossed: [bodies.crossed('K-1'), bodies.crossed('K-2', { promotionGrouperCodes: [] })] } } });
    expect((await get('K-1')).json()).toMatchObject({ type: 'BONUS_CROSSED', promotionGrouperCodes: ['SEG-A', 'SEG-B'] });
    expect((await get('K-1')).json()).not.toHaveProperty('discountTiersDataCash');
    expect((await get('K-2')).json()).toMatchObject({ type: 'BONUS_CROSSED', promotionGrouperCodes: [] });
  });

  it('applies the nodes in order simple, multiple, individual, crossed: the same code ends as the last', async () => {
    await run({
      upsert: {
        bonus: { crossed: [bodies.crossed('N-1')], individual: [bodies.individual('N-1')] },
        discount: { multiple: [bodies.multiple('N-1')], simple: [bodies.simple('N-1')] },
      },
    });
    expect((await get('N-1')).json().type).toBe('BONUS_CROSSED');
  });

  it('re-sending the same items is harmless', async () => {
    const body = batchOf('multiple', [bodies.multiple('R-1', { promotionGrouperCodes: ['SEG-B'] })]);
    await run(body);
    const first = (await get('R-1')).json();
    const again = await run(body);
    expect(again.status).toMatchObject({ completed: 1, failed: 0 });
    const { updatedAt: _a, ...before } = first;
    const { updatedAt: _b, ...after } = (await get('R-1')).json();
    expect(after).toEqual(before);
  });

  it('writes many promotions across chunks', async () => {
    const simple = Array.from({ length: 120 }, (_, i) => bodies.simple(`V-${String(i).padStart(3, '0')}`, { promotionGrouperCodes: i % 2 ? ['SEG-A'] : [] }));
    const crossed = Array.from({ length: 80 }, (_, i) => bodies.crossed(`V-${String(i).padStart(3, '0')}`));
    const { status } = await run({ upsert: { discount: { simple }, bonus: { crossed } } });
    expect(status).toMatchObject({ status: 'processed', total: 200, completed: 200, failed: 0 });
    const page = (await as(t, s, 'GET', '/promotion?take=50&page=1')).json();
    expect(page.total).toBeGreaterThanOrEqual(120);
    expect((await get('V-079')).json()).toMatchObject({ type: 'BONUS_CROSSED', promotionGrouperCodes: ['SEG-A'] });
    expect((await get('V-080')).json()).toMatchObject({ type: 'DISCOUNT_SIMPLE', promotionGrouperCodes: [] });
  });
});

describe('remove', () => {
  it('deletes promotions (GET then answers 404); an absent code completes with a message', async () => {
    await run(batchOf('individual', [bodies.individual('RM-1', { promotionGrouperCodes: ['SEG-A'] }), bodies.individual('RM-2')]));
    const { status, detail } = await run({ remove: { internalCodes: ['RM-1', 'RM-NOPE', 'RM-1'] } });
    expect(status).toMatchObject({ status: 'processed', completed: 3, failed: 0 });
    expect(detail.map((d: any) => [d.code, d.action, d.status, d.errorCode, d.message, d.batchItem])).toEqual([
      ['RM-1', 'remove.internalCodes', 'completed', null, null, '"RM-1"'],
      ['RM-NOPE', 'remove.internalCodes', 'completed', null, 'promotion RM-NOPE does not exist; nothing to remove', '"RM-NOPE"'],
      ['RM-1', 'remove.internalCodes', 'completed', null, 'promotion RM-1 does not exist; nothing to remove', '"RM-1"'],
    ]);
    expect((await get('RM-1')).statusCode).toBe(404);
    expect((await get('RM-2')).statusCode).toBe(200);
    expect((await as(t, s, 'GET', '/promotion')).json().data.map((p: any) => p.internalCode)).not.toContain('RM-1');
    // Its code is free again.
    expect((await as(t, s, 'PUT', PATHS.simple, bodies.simple('RM-1'))).json()).toMatchObject({ type: 'DISCOUNT_SIMPLE', promotionGrouperCodes: [] });
  });

  it('applies removes before upserts of the same request', async () => {
    await run(batchOf('simple', [bodies.simple('RU-1', { name: 'old', promotionGrouperCodes: ['SEG-B'] })]));
    const { detail } = await run({ upsert: { discount: { simple: [bodies.simple('RU-1', { name: 'new' })] } }, remove: { internalCodes: ['RU-1'] } });
    expect(detail.map((d: any) => d.action)).toEqual(['remove.internalCodes', 'upsert.discount.simple']);
    // Removed first, then created afresh: the old grouper set went with it.
    expect((await get('RU-1')).json()).toMatchObject({ name: 'new', promotionGrouperCodes: [] });
  });
});
