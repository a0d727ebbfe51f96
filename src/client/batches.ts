// Following batches (docs/conventions.md, "Batches"): a batch endpoint answers 202 with batch ids before any
// item is applied; GET /batch/{uuid}/status moves while the batch runs, and
// GET /batch/{uuid}/detail?status=failed says which items failed and why, in submission
// order. Only batches that report failures are asked for their detail.
import type { paths } from './openapi.generated.ts';
import { sleep } from './transport.ts';

type Detail = paths['/batch/{uuid}/detail']['get'];
export type BatchStatus = paths['/batch/{uuid}/status']['get']['responses'][200]['content']['application/json'];
type BatchDetailPage = Detail['responses'][200]['content']['application/json'];
export type BatchDetailItem = BatchDetailPage['detail'][number];

/** The two reads following a batch takes (the client gives them; this file knows no client). */
export interface BatchReader {
  status(id: string): Promise<BatchStatus>;
  detail(id: string, query: NonNullable<Detail['parameters']['query']>): Promise<BatchDetailPage>;
}

export interface FailedBatchItem extends BatchDetailItem {
  batchId: string;
  /** `batchItem` parsed: the item as the service stored it. */
  item: unknown;
}

export interface BatchProgress {
  total: number;
  processed: number;
  completed: number;
  failed: number;
  /** True on the last call: every batch has ended. */
  done: boolean;
  batches: BatchStatus[];
}

export interface BatchOutcome {
  batches: BatchStatus[];
  total: number;
  completed: number;
  /** Every failed item of every batch, batch by batch in the order given, each in submission order. */
  failed: FailedBatchItem[];
}

export interface WaitOptions {
  /** Between two polls (default 1000 ms). */
  pollMs?: number;
  /** Gives up (throws) after this long; default: waits as long as it takes. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The detail endpoint's largest page. */
const DETAIL_PAGE = 5000;

export async function batchFailures(reader: BatchReader, id: string): Promise<FailedBatchItem[]> {
  const failed: FailedBatchItem[] = [];
  for (let page = 1; ; page++) {
    const answer = await reader.detail(id, { status: 'failed', take: DETAIL_PAGE, page });
    for (const d of answer.detail) failed.push({ ...d, batchId: id, item: parseItem(d.batchItem) });
    if (page >= answer.totalPages) return failed;
  }
}

export async function waitForBatch(
  reader: BatchReader,
  ids: string[],
  onProgress: ((progress: BatchProgress) => void) | undefined,
  options: WaitOptions = {},
): Promise<BatchOutcome> {
  const pollMs = options.pollMs ?? 1000;
  const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
  const statuses = new Map<string, BatchStatus>();
  for (;;) {
    const open = ids.filter((id) => statuses.get(id)?.status !== 'processed' && statuses.get(id)?.status !== 'failed');
    for (const status of await Promise.all(open.map((id) => reader.status(id)))) statuses.set(status.batchId, status);
    const batches = ids.map((id) => statuses.get(id)!);
    const done = batches.every((b) => b.status !== 'processing');
    onProgress?.({ ...sum(batches), done, batches });
    if (done) break;
    if (Date.now() + pollMs > deadline) throw new Error(`batches still processing after ${options.timeoutMs} ms: ${open.join(', ')}`);
    await sleep(pollMs, options.signal);
  }
  const batches = ids.map((id) => statuses.get(id)!);
  const failed: FailedBatchItem[] = [];
  for (const batch of batches) if (batch.failed > 0) failed.push(...(await batchFailures(reader, batch.batchId)));
  const { total, completed } = sum(batches);
  return { batches, total, completed, failed };
}

function sum(batches: BatchStatus[]) {
  const totals = { total: 0, processed: 0, completed: 0, failed: 0 };
  for (const b of batches) {
    totals.total += b.total;
    totals.processed += b.processed;
    totals.completed += b.completed;
    totals.failed += b.failed;
  }
  return totals;
}

function parseItem(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text; // the service always stores JSON; kept raw rather than lost
  }
}
