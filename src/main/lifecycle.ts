// Build, start, drain, close. On SIGTERM or SIGINT the service stops accepting, finishes
// what is in flight (requests; the chunk each worker holds, giving its lease back),
// closes the database and exits. A second signal, or the deadline, forces the exit.
import v8 from 'node:v8';
import type { FastifyInstance } from 'fastify';

/**
 * How much the service's old generation may grow over what survived its last full
 * collection before the next one: it may double (Go's default target too). V8's own
 * default lets it grow up to four times when collections are cheap, and on a long bulk
 * load, each request leaving a few megabytes of promoted objects (its body, parsed), that
 * held 150 MB of dead requests: the peak followed the length of the load, not what the
 * service keeps (docs/benchmarks.md, `bench:memory`). Growth by half bounds it as well,
 * but under `bench:store-catalog` it ran 51 full collections where doubling runs 29 and
 * V8's default 14. A process started with its own `--heap-growing-percent` keeps it.
 */
const HEAP_GROWING_PERCENT = 100;

/** Sets the service's memory policy (HEAP_GROWING_PERCENT); called before the service starts. */
export function boundHeapGrowth(): void {
  if (process.execArgv.some((flag) => /^--heap[-_]growing[-_]percent\b/.test(flag))) return;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/** How often a closing API closes the connections that have become idle. */
const IDLE_SWEEP_MS = 100;

/**
 * Closes the API for a drain: requests in flight finish, a request arriving on an open
 * connection is answered 503 (return503OnClosing), and every keep-alive connection closes
 * as soon as it is idle. Node closes the connections that are idle when the close begins;
 * one that becomes idle afterwards with keep-alive (a request answered from its headers
 * while its body was still arriving: test/foundation/drain.test.ts) stayed open, holding
 * the drain, until its keep-alive timeout (KEEP_ALIVE_TIMEOUT_MS, 72 s by default). So
 * while the close runs, the idle ones are closed again every IDLE_SWEEP_MS.
 */
export async function closeApi(app: FastifyInstance): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}

export interface Stoppable {
  name: string;
  stop(): Promise<void>;
}

export function drainOnSignals(parts: Stoppable[], options: { timeoutMs: number; log: (msg: string) => void }) {
  let stopping = false;
  const stopAll = async (signal: string) => {
    if (stopping) {
      options.log(`${signal} again: exiting now`);
      process.exit(130);
    }
    stopping = true;
    options.log(`${signal}: draining (send it again to force exit)`);
    const deadline = setTimeout(() => {
      options.log(`drain took longer than ${options.timeoutMs} ms: exiting`);
      process.exit(1);
    }, options.timeoutMs);
    deadline.unref();
    for (const part of parts) {
      try {
        await part.stop();
      } catch (error) {
        options.log(`stopping ${part.name} failed: ${(error as Error).message}`);
      }
    }
    clearTimeout(deadline);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stopAll('SIGTERM'));
  process.on('SIGINT', () => void stopAll('SIGINT'));
}
