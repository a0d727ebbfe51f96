// POST /batch/store (upsert only). A store and its links (price list, stock grouper,
// promotion groupers) are written together; an unknown reference fails the whole item.
// A staged kind (batch README, "Staging"): its items are a row per chunk in
// batch_store_chunks, written with COPY when the request is accepted; each chunk's stores
// are written from its row by one statement (writeStagedStores), and only the link changes
// of the stores that sent links come back through Node, to be written as before.
import type { Transaction } from 'kysely';
import type { Static } from 'typebox';
import type { DB } from '../../db/types.ts';
import { NewRowsGuess } from '../../db/insert-first.ts';
import { actionFor, defineBatchKind, failed, itemsOfOneAction, upsertByCode, type PlacedOutcome, type StagedValue } from '../batch/batch.kinds.ts';
import { addStoreLinks, replacePromotionGroupers } from '../groupers/groupers.repository.ts';
import { upsertStoreLinks } from '../pricelists/pricelists.repository.ts';
import { writeStagedCredits } from '../credit/credit.repository.ts';
import * as repo from './stores.repository.ts';
import { StoreBatchBody, StoreInput } from './stores.schemas.ts';

type StoreItem = Static<typeof StoreInput>;
const action = actionFor(StoreBatchBody);

/** Per supplier, whether its last store chunk was all new codes (the next one then tries a plain insert first). */
const newStores = new NewRowsGuess();

const SENT = repo.STORE_SENT;
/** The fields of an item that take null to clear (or unlink), with their bit in `sent`. */
const nullable = ['legalName', 'legalId', 'ownerName', 'phone', 'email', 'priceListCode', 'stockGrouperCode'] as const;

/** An item's staged values, in the order of storeItemsStaging's columns. */
function stageStore(i: StoreItem): readonly StagedValue[] {
  let sent = i.settings === undefined ? 0 : SENT.settings;
  for (const field of nullable) if (i[field] !== undefined) sent |= SENT[field];
  if (i.settings?.dropSize !== undefined) sent |= SENT.dropSize;
  if (i.deliveryZoneCode !== undefined) sent |= SENT.deliveryZoneCode;
  if (i.credit !== undefined) sent |= SENT.credit;
  return [
    i.internalCode,
    i.name,
    i.legalName,
    i.legalId,
    i.ownerName,
    i.phone,
    i.email,
    i.enabled,
    i.addresses,
    i.settings?.dropSize,
    i.priceListCode,
    i.stockGrouperCode,
    i.promotionGrouperCodes,
    sent,
    i.deliveryZoneCode,
    i.credit,
  ];
}

/** A staged item as the client sent it (unknown fields dropped by the schema), its fields in the schema's order. */
function storeOf(r: repo.StagedStore): StoreItem {
  const has = (bit: number) => (r.sent & bit) !== 0;
  return {
    internalCode: r.code,
    name: r.name,
    ...(has(SENT.legalName) ? { legalName: r.legal_name } : {}),
    ...(has(SENT.legalId) ? { legalId: r.legal_id } : {}),
    ...(has(SENT.ownerName) ? { ownerName: r.owner_name } : {}),
    ...(has(SENT.phone) ? { phone: r.phone } : {}),
    ...(has(SENT.email) ? { email: r.email } : {}),
    ...(r.enabled === null ? {} : { enabled: r.enabled }),
    ...(r.addresses === null ? {} : { addresses: r.addresses as StoreItem['addresses'] }),
    ...(has(SENT.priceListCode) ? { priceListCode: r.price_list } : {}),
    ...(has(SENT.stockGrouperCode) ? { stockGrouperCode: r.stock_grouper } : {}),
    ...(r.promotion_groupers === null ? {} : { promotionGrouperCodes: r.promotion_groupers }),
    ...(has(SENT.deliveryZoneCode) ? { deliveryZoneCode: r.delivery_zone } : {}),
    ...(has(SENT.credit) ? { credit: r.credit as StoreItem['credit'] } : {}),
    ...(has(SENT.settings) ? { settings: has(SENT.dropSize) ? { dropSize: r.drop_size === null ? null : Number(r.drop_size) } : {} } : {}),
  };
}


const failure = {
  'price list': (code: string) => failed('UNKNOWN_PRICE_LIST', `price list ${code} does not exist`),
  'stock grouper': (code: string) => failed('UNKNOWN_STOCK_GROUPER', `stock grouper ${code} does not exist`),
  'promotion grouper': (code: string) => failed('UNKNOWN_GROUPER', `promotion grouper ${code} does not exist`),
  'delivery zone': (code: string) => failed('UNKNOWN_DELIVERY_ZONE', `delivery zone ${code} does not exist`),
};

/** The links the written stores sent: null unassigns, an id assigns (moving the store), absence keeps the link. */
async function changeLinks(trx: Transaction<DB>, supplierId: number, links: repo.StoreLinkChange[]) {
  const lists = links.filter((l) => l.list_sent);
  await repo.unlinkPriceLists(trx, supplierId, lists.filter((l) => l.list === null).map((l) => l.s));
  await upsertStoreLinks(trx, supplierId, lists.flatMap((l) => (l.list === null ? [] : [{ l: l.list, s: l.s }])));
  const stock = links.filter((l) => l.stock_sent);
  await repo.unlinkStockGroupers(trx, supplierId, stock.filter((l) => l.stock === null).map((l) => l.s));
  await addStoreLinks(trx, supplierId, 'stock', stock.flatMap((l) => (l.stock === null ? [] : [{ g: l.stock, s: l.s }])));
  await replacePromotionGroupers(trx, supplierId, links.flatMap((l) => (l.promotions === null ? [] : [{ s: l.s, g: l.promotions }])));
}

const upsertStores = upsertByCode(action, {
  stage: stageStore,
  async applyStaged(trx, supplierId, run) {
    const written = await repo.writeStagedStores(trx, supplierId, run, newStores.expectNew(supplierId));
    newStores.saw(supplierId, written);
    await changeLinks(trx, supplierId, written.links);
    // The credit terms the written stores sent (../credit/README.md): one statement, the failed items left out.
    await writeStagedCredits(trx, supplierId, run, SENT.credit, written.unresolved.map((u) => u.idx));
    return written.unresolved.map((u): PlacedOutcome => ({ idx: u.idx, outcome: failure[u.failure](u.code) }));
  },
});

export const storeBatchKind = defineBatchKind({
  endpoint: '/batch/store',
  body: StoreBatchBody,
  route: {
    scope: 'supplier/store.bulkwrite',
    tags: ['stores'],
    summary: 'Upsert stores with their price list, stock grouper, promotion groupers, delivery zone and settings (asynchronous)',
  },
  staging: { ...repo.storeItemsStaging, items: itemsOfOneAction('upsert', repo.readStagedStores, storeOf) },
  actions: () => [upsertStores],
});
