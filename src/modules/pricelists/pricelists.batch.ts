// POST /batch/pricelist: four actions, removes first (docs/conventions.md). Each run of items is
// resolved with one lookup per kind of reference and written with one statement.
import type { Transaction } from 'kysely';
import type { Static } from 'typebox';
import type { DB } from '../../db/types.ts';
import { actionFor, completed, defineBatchKind, failed, keyOf, lastPerKey, storeNotKnownYet, type ItemOutcome } from '../batch/batch.kinds.ts';
import { productIds } from '../catalog/catalog.repository.ts';
import { existingStoreCodes } from '../stores/stores.repository.ts';
import * as repo from './pricelists.repository.ts';
import { PriceEntryRemoval, PriceListBatchBody, PriceListStoreLink } from './pricelists.schemas.ts';

/** An entry of upsert.products (units and price required) or remove.products (units optional). */
type Entry = Static<typeof PriceEntryRemoval>;
type StoreLink = Static<typeof PriceListStoreLink>;
const action = actionFor(PriceListBatchBody);

const unknownList = (code: string) => failed('UNKNOWN_PRICE_LIST', `price list ${code} does not exist`);
const unknownProduct = (code: string) => failed('UNKNOWN_PRODUCT', `product ${code} does not exist`);
const unique = (values: string[]) => [...new Set(values)];

async function resolveEntries(trx: Transaction<DB>, supplierId: number, items: Entry[]) {
  const lists = await repo.priceListIds(trx, supplierId, unique(items.map((i) => i.priceListInternalCode)));
  const products = await productIds(trx, supplierId, unique(items.map((i) => i.productInternalCode)));
  return items.map((item) => {
    const l = lists.get(item.priceListInternalCode);
    const p = products.get(item.productInternalCode);
    const outcome: ItemOutcome =
      l === undefined ? unknownList(item.priceListInternalCode) : p === undefined ? unknownProduct(item.productInternalCode) : completed;
    return { item, l: l!, p: p!, outcome };
  });
}

const entryCode = (i: Entry) => [i.priceListInternalCode, i.productInternalCode, ...(i.units === undefined ? [] : [i.units])].join('/');
const linkCode = (i: StoreLink) => `${i.priceListInternalCode}/${i.storeInternalCode}`;
// Keys for side-by-side application (batch README, "Ordering"). Entries of one list and
// product share a key whatever their package size, because a remove without units takes
// every package size. A store has one price list, so its links share the store's key.
const entryKey = (i: Entry) => keyOf('entry', i.priceListInternalCode, i.productInternalCode);
const linkKey = (i: StoreLink) => keyOf('store', i.storeInternalCode);

/**
 * Per supplier, whether its last price entries were all new: then the next chunk tries the
 * cheaper plain insert first (repository, upsertEntriesByCode). Only a guess about cost,
 * never about the result; a process starts by guessing "new" (a first load is the large one).
 */
const lastWasNew = new Map<number, boolean>();

const upsertProducts = action({
  name: 'upsert.products',
  select: (body) => body.upsert?.products,
  code: (i) => entryCode(i),
  key: (i) => entryKey(i),
  async apply(trx, supplierId, items) {
    // Codes name one row each, so the last item per codes is the last per row.
    const rows = items.map((i) => ({ list: i.priceListInternalCode, product: i.productInternalCode, units: i.units, price: i.price }));
    const written = await repo.upsertEntriesByCode(trx, supplierId, lastPerKey(rows, (r) => keyOf(r.list, r.product, r.units)), lastWasNew.get(supplierId) ?? true);
    lastWasNew.set(supplierId, written.allNew);
    const { unknownLists, unknownProducts } = written;
    return items.map((i) =>
      unknownLists.has(i.priceListInternalCode) ? unknownList(i.priceListInternalCode) : unknownProducts.has(i.productInternalCode) ? unknownProduct(i.productInternalCode) : completed,
    );
  },
});

const removeProducts = action({
  name: 'remove.products',
  select: (body) => body.remove?.products,
  code: entryCode,
  key: entryKey,
  async apply(trx, supplierId, items) {
    const resolved = await resolveEntries(trx, supplierId, items);
    const rows = resolved.filter((r) => r.outcome === completed).map((r) => ({ l: r.l, p: r.p, u: r.item.units ?? null }));
    await repo.deleteEntries(trx, supplierId, rows);
    return resolved.map((r) => r.outcome);
  },
});

async function resolveLinks(trx: Transaction<DB>, supplierId: number, items: StoreLink[]) {
  const lists = await repo.priceListIds(trx, supplierId, unique(items.map((i) => i.priceListInternalCode)));
  return items.map((item) => ({ item, l: lists.get(item.priceListInternalCode) }));
}

const upsertStores = action({
  name: 'upsert.stores',
  select: (body) => body.upsert?.stores,
  code: linkCode,
  key: linkKey,
  async apply(trx, supplierId, items) {
    const resolved = await resolveLinks(trx, supplierId, items);
    const valid = resolved.filter((r) => r.l !== undefined).map((r) => ({ l: r.l!, s: r.item.storeInternalCode }));
    await repo.upsertStoreLinks(trx, supplierId, lastPerKey(valid, (r) => r.s));
    const known = await existingStoreCodes(trx, supplierId, unique(valid.map((v) => v.s)));
    return resolved.map(({ item, l }) => {
      if (l === undefined) return unknownList(item.priceListInternalCode);
      if (known.has(item.storeInternalCode)) return completed;
      return storeNotKnownYet(item.storeInternalCode);
    });
  },
});

const removeStores = action({
  name: 'remove.stores',
  select: (body) => body.remove?.stores,
  code: linkCode,
  key: linkKey,
  async apply(trx, supplierId, items) {
    const resolved = await resolveLinks(trx, supplierId, items);
    await repo.deleteStoreLinks(
      trx,
      supplierId,
      resolved.filter((r) => r.l !== undefined).map((r) => ({ l: r.l!, s: r.item.storeInternalCode })),
    );
    return resolved.map(({ item, l }) => (l === undefined ? unknownList(item.priceListInternalCode) : completed));
  },
});

export const priceListBatchKind = defineBatchKind({
  endpoint: '/batch/pricelist',
  body: PriceListBatchBody,
  route: { scope: 'supplier/pricelist.bulkwrite', tags: ['price lists'], summary: 'Upsert and remove prices and store links in bulk (asynchronous)' },
  actions: () => [removeProducts, removeStores, upsertProducts, upsertStores],
});
