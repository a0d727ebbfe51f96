// POST /batch/store (upsert only). A store and its links (price list, stock grouper,
// promotion groupers) are written together; an unknown reference fails the whole item.
import type { Static } from 'typebox';
import { NewRowsGuess } from '../../db/insert-first.ts';
import { actionFor, completed, defineBatchKind, failed, type ItemOutcome } from '../batch/batch.kinds.ts';
import { addStoreLinks, grouperIds, replacePromotionGroupers } from '../groupers/groupers.repository.ts';
import { priceListIds, upsertStoreLinks } from '../pricelists/pricelists.repository.ts';
import * as repo from './stores.repository.ts';
import { StoreBatchBody, StoreInput } from './stores.schemas.ts';

type StoreItem = Static<typeof StoreInput>;
const action = actionFor(StoreBatchBody);

const unique = (values: (string | null | undefined)[]) => [...new Set(values.filter((v): v is string => typeof v === 'string'))];
const field = <K extends keyof StoreItem>(item: StoreItem, key: K) => ({ value: item[key] ?? null, has: item[key] !== undefined });

/**
 * One item per store code, as if the items had been applied one after another: a later
 * item wins for every field it sends (links and settings.dropSize included), and a field
 * it leaves out keeps what an earlier item of the same run set. Keeping only the last
 * item would lose those fields, but only when both items happen to share a chunk.
 */
function mergePerStore(items: StoreItem[]): StoreItem[] {
  const byCode = new Map<string, StoreItem>();
  for (const item of items) {
    const earlier = byCode.get(item.internalCode);
    if (!earlier) {
      byCode.set(item.internalCode, item);
      continue;
    }
    const merged: StoreItem = { ...earlier, ...item };
    if (earlier.settings && item.settings) merged.settings = { ...earlier.settings, ...item.settings };
    byCode.set(item.internalCode, merged);
  }
  return [...byCode.values()];
}

/** Per supplier, whether its last store chunk was all new codes (the next one then tries a plain insert first). */
const newStores = new NewRowsGuess();

const upsertStores = action({
  name: 'upsert',
  select: (body) => body.upsert,
  code: (item) => item.internalCode,
  key: (item) => item.internalCode,
  async apply(trx, supplierId, items) {
    const lists = await priceListIds(trx, supplierId, unique(items.map((i) => i.priceListCode)));
    const stock = await grouperIds(trx, supplierId, 'stock', unique(items.map((i) => i.stockGrouperCode)));
    const promo = await grouperIds(trx, supplierId, 'promotion', unique(items.flatMap((i) => i.promotionGrouperCodes ?? [])));

    const outcomes: ItemOutcome[] = items.map((i) => {
      if (i.priceListCode && !lists.has(i.priceListCode)) return failed('UNKNOWN_PRICE_LIST', `price list ${i.priceListCode} does not exist`);
      if (i.stockGrouperCode && !stock.has(i.stockGrouperCode)) return failed('UNKNOWN_STOCK_GROUPER', `stock grouper ${i.stockGrouperCode} does not exist`);
      const missing = (i.promotionGrouperCodes ?? []).find((c) => !promo.has(c));
      if (missing !== undefined) return failed('UNKNOWN_GROUPER', `promotion grouper ${missing} does not exist`);
      return completed;
    });
    // A failed item writes nothing; the valid ones merge per store code.
    const valid = mergePerStore(items.filter((_, n) => outcomes[n] === completed));

    const rows = valid.map((i): repo.StoreRow => {
      const [legalName, legalId, ownerName, phone, email] = (['legalName', 'legalId', 'ownerName', 'phone', 'email'] as const).map((k) => field(i, k));
      return {
        code: i.internalCode,
        name: i.name,
        legal_name: legalName!.value as string | null,
        has_legal_name: legalName!.has,
        legal_id: legalId!.value as string | null,
        has_legal_id: legalId!.has,
        owner_name: ownerName!.value as string | null,
        has_owner_name: ownerName!.has,
        phone: phone!.value as string | null,
        has_phone: phone!.has,
        email: email!.value as string | null,
        has_email: email!.has,
        enabled: i.enabled ?? null,
        addresses: i.addresses ?? null,
        // settings: {} leaves dropSize out, so it keeps its value like any absent field.
        drop_size: i.settings?.dropSize ?? null,
        has_drop_size: i.settings?.dropSize !== undefined,
      };
    });
    newStores.saw(supplierId, await repo.writeStores(trx, supplierId, rows, newStores.expectNew(supplierId)));

    // Links: null unassigns, a code assigns (moving the store), absence keeps the link.
    const withList = valid.filter((i) => i.priceListCode !== undefined);
    await repo.unlinkPriceLists(trx, supplierId, withList.filter((i) => i.priceListCode === null).map((i) => i.internalCode));
    await upsertStoreLinks(trx, supplierId, withList.filter((i) => i.priceListCode).map((i) => ({ l: lists.get(i.priceListCode!)!, s: i.internalCode })));
    const withStock = valid.filter((i) => i.stockGrouperCode !== undefined);
    await repo.unlinkStockGroupers(trx, supplierId, withStock.filter((i) => i.stockGrouperCode === null).map((i) => i.internalCode));
    await addStoreLinks(trx, supplierId, 'stock', withStock.filter((i) => i.stockGrouperCode).map((i) => ({ g: stock.get(i.stockGrouperCode!)!, s: i.internalCode })));
    await replacePromotionGroupers(
      trx,
      supplierId,
      valid.filter((i) => i.promotionGrouperCodes !== undefined).map((i) => ({ s: i.internalCode, g: i.promotionGrouperCodes!.map((c) => promo.get(c)!) })),
    );
    return outcomes;
  },
});

export const storeBatchKind = defineBatchKind({
  endpoint: '/batch/store',
  body: StoreBatchBody,
  route: {
    scope: 'supplier/store.bulkwrite',
    tags: ['stores'],
    summary: 'Upsert stores with their price list, stock grouper, promotion groupers and settings (asynchronous)',
  },
  actions: () => [upsertStores],
});
