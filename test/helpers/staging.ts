// A staged kind's rows written straight into its staging table, as a request's 202 writes
// them, for tests of the statements that apply them (one chunk, one action).
import type { Transaction } from 'kysely';
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
