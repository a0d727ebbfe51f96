// What the tests of both grouper kinds (promotion, stock) do the same way: a new grouper of
// its own for each test, its store links written through POST /batch/grouper/{kind}, the
// stores it lists, and stores created.
import { expect } from 'vitest';
import { as, type TestApp, type TestSupplier } from '../helpers/app.ts';

export const link = (g: string, st: string) => ({ groupInternalCode: g, storeInternalCode: st });
export const notYet = (st: string) => `store ${st} is not known yet; the link takes effect when it is created`;

export interface GrouperKind {
  kind: 'promotion' | 'stock';
  /** The new groupers' codes: `${prefix}-1`, `${prefix}-2`, ... */
  prefix: string;
  /** A new grouper's name unless the test names it. */
  name: string;
  /** Every batch request of the file is one batch (its few items fit one): checked on each. */
  oneBatch: boolean;
}

/** The helpers of one kind's tests over the file's app and supplier (`app()` is read when a helper runs, after beforeAll). */
export function grouperHelpers(g: GrouperKind, app: () => { t: TestApp; s: TestSupplier }) {
  let seq = 0;
  /** A new grouper of its own for each test, so no test depends on another's writes. */
  async function newGrouper(name = g.name) {
    const { t, s } = app();
    const code = `${g.prefix}-${++seq}`;
    const res = await as(t, s, 'POST', `/grouper/${g.kind}`, { internalCode: code, name });
    expect(res.statusCode, res.body).toBe(200);
    return code;
  }
  /** Runs a batch request to the end: the first batch's status, every status, and the first batch's items. */
  async function run(url: string, body: unknown, supplier = app().s) {
    const { t } = app();
    const { ids, statuses } = await t.runBatch(supplier, url, body);
    if (g.oneBatch) expect(ids).toHaveLength(1);
    const detail = (await as(t, supplier, 'GET', `/batch/${ids[0]}/detail`)).json().detail;
    return { status: statuses[0], statuses, detail };
  }
  const links = (body: unknown) => run(`/batch/grouper/${g.kind}`, body);
  const storesOf = async (code: string) => {
    const { t, s } = app();
    return (await as(t, s, 'GET', `/grouper/${code}/${g.kind}`)).json().stores.map((x: any) => x.storeInternalCode);
  };
  async function createStores(...codes: string[]) {
    const { status } = await run('/batch/store', { upsert: codes.map((code) => ({ internalCode: code, name: `Store ${code}` })) });
    expect(status).toMatchObject({ status: 'processed', failed: 0 });
  }
  return { newGrouper, run, links, storesOf, createStores };
}
