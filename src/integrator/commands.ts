// The CLI's small commands: `status`, `wait`, `kinds` and `trigger`.
import { SurtidoApiError, type SurtidoClient } from '../client/index.ts';
import { IMPORT_KINDS, ruleColumns, type NodeRule } from './kinds.ts';
import type { ProgressDisplay } from './progress.ts';
import { intFlag, UsageError } from './settings.ts';

export interface Io {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function batchIds(positionals: string[]): string[] {
  const bad = positionals.filter((id) => !UUID.test(id));
  if (positionals.length === 0 || bad.length > 0) throw new UsageError(`give one or more batch ids (UUIDs)${bad.length ? `; not one: ${bad.join(', ')}` : ''}`);
  return positionals;
}

export async function status(client: SurtidoClient, ids: string[], json: boolean, io: Io): Promise<number> {
  const statuses = await Promise.all(ids.map((id) => client.batchStatus(id)));
  if (json) io.stdout.write(JSON.stringify(statuses, null, 2) + '\n');
  else for (const s of statuses) io.stdout.write(`${s.batchId}  ${s.endpoint}  ${s.status}  total ${s.total}  processed ${s.processed}  completed ${s.completed}  failed ${s.failed}\n`);
  return statuses.some((s) => s.failed > 0) ? 2 : 0;
}

export async function wait(client: SurtidoClient, ids: string[], options: { json: boolean; pollMs: number; progress: ProgressDisplay }, io: Io): Promise<number> {
  const outcome = await client.waitForBatch(
    ids,
    (p) => {
      const state = { rowsRead: p.total, readingDone: true, sent: p.total, processed: p.processed, failed: p.failed };
      if (p.done) options.progress.finish(state);
      else options.progress.update(state);
    },
    { pollMs: options.pollMs },
  );
  if (options.json) {
    io.stdout.write(JSON.stringify(outcome, null, 2) + '\n');
  } else {
    for (const f of outcome.failed) io.stdout.write(`${f.batchId}  ${f.code}  ${f.errorCode}: ${f.message}\n`);
    io.stdout.write(`${outcome.total} items in ${outcome.batches.length} batch(es): ${outcome.completed} completed, ${outcome.failed.length} failed\n`);
  }
  return outcome.failed.length > 0 ? 2 : 0;
}

/** Every import kind with its columns, read from the API schema. */
export function kinds(io: Io): number {
  for (const kind of IMPORT_KINDS) {
    io.stdout.write(`${kind.name}  POST ${kind.endpoint}  ${kind.summary}\n`);
    for (const [label, rule] of [['', kind.write], ['--remove ', kind.remove]] as [string, NodeRule | undefined][]) {
      if (!rule) continue;
      for (const { node, type, columns } of ruleColumns(kind, rule)) {
        const typed = type && 'typeField' in rule ? `${rule.typeField}=${type} ` : '';
        io.stdout.write(`  ${label}${typed}(${node.join('.')}): ${columns.join(', ')}\n`);
      }
    }
  }
  io.stdout.write('\n* required (inside its object, for dotted ones). [JSON] takes a JSON cell; [list] a JSON list or A|B|C. Dotted columns fill objects. See src/integrator/README.md.\n');
  return 0;
}

/** The events `surtido trigger` makes happen (POST /sandbox/events). */
export const SANDBOX_EVENT_NAMES = ['order.created', 'order.cancelled', 'ticket.created', 'ticket.additional_info_received'] as const;
type SandboxEventName = (typeof SANDBOX_EVENT_NAMES)[number];

/**
 * `surtido trigger <event> [--store CODE] [--order ID] [--ticket ID]`: POST /sandbox/events
 * with a test credential (a live one is answered 404, which says so here).
 */
export async function trigger(client: SurtidoClient, args: string[], flags: Record<string, unknown>, json: boolean, io: Io): Promise<number> {
  const [type] = args;
  if (!type || args.length > 1 || !(SANDBOX_EVENT_NAMES as readonly string[]).includes(type)) {
    throw new UsageError(`trigger <event>: event must be one of ${SANDBOX_EVENT_NAMES.join(', ')}`);
  }
  const id = (name: string) => (flags[name] === undefined ? undefined : intFlag(flags, name, 0, 1, Number.MAX_SAFE_INTEGER));
  const body = {
    type: type as SandboxEventName,
    ...(flags.store === undefined ? {} : { storeCode: String(flags.store) }),
    ...(id('order') === undefined ? {} : { orderId: id('order') }),
    ...(id('ticket') === undefined ? {} : { ticketId: id('ticket') }),
  };
  let answer;
  try {
    answer = await client.post('/sandbox/events', { body });
  } catch (error) {
    if (error instanceof SurtidoApiError && error.status === 404 && error.code === 'NOT_FOUND' && error.detail.startsWith('no route')) {
      throw new UsageError('the sandbox answers test credentials only: use a test credential (key_test_..., POST /credential {"mode": "test"})');
    }
    throw error;
  }
  if (json) io.stdout.write(JSON.stringify(answer, null, 2) + '\n');
  else {
    const what = [answer.orderId ? `order ${answer.orderId}` : null, answer.ticketId ? `ticket ${answer.ticketId}` : null].filter(Boolean).join(', ');
    io.stdout.write(`${answer.type} in store ${answer.storeCode}: ${what}; delivery ${answer.deliveryId ?? '(none)'} ${answer.webhookId ?? ''}\n`.replace(' \n', '\n'));
  }
  return 0;
}
