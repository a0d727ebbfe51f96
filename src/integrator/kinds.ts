// What `surtido import <kind>` sends: each kind is a batch endpoint and the body node its
// rows go into (endpoints.md). A row is one item of that node; the fields, their types and
// their rules are the API's own (openapi.json), so nothing here repeats them.
import type { PathsWith } from '../client/client.ts';

export type BatchEndpoint = Extract<PathsWith<'post'>, `/batch/${string}`>;

/** The body node of every row, or (promotions) the node named by each row's `type`. */
export type NodeRule = { node: string[] } | { byType: Record<string, string[]>; typeField: string };

export interface ImportKind {
  name: string;
  endpoint: BatchEndpoint;
  summary: string;
  /** The default action: upsert (or add, for grouper stores). */
  write: NodeRule;
  /** With `--remove`. */
  remove?: NodeRule;
}

export const IMPORT_KINDS: readonly ImportKind[] = [
  { name: 'brands', endpoint: '/batch/brand', summary: 'brands (upsert)', write: { node: ['upsert'] } },
  { name: 'products', endpoint: '/batch/product', summary: 'products (upsert); brands and categories must exist', write: { node: ['upsert'] } },
  { name: 'stores', endpoint: '/batch/store', summary: 'stores (upsert)', write: { node: ['upsert'] } },
  {
    name: 'prices',
    endpoint: '/batch/pricelist',
    summary: 'prices of price lists, one row per list, product and package size',
    write: { node: ['upsert', 'products'] },
    remove: { node: ['remove', 'products'] },
  },
  {
    name: 'pricelist-stores',
    endpoint: '/batch/pricelist',
    summary: 'stores assigned to price lists',
    write: { node: ['upsert', 'stores'] },
    remove: { node: ['remove', 'stores'] },
  },
  { name: 'stock', endpoint: '/batch/stock/grouper', summary: 'availability of products per stock grouper', write: { node: ['upsert'] } },
  {
    name: 'stock-grouper-stores',
    endpoint: '/batch/grouper/stock',
    summary: 'stores in stock groupers',
    write: { node: ['add', 'stores'] },
    remove: { node: ['remove', 'stores'] },
  },
  {
    name: 'promotion-grouper-stores',
    endpoint: '/batch/grouper/promotion',
    summary: 'stores in promotion groupers',
    write: { node: ['add', 'stores'] },
    remove: { node: ['remove', 'stores'] },
  },
  {
    name: 'promotions',
    endpoint: '/batch/promotion',
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
  },
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
