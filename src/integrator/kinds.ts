// What an import of a file sends, for `surtido import <kind>` and the service's own file
// imports (`POST /import/{kind}`, src/modules/imports): each kind is a batch kind of the API
// (its declaration, src/batch-kinds.ts, gives the endpoint, the body schema and the scope)
// and the body node its rows go into. A row is one item of that node; the fields, their
// types and their rules are the API's own (the declared body), so nothing here repeats them.
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
import { alternatives, itemSchema, typesOf, type JsonSchema } from './item-schemas.ts';

export type BatchEndpoint = Extract<PathsWith<'post'>, `/batch/${string}`>;

/** The body node of every row, or (promotions) the node named by each row's `type`. */
export type NodeRule = { node: string[] } | { byType: Record<string, string[]>; typeField: string };

export interface ImportKind {
  name: string;
  /** The declared kind's endpoint (the client's paths must know it: a type check). */
  endpoint: BatchEndpoint;
  /** The declared kind's request body schema (what a row's cells are converted by). */
  body: JsonSchema;
  /** The scope of the declared kind's route: what sending these rows needs. */
  scope: string;
  summary: string;
  /** The default action: upsert (or add, for grouper stores). */
  write: NodeRule;
  /** With `--remove`. */
  remove?: NodeRule;
}

/** The kind's endpoint, and its node rules checked against its actions (a node `upsert.products` is the action of that name). */
function importKind<E extends BatchEndpoint>(kind: BatchKind<E>, spec: Omit<ImportKind, 'endpoint' | 'body' | 'scope'>): ImportKind {
  for (const rule of [spec.write, ...(spec.remove ? [spec.remove] : [])]) {
    for (const node of nodesOf(rule)) {
      if (!kind.actions.some((a) => a.name === node.join('.'))) throw new Error(`import kind ${spec.name}: ${kind.endpoint} has no action ${node.join('.')}`);
    }
  }
  return { ...spec, endpoint: kind.endpoint, body: kind.body as JsonSchema, scope: kind.route.scope };
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

/** A node a kind's rule sends rows to, with its columns as `surtido kinds` and `GET /import/kinds` list them. */
export interface NodeColumns {
  node: string[];
  /** The value of the rule's type column that picks this node (promotions). */
  type?: string;
  /** `name*` required (inside its object, for dotted ones); `[JSON]` takes a JSON cell; `[list]` a JSON list or A|B|C. */
  columns: string[];
}

/** Every node of a rule with its columns, read from the kind's declared body. */
export function ruleColumns(kind: ImportKind, rule: NodeRule): NodeColumns[] {
  return nodesOf(rule).map((node) => {
    const type = 'byType' in rule ? Object.entries(rule.byType).find(([, n]) => n === node)![0] : undefined;
    return { node, ...(type ? { type } : {}), columns: columns(itemSchema(kind.body, node)) };
  });
}

function columns(schema: JsonSchema, prefix = ''): string[] {
  const object = alternatives(schema).find((s) => s.properties);
  if (!object) return [`${prefix || 'internalCode'}`];
  return Object.entries(object.properties!).flatMap(([name, field]) => {
    const path = prefix + name;
    const required = object.required?.includes(name) ? '*' : '';
    const types = typesOf(field);
    const nested = alternatives(field).find((s) => s.properties);
    if (types.has('object') && nested && !types.has('array')) return columns(field, `${path}.`);
    if (types.has('array') || types.has('object')) {
      const list = alternatives(field).find((s) => s.items);
      const scalarList = list?.items && !typesOf(list.items).has('object');
      const label = `${path}${required} [${scalarList ? 'list' : 'JSON'}]`;
      return nested ? [`${label} or ${columns(field, `${path}.`).join(' ')}`] : [label];
    }
    return [`${path}${required}`];
  });
}
