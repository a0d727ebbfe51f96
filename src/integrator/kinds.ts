// What `surtido import <kind>` sends: each kind is a batch kind of the API (its declaration,
// src/batch-kinds.ts, gives the endpoint) and the body node its rows go into. A row is one
// item of that node; the fields, their types and their rules are the API's own
// (openapi.json), so nothing here repeats them.
import {
  brandBatchKind,
  priceListBatchKind,
  productBatchKind,
  promotionBatchKind,
  promotionGrouperBatchKind,
  stockBatchKind,
  stockGrouperBatchKind,
  storeBatchKind,
} from '../batch-kinds.ts';
import type { PathsWith } from '../client/client.ts';
import type { BatchKind } from '../modules/batch/batch.kinds.ts';

export type BatchEndpoint = Extract<PathsWith<'post'>, `/batch/${string}`>;

/** The body node of every row, or (promotions) the node named by each row's `type`. */
export type NodeRule = { node: string[] } | { byType: Record<string, string[]>; typeField: string };

export interface ImportKind {
  name: string;
  /** The declared kind's endpoint (the client's paths must know it: a type check). */
  endpoint: BatchEndpoint;
  summary: string;
  /** The default action: upsert (or add, for grouper stores). */
  write: NodeRule;
  /** With `--remove`. */
  remove?: NodeRule;
}

/** The kind's endpoint, and its node rules checked against its actions (a node `upsert.products` is the action of that name). */
function importKind<E extends BatchEndpoint>(kind: BatchKind<E>, spec: Omit<ImportKind, 'endpoint'>): ImportKind {
  for (const rule of [spec.write, ...(spec.remove ? [spec.remove] : [])]) {
    for (const node of nodesOf(rule)) {
      if (!kind.actions.some((a) => a.name === node.join('.'))) throw new Error(`import kind ${spec.name}: ${kind.endpoint} has no action ${node.join('.')}`);
    }
  }
  return { ...spec, endpoint: kind.endpoint };
}

export const IMPORT_KINDS: readonly ImportKind[] = [
  importKind(brandBatchKind, { name: 'brands', summary: 'brands (upsert)', write: { node: ['upsert'] } }),
  importKind(productBatchKind, { name: 'products', summary: 'products (upsert); brands and categories must exist', write: { node: ['upsert'] } }),
  importKind(storeBatchKind, { name: 'stores', summary: 'stores (upsert)', write: { node: ['upsert'] } }),
  importKind(priceListBatchKind, {
    name: 'prices',
    summary: 'prices of price lists, one row per list, product and package size',
    write: { node: ['upsert', 'products'] },
    remove: { node: ['remove', 'products'] },
  }),
  importKind(priceListBatchKind, {
    name: 'pricelist-stores',
    summary: 'stores assigned to price lists',
    write: { node: ['upsert', 'stores'] },
    remove: { node: ['remove', 'stores'] },
  }),
  importKind(stockBatchKind, { name: 'stock', summary: 'availability of products per stock grouper', write: { node: ['upsert'] } }),
  importKind(stockGrouperBatchKind, {
    name: 'stock-grouper-stores',
    summary: 'stores in stock groupers',
    write: { node: ['add', 'stores'] },
    remove: { node: ['remove', 'stores'] },
  }),
  importKind(promotionGrouperBatchKind, {
    name: 'promotion-grouper-stores',
    summary: 'stores in promotion groupers',
    write: { node: ['add', 'stores'] },
    remove: { node: ['remove', 'stores'] },
  }),
  importKind(promotionBatchKind, {
    name: 'promotions',
    summary: 'promotions (upsert, by each row\'s type); with --remove, rows of internalCode',
    write: {
      typeField: 'type',
      byType: {
        DISCOUNT_SIMPLE: ['upsert', 'discount', 'simple'],
        DISCOUNT_MULTIPLE: ['upsert', 'discount', 'multiple'],
        BONUS_INDIVIDUAL: ['upsert', 'bonus', 'individual'],
        BONUS_CROSSED: ['upsert', 'bonus', 'crossed'],
      },
    },
    remove: { node: ['remove', 'internalCodes'] },
  }),
];

export function findKind(name: string): ImportKind | undefined {
  return IMPORT_KINDS.find((k) => k.name === name);
}

/** Every node a rule can send rows to. */
export function nodesOf(rule: NodeRule): string[][] {
  return 'node' in rule ? [rule.node] : Object.values(rule.byType);
}

/** `{upsert: {products: items}}` for the node `upsert.products`. */
export function bodyFor(node: string[], items: unknown[]): Record<string, unknown> {
  let body: unknown = items;
  for (const name of [...node].reverse()) body = { [name]: body };
  return body as Record<string, unknown>;
}
