// How a chunk of stores is written from its staging row: a plain INSERT first while the
// supplier's codes have been new, the upsert in a savepoint when one exists
// (writeStagedStores, src/db/insert-first.ts).
// Whatever the path, the rows must be exactly those of applying every item one after
// another; chunks of 3 put new and existing codes in every order within and across chunks.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { storeBatchKind } from '../../src/modules/stores/stores.batch.ts';
import * as repo from '../../src/modules/stores/stores.repository.ts';
import { as, type TestApp, type TestSupplier } from '../helpers/app.ts';
import { stepAgainstModel, stepDrawnBatches } from '../helpers/drawn-batches.ts';
import { appForFile } from '../helpers/fixtures.ts';
import { stagedUpsert, writtenBothWays } from '../helpers/staging.ts';

let t: TestApp;
appForFile((app) => (t = app), { env: { BATCH_CHUNK_SIZE: '3' } });

async function newSupplier() {
  const s = await t.supplier();
  for (const pl of ['PL-A', 'PL-B']) expect((await as(t, s, 'POST', '/pricelist', { internalCode: pl })).statusCode).toBe(200);
  return s;
}

/** A store as the model holds it: its optional text fields are null when cleared. */
type Row = Record<'legalName' | 'legalId' | 'ownerName' | 'phone' | 'email', string | null> & {
  name: string;
  enabled: boolean;
  addresses: unknown[];
  dropSize: number | null;
  priceList: string | null;
};
type Item = Record<string, unknown> & { internalCode: string; name: string; settings?: { dropSize?: number | null } };
const FIELDS = ['legalName', 'legalId', 'ownerName', 'phone', 'email', 'enabled', 'addresses'] as const;

/** The reference: items applied one after another (absent keeps, null clears, a new store takes the defaults). */
class Model {
  readonly rows = new Map<string, Row>();
  apply(item: Item): 'completed' | 'failed' {
    if (typeof item.priceListCode === 'string' && !['PL-A', 'PL-B'].includes(item.priceListCode)) return 'failed';
    const row: Row = this.rows.get(item.internalCode) ?? { name: '', legalName: null, legalId: null, ownerName: null, phone: null, email: null, enabled: true, addresses: [], dropSize: null, priceList: null };
    const next: Row = { ...row, name: item.name };
    for (const field of FIELDS) if (item[field] !== undefined) (next as unknown as Record<string, unknown>)[field] = item[field];
    if (item.settings?.dropSize !== undefined) next.dropSize = item.settings.dropSize;
    if (item.priceListCode !== undefined) next.priceList = item.priceListCode as string | null;
    this.rows.set(item.internalCode, next);
    return 'completed';
  }
}

async function stored(s: TestSupplier): Promise<Map<string, Row>> {
  const rows = await t.deps.db
    .selectFrom('stores as st')
    .leftJoin('price_list_stores as x', (j) => j.onRef('x.supplier_id', '=', 'st.supplier_id').onRef('x.store_code', '=', 'st.internal_code'))
    .leftJoin('price_lists as l', 'l.id', 'x.price_list_id')
    .select(['st.internal_code', 'st.name', 'st.legal_name', 'st.legal_id', 'st.owner_name', 'st.phone', 'st.email', 'st.enabled', 'st.addresses', 'st.drop_size', 'l.internal_code as price_list'])
    .where('st.supplier_id', '=', s.id)
    .execute();
  return new Map(
    rows.map((r) => [
      r.internal_code,
      {
        name: r.name, legalName: r.legal_name, legalId: r.legal_id, ownerName: r.owner_name, phone: r.phone, email: r.email, enabled: r.enabled,
        addresses: r.addresses as unknown[], dropSize: r.drop_size === null ? null : Number(r.drop_size), priceList: r.price_list,
      },
    ]),
  );
}

/** Sends the items as one batch and checks every outcome and every row against the model. */
const step = (s: TestSupplier, model: Model, items: Item[]) => stepAgainstModel(t, s, '/batch/store', model, items, () => stored(s));

const st = (code: string, fields: Partial<Item> = {}): Item => ({ internalCode: code, name: `name of ${code}`, ...fields });
const address = (n: number) => ({ street: `Calle ${n} # 1-2`, city: 'Cali', latitude: 3.45, longitude: -76.53, default: n % 2 === 0 });

describe('store chunks: plain insert first, upsert when a code exists', () => {
  it('new and existing codes in every order within and across chunks end as if applied one by one', async () => {
    const s = await newSupplier();
    const model = new Model();
    const full = { legalName: 'L S.A.', legalId: '900-1', ownerName: 'Ana', phone: '+573001234567', email: 'a@example.com', enabled: false, addresses: [address(1)], settings: { dropSize: 1500.25 }, priceListCode: 'PL-A' };
    // All new: two chunks of plain inserts.
    await step(s, model, [st('S-1', full), st('S-2'), st('S-3', { phone: '+573001112233' }), st('S-4'), st('S-5', { settings: {} })]);
    // An existing code first, then new ones.
    await step(s, model, [st('S-1', { name: 'renamed', priceListCode: 'PL-B' }), st('S-6'), st('S-7'), st('S-8'), st('S-9'), st('S-10')]);
    // New codes before an existing one in one chunk: the new rows of the failed insert are undone and written once.
    await step(s, model, [st('S-11', { addresses: [address(2), address(3)] }), st('S-12'), st('S-2', { email: 'b@example.com', enabled: false })]);
    // All new again after a fallback, then an existing code last in the second chunk.
    await step(s, model, [st('S-13'), st('S-14'), st('S-15'), st('S-16'), st('S-17'), st('S-1', { legalName: null, settings: { dropSize: null } })]);
    // One code twice in a chunk and across chunks; a failed item among new ones writes nothing.
    await step(s, model, [st('S-18', full), st('S-18', { name: 'second', phone: null }), st('S-19', { priceListCode: 'PL-404' }), st('S-20'), st('S-18', { addresses: [] }), st('S-19')]);
    // Absent fields of existing rows keep their values; null and [] clear them.
    await step(s, model, [st('S-1'), st('S-18', { ownerName: null, priceListCode: null, settings: { dropSize: 7 } }), st('S-21', { enabled: true })]);
    expect(model.rows.size).toBe(21);
  });

  it('any mix of new, existing, repeated and failing items, 24 batches drawn at random (seeded)', async () => {
    const s = await newSupplier();
    const model = new Model();
    await stepDrawnBatches(27, 24, model, (code, batch, i, { random, pick }) => {
      const item = st(code, { name: `n${batch}.${i}` });
      if (random() < 0.4) item.legalName = pick([null, `L${batch}`]);
      if (random() < 0.3) item.legalId = pick([null, `id${batch}`]);
      if (random() < 0.3) item.ownerName = pick([null, `o${batch}`]);
      if (random() < 0.4) item.phone = pick([null, `+57300${1_000_000 + batch * 10 + i}`]);
      if (random() < 0.4) item.email = pick([null, `s${batch}.${i}@example.com`]);
      if (random() < 0.3) item.enabled = random() < 0.5;
      if (random() < 0.3) item.addresses = pick([[], [address(batch)]]);
      if (random() < 0.4) item.settings = pick([{}, { dropSize: null }, { dropSize: batch * 100 + 0.5 }]);
      if (random() < 0.3) item.priceListCode = pick([null, 'PL-A', 'PL-B', 'PL-404']);
      return item;
    }, (items) => step(s, model, items));
    expect(model.rows.size).toBeGreaterThan(20);
  });

  it('both forms of the write give a new code the same row, and say whether every code was new', async () => {
    const items: Item[] = [
      st('F-1', { name: 'every field', legalName: 'L', legalId: 'I', ownerName: 'O', phone: '+573001234567', email: 'f@example.com', enabled: false, addresses: [address(1)], settings: { dropSize: 12.5 } }),
      st('F-2', { name: 'nothing sent' }),
      st('F-3', { name: 'nulls sent', legalName: null, phone: null, enabled: true, addresses: [], settings: { dropSize: null } }),
    ];
    // Each write reads a staging row of its own (a chunk of a batch that exists only there).
    const write = stagedUpsert(t.deps.db, storeBatchKind, repo.writeStagedStores);
    const clean = { unresolved: [], links: [] };
    const row = (s: TestSupplier) =>
      t.deps.db
        .selectFrom('stores')
        .select(['internal_code', 'name', 'legal_name', 'legal_id', 'owner_name', 'phone', 'email', 'enabled', 'addresses', 'drop_size', sql<boolean>`created_at = updated_at`.as('untouched')])
        .where('supplier_id', '=', s.id)
        .orderBy('internal_code')
        .execute();
    // a: the plain insert; b: the upsert alone.
    const a = await writtenBothWays(newSupplier, write, row, items, clean);
    expect((await row(a)).map((r) => [r.enabled, r.addresses, r.drop_size === null ? null : Number(r.drop_size)])).toEqual([[false, [address(1)], 12.5], [true, [], null], [true, [], null]]);
    // An existing code among new ones: the plain insert gives way, and the answer says so.
    expect(await write(a, [items[0]!, { ...items[1]!, internalCode: 'F-4' }], true)).toEqual({ allNew: false, ...clean });
    expect(await write(a, [{ ...items[1]!, internalCode: 'F-5' }], false)).toEqual({ allNew: true, ...clean });
    expect((await row(a)).map((r) => r.internal_code)).toEqual(['F-1', 'F-2', 'F-3', 'F-4', 'F-5']);
    // Unknown codes fail their item, price list first; the links of the others come back to be written.
    const plA = (await t.deps.db.selectFrom('price_lists').select('id').where('supplier_id', '=', a.id).where('internal_code', '=', 'PL-A').executeTakeFirstOrThrow()).id;
    expect(await write(a, [st('F-6', { priceListCode: 'PL-404', stockGrouperCode: 'G-404' }), st('F-7', { promotionGrouperCodes: ['G-404'] }), st('F-8', { priceListCode: 'PL-A' }), st('F-9', { priceListCode: null })], true)).toEqual({
      allNew: true,
      unresolved: [
        { idx: 0, failure: 'price list', code: 'PL-404' },
        { idx: 1, failure: 'promotion grouper', code: 'G-404' },
      ],
      links: [
        { s: 'F-8', list_sent: true, list: plA, stock_sent: false, stock: null, promotions: null },
        { s: 'F-9', list_sent: true, list: null, stock_sent: false, stock: null, promotions: null },
      ],
    });
    expect((await row(a)).map((r) => r.internal_code)).toEqual(['F-1', 'F-2', 'F-3', 'F-4', 'F-5', 'F-8', 'F-9']);
  });
});
