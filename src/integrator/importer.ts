// `surtido import`: file rows -> batch requests -> batch outcomes -> failed-rows file.
//
// - Rows are read as a stream and sent in requests of at most `batchSize` items (default
//   5,000: the items of one batch, well under the 50,000 of one request) and `maxBytes`
//   of JSON, so one request is one batch and the body stays far from the 32 MiB limit.
// - A request the service refuses with 402 names each bad item by its pointer
//   (`/upsert/products/3/price`): those rows fail with the pointer's code and message, and
//   the rest of the request is sent again. A 413, or a 402 naming no item, splits the
//   request in halves. Anything else (401, 403, no answer after the SDK's retries) stops
//   the import: re-sending rows is harmless (every batch write is an upsert or a remove), so the fix is to run it again.
// - At most `maxInFlight` accepted requests are followed at once; reading waits for the
//   oldest to end, which bounds memory whatever the file's size. The service applies one
//   supplier's batches one at a time anyway.
// - A batch's failed items come from its detail in submission order, and are traced back
//   to rows by walking the request's rows in order (see `traceFailures`).
import type { FailedBatchItem, SurtidoClient } from '../client/index.ts';
import { SurtidoApiError } from '../client/index.ts';
import { FailedRows } from './failures.ts';
import { bodyFor, type ImportKind, type NodeRule } from './kinds.ts';
import type { ProgressDisplay } from './progress.ts';
import type { Source } from './readers.ts';
import { blameRows, combine, type RowError, type SourceRow } from './rows.ts';

export interface ImportOptions {
  client: SurtidoClient;
  kind: ImportKind;
  rule: NodeRule;
  source: Source;
  failed: FailedRows;
  progress: ProgressDisplay;
  batchSize: number;
  maxBytes: number;
  maxInFlight: number;
  pollMs: number;
}

export interface ImportSummary {
  kind: string;
  endpoint: string;
  rowsRead: number;
  /** Items the service accepted into batches. */
  sent: number;
  completed: number;
  /** Every row not applied: refusedBeforeSending + failedWhenApplied. */
  failed: number;
  refusedBeforeSending: number;
  failedWhenApplied: number;
  batchIds: string[];
  failedFile: string | undefined;
  /** Why the import stopped early, when it did. */
  stopped: { code: string; message: string } | undefined;
  seconds: number;
}

/** An accepted request. Its rows are held by `followed` only while its batches run. */
interface Submission {
  items: number;
  batchIds: string[];
  processed: number;
  failed: number;
  completed: number;
  followed: Promise<void>;
}

export async function runImport(o: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const buffers = new Map<string, { node: string[]; rows: SourceRow[]; bytes: number }>();
  const submissions: Submission[] = [];
  let inFlight: Submission[] = [];
  let rowsRead = 0;
  let readingDone = false;
  let refused = 0;
  let stopped: ImportSummary['stopped'];

  const state = () => ({
    rowsRead,
    readingDone,
    sent: sentItems(submissions),
    processed: submissions.reduce((n, s) => n + s.processed, 0),
    failed: refused + submissions.reduce((n, s) => n + s.failed, 0),
  });

  async function refuse(row: SourceRow, error: RowError) {
    refused++;
    await o.failed.add(row, error);
  }

  function follow(rows: SourceRow[], batchIds: string[]): Submission {
    const submission: Submission = { items: rows.length, batchIds, processed: 0, failed: 0, completed: 0, followed: Promise.resolve() };
    submission.followed = (async () => {
      const outcome = await o.client.waitForBatch(
        batchIds,
        (p) => {
          Object.assign(submission, { processed: p.processed, failed: p.failed, completed: p.completed });
          o.progress.update(state());
        },
        { pollMs: o.pollMs },
      );
      for (const { row, failure } of traceFailures(rows, outcome.failed)) {
        await o.failed.add(row, { code: failure.errorCode ?? 'FAILED', message: failure.message ?? 'failed' }, failure.item);
      }
    })().catch((error: unknown) => {
      stopped ??= describe(error, `batches ${batchIds.join(', ')} were accepted but could not be followed to the end (see \`surtido wait\`)`);
    });
    return submission;
  }

  /** Sends rows of one node, dropping the rows the service names as bad, until accepted. */
  async function send(node: string[], rows: SourceRow[]): Promise<void> {
    let pending = rows;
    while (pending.length > 0) {
      try {
        // The items are the file's, unchecked: the service validates them (a 402 below).
        const accepted = (await o.client.post(o.kind.endpoint, { body: bodyFor(node, pending.map((r) => r.item)) } as never)) as { batchId: string[] };
        const submission = follow(pending, accepted.batchId);
        submissions.push(submission);
        inFlight.push(submission);
        return;
      } catch (error) {
        if (!(error instanceof SurtidoApiError) || (error.status !== 402 && error.status !== 413)) throw error;
        const blamed = error.status === 402 ? blameRows(node, pending.length, error.errors) : new Map<number, RowError[]>();
        if (blamed.size === 0) {
          if (pending.length === 1) return refuse(pending[0]!, { code: error.code, message: error.detail });
          const half = Math.ceil(pending.length / 2);
          await send(node, pending.slice(0, half));
          pending = pending.slice(half);
          continue;
        }
        for (const [index, errors] of blamed) await refuse(pending[index]!, combine(errors));
        pending = pending.filter((_, i) => !blamed.has(i));
      }
    }
  }

  async function flush(key: string) {
    const buffer = buffers.get(key);
    if (!buffer || buffer.rows.length === 0) return;
    buffers.delete(key);
    while (inFlight.length >= o.maxInFlight) {
      await inFlight[0]!.followed;
      inFlight = inFlight.slice(1);
    }
    await send(buffer.node, buffer.rows);
  }

  try {
    for await (const row of o.source.rows) {
      rowsRead++;
      if (row.error || !row.node) {
        await refuse(row, row.error ?? { code: 'INVALID_ROW', message: 'no item' });
      } else {
        const key = row.node.join('.');
        const buffer = buffers.get(key) ?? { node: row.node, rows: [], bytes: 0 };
        buffers.set(key, buffer);
        buffer.rows.push(row);
        buffer.bytes += JSON.stringify(row.item).length + 1;
        if (buffer.rows.length >= o.batchSize || buffer.bytes >= o.maxBytes) await flush(key);
      }
      o.progress.update(state());
    }
    readingDone = true;
    for (const key of [...buffers.keys()]) await flush(key);
  } catch (error) {
    stopped = describe(error);
  }
  readingDone = true;
  await Promise.all(submissions.map((s) => s.followed));
  o.progress.finish(state());
  const failedWhenApplied = submissions.reduce((n, s) => n + s.failed, 0);
  return {
    kind: o.kind.name,
    endpoint: o.kind.endpoint,
    rowsRead,
    sent: sentItems(submissions),
    completed: submissions.reduce((n, s) => n + s.completed, 0),
    failed: refused + failedWhenApplied,
    refusedBeforeSending: refused,
    failedWhenApplied,
    batchIds: submissions.flatMap((s) => s.batchIds),
    failedFile: await o.failed.close(),
    stopped,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
}

/**
 * Which rows a batch's failed items were. The detail lists items in submission order and
 * a request's rows are its items in order, so each failure is the next row, from where the
 * previous one was found, whose item agrees with the stored one. "Agrees": equal on the
 * fields both have, since the service drops unknown fields and may fill defaults in.
 */
export function traceFailures(rows: SourceRow[], failures: FailedBatchItem[]): { row: SourceRow | undefined; failure: FailedBatchItem }[] {
  let from = 0;
  return failures.map((failure) => {
    for (let i = from; i < rows.length; i++) {
      if (agrees(rows[i]!.item, failure.item)) {
        from = i + 1;
        return { row: rows[i], failure };
      }
    }
    return { row: undefined, failure };
  });
}

function agrees(sent: unknown, stored: unknown): boolean {
  if (Array.isArray(sent) || Array.isArray(stored)) {
    return Array.isArray(sent) && Array.isArray(stored) && sent.length === stored.length && sent.every((v, i) => agrees(v, stored[i]));
  }
  if (typeof sent === 'object' && sent !== null && typeof stored === 'object' && stored !== null) {
    const a = sent as Record<string, unknown>;
    const b = stored as Record<string, unknown>;
    return Object.keys(a).every((k) => !(k in b) || agrees(a[k], b[k]));
  }
  return sent === stored;
}

function describe(error: unknown, context?: string): { code: string; message: string } {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  return { code: typeof code === 'string' ? code : 'ERROR', message: context ? `${context}: ${message}` : message };
}

const sentItems = (submissions: Submission[]) => submissions.reduce((n, s) => n + s.items, 0);
