// What a batch endpoint plugs into the engine. A kind is declared once (defineBatchKind):
// its endpoint, its body schema, its route's summary and scope, its side effects, how a
// request body becomes an ordered list of items, and, per action, how a run of items is
// applied: set-based, one statement per chunk and kind of change, returning one outcome
// per item in the same order.
import type { Kysely, Transaction } from 'kysely';
import type { FastifyError, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { BatchItem, DB } from '../../db/types.ts';

export interface ItemOutcome {
  status: 'completed' | 'failed';
  errorCode?: string;
  message?: string;
}

/** An item's outcome when it is not a plain completion, by its place in its batch. */
export interface PlacedOutcome {
  idx: number;
  outcome: ItemOutcome;
}

/** A staged value of an item, as COPY writes it (null: SQL null); any JSON value for a `json` column. */
export type StagedValue = string | number | boolean | null | undefined | object;

/** Runs of consecutive items with one action, in order: [action, count]. */
export type ActionRuns = readonly (readonly [string, number])[];

/**
 * A staged kind keeps its items in a table of its own instead of the batch row's JSON
 * (README, "Staging"): one row per chunk of a batch (the worker's chunk: `chunk_size`
 * items, the last one shorter), keyed by the batch's seq and the chunk's number, holding
 * each value of its actions' `stage` as an array with one element per item, in order.
 * It is written with COPY in the transaction that accepts the request and applied from
 * there by SQL alone. An item's action is its batch's (`actions` runs), as for every kind.
 */
export interface Staging {
  /** Its columns are batch_seq, chunk, then those of `columns`, in order. */
  readonly table: string;
  /** One per value of `stage`, in the same order. */
  readonly columns: readonly StagingColumn[];
  /** The batch's items as the client sent them, in order (the detail shows them). */
  items(db: Kysely<DB>, batchSeq: number, runs: ActionRuns): Promise<BatchItem[]>;
}

/**
 * `Staging.items` of a kind with one action: the staged rows of a batch in order (`read`),
 * each made the item the client sent (`itemOf`). Refuses a batch whose runs do not cover
 * exactly its rows.
 */
export const itemsOfOneAction =
  <Row>(action: string, read: (db: Kysely<DB>, batchSeq: number) => Promise<Row[]>, itemOf: (row: Row) => unknown): Staging['items'] =>
  async (db, batchSeq, runs) => {
    const rows = await read(db, batchSeq);
    const total = runs.reduce((n, [, count]) => n + count, 0);
    if (total !== rows.length) throw new Error(`batch ${batchSeq}: its runs cover ${total} of its ${rows.length} staged items`);
    return rows.map((row) => ({ action, item: itemOf(row) }));
  };

/**
 * How a staged value is stored: `values` names an array column with one element per item;
 * with `index`, `values` holds the chunk's distinct values once each, in order of first use,
 * and `index` the 1-based place of each item's value in it, so a code a chunk names many
 * times (a product in several package sizes) is stored, and resolved, once. With `json`,
 * `values` is a json column holding one JSON array with each item's value (null when
 * undefined): values that are JSON themselves (a list of objects) are written as
 * JSON.stringify writes them, instead of each being quoted and escaped as the text of an
 * array element, and read back element by element (json_array_elements).
 */
export interface StagingColumn {
  readonly values: string;
  readonly index?: string;
  readonly json?: boolean;
}

/**
 * Where a staged action's run lies: items [from, to) of the batch, all in its chunk
 * `chunk`, whose first item is `first` (the item at ordinality n of the chunk's arrays is
 * the batch's item first + n - 1).
 */
export interface StagedRun {
  batchSeq: number;
  chunk: number;
  first: number;
  from: number;
  to: number;
}

/** One action of a kind as its declaration writes it: typed by the kind's body and the action's items. */
export interface ActionSpec<Body, Item> {
  /** As the detail shows it, e.g. "upsert.products". */
  name: string;
  /** The items of this action in a request body (missing node: none). */
  select(body: Body): Item[] | undefined;
  /** The item in the supplier's terms: its internalCode, or the codes keying it joined by "/". */
  code(item: Item): string;
  /**
   * Optional: the key of what the item writes, such that two items of this kind that can
   * change each other's effect or outcome always have the same key. When every action of
   * a batch has one, the batch records the range of its items' keys, and a later batch of
   * the same endpoint whose range does not meet it may be applied beside it (README,
   * "Ordering"). Leave it out when items of one kind depend on each other (a category
   * and its parent): such batches then wait for every earlier batch of their supplier.
   */
  key?(item: Item): string;
  /**
   * Applies items in order; a later item wins over an earlier one with the same key. The
   * actions of a staged kind have `stage` and `applyStaged` instead.
   */
  apply?(trx: Transaction<DB>, supplierId: number, items: Item[]): Promise<ItemOutcome[]>;
  /** Staged kinds: the item's values, in the order of the kind's `staging.columns`. */
  stage?(item: Item): readonly StagedValue[];
  /**
   * Staged kinds: applies the run's items, all of this action, from their chunk's staging
   * row, as `apply` would; answers only the outcomes that are not a plain completion.
   */
  applyStaged?(trx: Transaction<DB>, supplierId: number, run: StagedRun): Promise<PlacedOutcome[]>;
}

/**
 * An action as the engine sees it. Its items are stored and read back as JSON, so the
 * engine holds them as `unknown`; every item it hands back to an action is one that action
 * selected from a body its kind's schema accepted (`actionFor`).
 */
export interface BatchAction {
  readonly name: string;
  select(body: unknown): unknown[] | undefined;
  code(item: unknown): string;
  readonly key?: (item: unknown) => string;
  readonly apply?: (trx: Transaction<DB>, supplierId: number, items: unknown[]) => Promise<ItemOutcome[]>;
  readonly stage?: (item: unknown) => readonly StagedValue[];
  readonly applyStaged?: ActionSpec<unknown, unknown>['applyStaged'];
}

/** How a kind's POST route reads in openapi.json, and what it needs beyond the shared registration. */
export interface BatchRoute {
  /** The scope the credential must hold, e.g. "supplier/pricelist.bulkwrite". */
  scope: string;
  tags: string[];
  summary: string;
  /** Runs before the schema check (e.g. wrapping a bare array). */
  preValidation?: (request: FastifyRequest) => Promise<void>;
  /** Adjusts a refusal before the app's one error handler (rethrows). */
  errorHandler?: (error: FastifyError, request: FastifyRequest) => never;
}

/**
 * A batch kind: the one declaration of a `POST /batch/...` endpoint. The route (batch.routes.ts),
 * the worker's registry (deps.ts), the image wake (main/worker.ts), the integrator CLI's kinds
 * and the OpenAPI entry all derive from it.
 */
export interface BatchKind<Endpoint extends string = string, Body extends TSchema = TSchema> {
  readonly endpoint: Endpoint;
  /** The request body's TypeBox schema; every action's items are typed by its `Static<>`. */
  readonly body: Body;
  readonly route: BatchRoute;
  /** In application order: every remove before every upsert/add (docs/conventions.md). */
  readonly actions: readonly BatchAction[];
  /** Its items may register image URLs: the image loop is woken after each chunk. */
  readonly wakesImages: boolean;
  /** Its items are staged rows rather than the batch's JSON (every action then stages). */
  readonly staging?: Staging;
}

/** The action builder of a body schema: item types come from the schema, nothing is retyped. */
export type ActionBuilder<Body> = <Item>(spec: ActionSpec<Body, Item>) => BatchAction;

/** Erases an action's types for the engine (see BatchAction). */
export const actionFor =
  <S extends TSchema>(_body: S): ActionBuilder<Static<S>> =>
  <Item>(spec: ActionSpec<Static<S>, Item>) => ({
    name: spec.name,
    select: (body) => spec.select(body as Static<S>),
    code: (item) => spec.code(item as Item),
    ...(spec.key ? { key: (item: unknown) => spec.key!(item as Item) } : {}),
    ...(spec.apply ? { apply: (trx: Transaction<DB>, supplierId: number, items: unknown[]) => spec.apply!(trx, supplierId, items as Item[]) } : {}),
    ...(spec.stage ? { stage: (item: unknown) => spec.stage!(item as Item) } : {}),
    ...(spec.applyStaged ? { applyStaged: spec.applyStaged.bind(spec) } : {}),
  });

/** Declares a batch kind; `actions` receives the builder typed by `body`. */
export function defineBatchKind<const Endpoint extends string, Body extends TSchema>(declaration: {
  endpoint: Endpoint;
  body: Body;
  route: BatchRoute;
  actions: (action: ActionBuilder<Static<Body>>) => BatchAction[];
  wakesImages?: boolean;
  staging?: Staging;
}): BatchKind<Endpoint, Body> {
  const actions = declaration.actions(actionFor(declaration.body));
  for (const a of actions) {
    const staged = a.stage !== undefined && a.applyStaged !== undefined;
    if (declaration.staging ? !staged : a.apply === undefined) {
      throw new Error(`batch kind ${declaration.endpoint}: action ${a.name} must ${declaration.staging ? 'stage and applyStaged (the kind is staged)' : 'apply'}`);
    }
  }
  return {
    endpoint: declaration.endpoint,
    body: declaration.body,
    route: declaration.route,
    actions,
    wakesImages: declaration.wakesImages ?? false,
    ...(declaration.staging ? { staging: declaration.staging } : {}),
  };
}

export const completed: ItemOutcome = { status: 'completed' };
export const failed = (errorCode: string, message: string): ItemOutcome => ({ status: 'failed', errorCode, message });
/** A store link may precede its store (the recommended load order): kept, and said so. */
export const storeNotKnownYet = (store: string): ItemOutcome => ({
  status: 'completed',
  message: `store ${store} is not known yet; the link takes effect when it is created`,
});

/**
 * The outcomes of removing `codes` (in the items' order) when `removed` holds those that
 * existed: removing what is not there succeeds (re-sending is harmless) and says so; a code
 * named twice is removed by the first and absent for the second.
 */
export function removalOutcomes(codes: string[], removed: Set<string>, noun: string): ItemOutcome[] {
  const seen = new Set<string>();
  return codes.map((code) => {
    const first = !seen.has(code);
    seen.add(code);
    return first && removed.has(code) ? completed : { status: 'completed', message: `${noun} ${code} does not exist; nothing to remove` };
  });
}

/**
 * Items that name stores not created yet are kept (the recommended load order may send a
 * store after what names it) and say so; `then` says what happens when they are created.
 */
export function storesNotKnownYet(stores: string[], then: string): ItemOutcome {
  if (stores.length === 0) return completed;
  const named = stores.length === 1 ? `store ${stores[0]} is` : `stores ${stores.join(', ')} are`;
  return { status: 'completed', message: `${named} not known yet; ${then} when they are created` };
}

/** A body's `upsert` list of items its supplier names by internalCode (the common shape of an upsert action). */
type CodedUpsertBody = { upsert?: { internalCode: string }[] };
type UpsertItem<Body extends CodedUpsertBody> = NonNullable<Body['upsert']>[number];

/**
 * The `upsert` action of a body whose `upsert` list holds items keyed by their
 * internalCode: its name, select, code and key written once; `how` is the kind's own
 * apply (or stage and applyStaged).
 */
export function upsertByCode<Body extends CodedUpsertBody>(
  action: ActionBuilder<Body>,
  how: Pick<ActionSpec<Body, UpsertItem<Body>>, 'apply' | 'stage' | 'applyStaged'>,
): BatchAction {
  return action<UpsertItem<Body>>({
    name: 'upsert',
    select: (body) => body.upsert,
    code: (item) => item.internalCode,
    key: (item) => item.internalCode,
    ...how,
  });
}

/**
 * The `remove.internalCodes` action: each code removed by `remove` (which answers those
 * that existed) with `removalOutcomes`. `keyed: false` leaves the action without a key, for
 * a kind whose other actions have none either (its batches then wait for every earlier one).
 */
export function removeByCode<Body extends { remove?: { internalCodes?: string[] } }>(
  action: ActionBuilder<Body>,
  noun: string,
  remove: (trx: Transaction<DB>, supplierId: number, codes: string[]) => Promise<Set<string>>,
  { keyed = true } = {},
): BatchAction {
  return action<string>({
    name: 'remove.internalCodes',
    select: (body) => body.remove?.internalCodes,
    code: (code) => code,
    ...(keyed ? { key: (code: string) => code } : {}),
    async apply(trx, supplierId, codes) {
      return removalOutcomes(codes, await remove(trx, supplierId, [...new Set(codes)]), noun);
    },
  });
}

export class BatchRegistry {
  private readonly kinds = new Map<string, BatchKind>();
  constructor(kinds: readonly BatchKind[]) {
    for (const kind of kinds) {
      if (this.kinds.has(kind.endpoint)) throw new Error(`batch kind ${kind.endpoint} declared twice`);
      this.kinds.set(kind.endpoint, kind);
    }
  }
  /** Every kind, in declaration order (the POST routes are registered from these). */
  all(): BatchKind[] {
    return [...this.kinds.values()];
  }
  get(endpoint: string): BatchKind {
    const kind = this.kinds.get(endpoint);
    if (!kind) throw new Error(`no batch kind registered for ${endpoint}`);
    return kind;
  }
  action(endpoint: string, name: string): BatchAction {
    const action = this.get(endpoint).actions.find((a) => a.name === name);
    if (!action) throw new Error(`batch kind ${endpoint} has no action ${name}`);
    return action;
  }
}

/** Joins the parts of a key; U+001F cannot occur in a code (CODE_PATTERN refuses control characters). */
export const keyOf = (...parts: (string | number)[]) => parts.join('\u001f');

/** Keeps the last item per key, in their order, so "later wins" holds inside one statement (a statement cannot write a row twice). */
export function lastPerKey<T>(rows: T[], key: (row: T) => string): T[] {
  const seen = new Set<string>();
  const kept: T[] = [];
  for (let i = rows.length - 1; i >= 0; i--) {
    const k = key(rows[i]!);
    if (seen.has(k)) continue;
    seen.add(k);
    kept.push(rows[i]!);
  }
  return kept.length === rows.length ? rows : kept.reverse();
}
