// `surtido`: the integrators' command line (README.md beside this file), over the SDK.
// The operators' tool is src/main/cli.ts; this one only talks HTTP to a base URL.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createSurtidoClient, type SurtidoClient } from '../client/index.ts';
import { batchIds, kinds, SANDBOX_EVENT_NAMES, status, trigger, wait, type Io } from './commands.ts';
import { FailedRows } from './failures.ts';
import { runImport, type ImportSummary } from './importer.ts';
import { findKind, IMPORT_KINDS } from './kinds.ts';
import { ProgressDisplay } from './progress.ts';
import { formatOf, openSource } from './readers.ts';
import { FileError } from './rows.ts';
import { CONNECTION_FLAGS, connection, intFlag, UsageError } from './settings.ts';

const USAGE = `usage: surtido <command> [options]          (or: npm run surtido -- <command> ...)

  import <kind> <file>    send a CSV or JSON Lines file as batches, follow them, write the failed rows
  status <batchId>...     the status of batches
  wait <batchId>...       follow batches until they end and list their failed items
  kinds                   the kinds import takes, with their columns
  trigger <event>         make an event happen in the sandbox (a test credential only):
                          ${SANDBOX_EVENT_NAMES.join(', ')}

  kinds: ${IMPORT_KINDS.map((k) => k.name).join(', ')}

Connection (flags win over the environment):
  --url URL               SURTIDO_URL            the service's base URL
  --api-key KEY           SURTIDO_API_KEY
  --client-id ID          SURTIDO_CLIENT_ID
  --client-secret SECRET  SURTIDO_CLIENT_SECRET

import:
  --format csv|jsonl      default: from the file name (.csv, .jsonl, .ndjson)
  --remove                send the rows to the kind's remove node
  --delimiter C           CSV delimiter (default ,)
  --failed PATH           the failed-rows file (default <file>.failed.csv or <file>.failed.jsonl)
  --batch-size N          items per request (default 5000, one batch; at most 50000)
  --max-in-flight N       accepted requests followed at once (default 3)
  --poll-ms N             how often batch status is read (default 1000)
  --progress-interval-ms N  without a terminal, one progress line this often (default 5000)
  --quiet                 no progress on stderr
  --json                  the summary (or status, wait, trigger) as JSON on stdout

trigger:
  --store CODE            the test store (default: the sandbox's first store)
  --order ID              order.cancelled: the order to cancel; ticket.created: the order the ticket is about
  --ticket ID             ticket.additional_info_received: a ticket waiting for information

Exit status: 0 everything applied; 2 some rows or items failed; 1 a usage, connection or
authentication problem (or the import stopped early).`;

/** A request body well below the service's 32 MiB default limit (a 413 splits it anyway). */
const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

export async function main(argv: string[], env: Record<string, string | undefined>, io: Io): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        ...CONNECTION_FLAGS,
        format: { type: 'string' },
        remove: { type: 'boolean' },
        delimiter: { type: 'string' },
        failed: { type: 'string' },
        'batch-size': { type: 'string' },
        'max-in-flight': { type: 'string' },
        'poll-ms': { type: 'string' },
        'progress-interval-ms': { type: 'string' },
        quiet: { type: 'boolean' },
        json: { type: 'boolean' },
        store: { type: 'string' },
        order: { type: 'string' },
        ticket: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    io.stderr.write(`surtido: ${(error as Error).message}\n\n${USAGE}\n`);
    return 1;
  }
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    (values.help ? io.stdout : io.stderr).write(`${USAGE}\n`);
    return values.help ? 0 : 1;
  }
  try {
    const json = values.json === true;
    const pollMs = intFlag(values, 'poll-ms', 1000, 10, 60_000);
    const progress = new ProgressDisplay(io.stderr, { enabled: values.quiet !== true, intervalMs: intFlag(values, 'progress-interval-ms', 5000, 0, 3_600_000) });
    const client = () => createSurtidoClient({ ...connection(values, env), userAgent: 'surtido-cli' }) satisfies SurtidoClient;
    switch (command) {
      case 'kinds':
        return kinds(io);
      case 'status':
        return await status(client(), batchIds(rest), json, io);
      case 'wait':
        return await wait(client(), batchIds(rest), { json, pollMs, progress }, io);
      case 'import': {
        const [kindName, file] = rest;
        const kind = kindName ? findKind(kindName) : undefined;
        if (!kind) throw new UsageError(`import <kind> <file>: kind must be one of ${IMPORT_KINDS.map((k) => k.name).join(', ')}`);
        if (!file || rest.length > 2) throw new UsageError('import <kind> <file>: give one file');
        const rule = values.remove ? kind.remove : kind.write;
        if (!rule) throw new UsageError(`${kind.name} has no --remove`);
        const format = formatOf(file, values.format as string | undefined);
        const delimiter = (values.delimiter as string | undefined) ?? ',';
        const sdk = client();
        const source = await openSource(file, format, kind, rule, delimiter);
        const failed = new FailedRows((values.failed as string | undefined) ?? `${file}.failed.${format}`, format, source.header, delimiter);
        const summary = await runImport({
          client: sdk,
          kind,
          rule,
          source,
          failed,
          progress,
          batchSize: intFlag(values, 'batch-size', 5000, 1, 50_000),
          maxBytes: MAX_REQUEST_BYTES,
          maxInFlight: intFlag(values, 'max-in-flight', 3, 1, 100),
          pollMs,
        });
        const forScripts = { file, ...summary, failedFile: summary.failedFile ?? null, stopped: summary.stopped ?? null };
        io.stdout.write(json ? JSON.stringify(forScripts, null, 2) + '\n' : report(file, summary));
        return summary.stopped ? 1 : summary.failed > 0 ? 2 : 0;
      }
      case 'trigger':
        return await trigger(client(), rest, values, json, io);
      default:
        throw new UsageError(`unknown command ${command}`);
    }
  } catch (error) {
    const usage = error instanceof UsageError;
    const hint = error instanceof FileError && error.hint ? ` (${error.hint})` : '';
    io.stderr.write(`surtido: ${(error as Error).message}${hint}${usage ? '\n(surtido --help for usage)' : ''}\n`);
    return 1;
  }
}

function report(file: string, s: ImportSummary): string {
  const lines = [
    `${file} -> POST ${s.endpoint} (${s.kind})`,
    `  rows read      ${s.rowsRead}`,
    `  sent           ${s.sent} items in ${s.batchIds.length} batch(es)`,
    `  completed      ${s.completed}`,
    `  failed         ${s.failed} (${s.refusedBeforeSending} refused before sending, ${s.failedWhenApplied} failed when applied)`,
  ];
  if (s.failedFile) lines.push(`  failed rows    ${s.failedFile}`);
  if (s.batchIds.length > 0) lines.push(`  batches        ${s.batchIds.join(' ')}`);
  lines.push(`  took           ${s.seconds} s`);
  if (s.stopped) lines.push('', `stopped early: ${s.stopped.code}: ${s.stopped.message}`, 'Re-sending rows is harmless: run the import again once the cause is fixed.');
  return lines.join('\n') + '\n';
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr });
}
