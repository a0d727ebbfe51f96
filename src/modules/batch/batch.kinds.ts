// What a batch endpoint plugs into the engine. A kind names its endpoint, how a request
// body becomes an ordered list of items, and, per action, how a run of items is
// applied: set-based, one statement per chunk and kind of change, returning one outcome
// per item in the same order.
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types.ts';

export interface ItemOutcome {
  status: 'completed' | 'failed';
  errorCode?: string;
  message?: string;
}

export interface BatchAction<T = any> {
  /** As the detail shows it, e.g. "upsert.products". */
  name: string;
  /** The items of this action in a request body (missing node: none). */
  select(body: any): T[] | undefined;
  /** The item in the supplier's terms: its internalCode, or the codes keying it joined by "/". */
  code(item: T): string;
  /**
   * Optional: the key of what the item writes, such that two items of this kind that can
   * change each other's effect or outcome always have the same key. When every action of
   * a batch has one, the batch records the range of its items' keys, and a later batch of
   * the same endpoint whose range does not meet it may be applied beside it (README,
   * "Ordering"). Leave it out when items of one kind depend on each other (a category
   * and its parent): such batches then wait for every earlier batch of their supplier.
   */
  key?(item: T): string;
  /** Applies items in order; a later item wins over an earlier one with the same key. */
  apply(trx: Transaction<DB>, supplierId: number, items: T[]): Promise<ItemOutcome[]>;
}

export interface BatchKind {
  endpoint: string;
  /** In application order: every remove before every upsert/add (endpoints.md). */
  actions: BatchAction[];
}

export const completed: ItemOutcome = { status: 'completed' };
export const failed = (errorCode: string, message: string): ItemOutcome => ({ status: 'failed', errorCode, message });
/** A store link may precede its store (the recommended load order): kept, and said so. */
export const storeNotKnownYet = (store: string): ItemOutcome => ({
  status: 'completed',
  message: `store ${store} is not known yet; the link takes effect when it is created`,
});

export class BatchRegistry {
  private readonly kinds = new Map<string, BatchKind>();
  constructor(kinds: BatchKind[]) {
    for (const kind of kinds) this.kinds.set(kind.endpoint, kind);
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
