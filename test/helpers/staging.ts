// A staged kind's rows written straight into its staging table, as a request's 202 writes
// them, for tests of the statements that apply them (one chunk, one action).
import type { Kysely, Transaction } from 'kysely';
import { expect } from 'vitest';
import type { DB } from '../../src/db/types.ts';
import type { BatchKind, StagedRun } from '../../src/modules/batch/batch.kinds.ts';
import { stageItems } from '../../src/modules/batch/batch.repository.ts';
import { stagingRows } from '../../src/modules/batch/batch.service.ts';

/** Batch numbers no real batch has: each staged chunk is a batch that exists only in the staging table. */
let seq = 900_000;

/** Stages `items` of `action` as the one chunk of a batch of their own, and returns the run that applies them all. */
export async function stageChunk(trx: Transaction<DB>, kind: BatchKind, action: string, items: readonly unknown[]): Promise<StagedRun> {
  const batchSeq = ++seq;
  const staging = kind.staging!;
  await stageItems(trx, staging, [stagingRows(kind, staging, batchSeq, items.map((item) => ({ action, item })), items.length)]);
  return { batchSeq, chunk: 0, first: 0, from: 0, to: items.length };
}

/**
 * A kind's write of staged upserts (`writeStagedProducts`, `writeStagedStores`) as a test
 * calls it: the items staged as one chunk of their own and written, in one transaction.
 */
export function stagedUpsert<Answer>(
  db: Kysely<DB>,
  kind: BatchKind,
  write: (trx: Transaction<DB>, supplierId: number, run: StagedRun, expectNew: boolean) => Promise<Answer>,
) {
  return (s: { id: number }, items: readonly unknown[], expectNew: boolean) =>
    db.transaction().execute(async (trx) => write(trx, s.id, await stageChunk(trx, kind, 'upsert', items), expectNew));
}

/**
 * The same new items written for two new suppliers, by the plain insert (`a`, told the codes
 * are new) and by the upsert alone (`b`): both answer every code new and nothing else to
 * say (`clean`), and leave the same rows (`rows`). Answers `a`, for what the test checks next.
 */
export async function writtenBothWays<S>(
  newSupplier: () => Promise<S>,
  write: (s: S, items: readonly unknown[], expectNew: boolean) => Promise<unknown>,
  rows: (s: S) => Promise<unknown>,
  items: readonly unknown[],
  clean: object,
): Promise<S> {
  const a = await newSupplier();
  const b = await newSupplier();
  expect(await write(a, items, true)).toEqual({ allNew: true, ...clean });
  expect(await write(b, items, false)).toEqual({ allNew: true, ...clean });
  expect(await rows(a)).toEqual(await rows(b));
  return a;
}
