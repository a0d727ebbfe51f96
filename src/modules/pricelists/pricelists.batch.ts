// POST /batch/pricelist: four actions, removes first (docs/conventions.md). A staged kind
// (batch README, "Staging"): its items are a row per chunk in batch_price_chunks, written
// with COPY when the request is accepted, and each run of a chunk is applied from it by one
// statement that resolves the codes it names; no item passes through Node after its 202.
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import type { BatchItem, DB } from '../../db/types.ts';
import { defineBatchKind, failed, keyOf, storeNotKnownYet, type ActionRuns, type ItemOutcome, type PlacedOutcome } from '../batch/batch.kinds.ts';
import { NewRowsGuess } from '../../db/insert-first.ts';
import * as repo from './pricelists.repository.ts';
import { PriceEntryRemoval, PriceListBatchBody, PriceListStoreLink } from './pricelists.schemas.ts';

/** An entry of upsert.products (units and price required) or remove.products (units optional). */
type Entry = Static<typeof PriceEntryRemoval>;
type StoreLink = Static<typeof PriceListStoreLink>;

const unknownList = (code: string) => failed('UNKNOWN_PRICE_LIST', `price list ${code} does not exist`);
const unknownProduct = (code: string) => failed('UNKNOWN_PRODUCT', `product ${code} does not exist`);

const entryCode = (i: Entry) => [i.priceListInternalCode, i.productInternalCode, ...(i.units === undefined ? [] : [i.units])].join('/');
const linkCode = (i: StoreLink) => `${i.priceListInternalCode}/${i.storeInternalCode}`;
// Keys for side-by-side application (batch README, "Ordering"). Entries of one list and
// product share a key whatever their package size, because a remove without units takes
// every package size. A store has one price list, so its links share the store's key.
const entryKey = (i: Entry) => keyOf('entry', i.priceListInternalCode, i.productInternalCode);
const linkKey = (i: StoreLink) => keyOf('store', i.storeInternalCode);
// Staged values: list code, code, units, price (repository, priceItemsStaging). A price
// travels as the shortest decimal text of its JSON number ("10.5") and is read straight
// into numeric: the decimal the client sent is the decimal stored.
const stageEntry = (i: Entry) => [i.priceListInternalCode, i.productInternalCode, i.units, i.price] as const;
const stageLink = (i: StoreLink) => [i.priceListInternalCode, i.storeInternalCode, null, null] as const;
/** What the two actions on entries, and the two on links, have in common. */
const entries = { code: entryCode, key: entryKey, stage: stageEntry };
const links = { code: linkCode, key: linkKey, stage: stageLink };

/** An entry's outcome when a code named nothing: its list first. */
const entryOutcome = (u: repo.UnresolvedItem): PlacedOutcome => ({ idx: u.idx, outcome: u.list_known ? unknownProduct(u.code) : unknownList(u.list_code) });

/** Per supplier, whether its last price entries were all new (src/db/insert-first.ts): only a guess about cost. */
const entriesGuess = new NewRowsGuess();

type Row = Awaited<ReturnType<typeof repo.readStagedPriceItems>>[number];
const entryOf = (r: Row): Entry => ({
  priceListInternalCode: r.list_code,
  productInternalCode: r.code,
  ...(r.units === null ? {} : { units: r.units }),
  ...(r.price === null ? {} : { price: Number(r.price) }),
});
const linkOf = (r: Row): StoreLink => ({ priceListInternalCode: r.list_code, storeInternalCode: r.code });

/** A batch's items as the client sent them (unknown fields were dropped by the schema). */
async function stagedItems(db: Kysely<DB>, batchSeq: number, runs: ActionRuns): Promise<BatchItem[]> {
  const rows = await repo.readStagedPriceItems(db, batchSeq);
  const items: BatchItem[] = [];
  for (const [action, count] of runs) {
    const read = action.endsWith('.stores') ? linkOf : entryOf;
    for (let i = 0; i < count; i++) items.push({ action, item: read(rows[items.length]!) });
  }
  if (items.length !== rows.length) throw new Error(`batch ${batchSeq}: its runs cover ${items.length} of its ${rows.length} staged items`);
  return items;
}

export const priceListBatchKind = defineBatchKind({
  endpoint: '/batch/pricelist',
  body: PriceListBatchBody,
  route: { scope: 'supplier/pricelist.bulkwrite', tags: ['price lists'], summary: 'Upsert and remove prices and store links in bulk (asynchronous)' },
  staging: { ...repo.priceItemsStaging, items: stagedItems },
  actions: (action) => [
    action({
      name: 'remove.products',
      select: (body) => body.remove?.products,
      ...entries,
      async applyStaged(trx, supplierId, run) {
        return (await repo.deleteStagedEntries(trx, supplierId, run)).map(entryOutcome);
      },
    }),
    action({
      name: 'remove.stores',
      select: (body) => body.remove?.stores,
      ...links,
      async applyStaged(trx, supplierId, run) {
        return (await repo.unlinkStagedStores(trx, supplierId, run)).map((u) => ({ idx: u.idx, outcome: unknownList(u.list_code) }));
      },
    }),
    action({
      name: 'upsert.products',
      select: (body) => body.upsert?.products,
      ...entries,
      async applyStaged(trx, supplierId, run) {
        const written = await repo.writeStagedEntries(trx, supplierId, run, entriesGuess.expectNew(supplierId));
        entriesGuess.saw(supplierId, written);
        return written.unresolved.map(entryOutcome);
      },
    }),
    action({
      name: 'upsert.stores',
      select: (body) => body.upsert?.stores,
      ...links,
      async applyStaged(trx, supplierId, run) {
        return (await repo.linkStagedStores(trx, supplierId, run)).map((u): PlacedOutcome => {
          const outcome: ItemOutcome = u.list_known ? storeNotKnownYet(u.code) : unknownList(u.list_code);
          return { idx: u.idx, outcome };
        });
      },
    }),
  ],
});
