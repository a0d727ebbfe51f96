// One Kysely instance over either PostgreSQL (production, several processes) or
// embedded PGlite (a single process, data in DATA_DIR). Everything above this file
// is the same for both.
import path from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { COPY_FROM_STDIN, CopyData, copyStatement, type CopyResult } from './copy.ts';
import { lockDataDir } from './data-dir-lock.ts';
import type { DB } from './types.ts';

export type DatabaseKind = 'postgres' | 'pglite';

export interface Database {
  readonly db: Kysely<DB>;
  readonly kind: DatabaseKind;
  /**
   * Hears `NOTIFY` on a channel from every process of the deployment. `up` is called once
   * listening starts (again after a lost connection comes back), `down` when it stops:
   * between the two, notifications may be missed. Returns the way to stop listening.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  /** Connections open, in use and waited for, now (read by the metrics scrape; costs nothing between scrapes). */
  pool(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  size: number;
  inUse: number;
  waiting: number;
}

export interface DatabaseOptions {
  /**
   * Called after every query the application sends, with its duration (Kysely's `log`).
   * Only tracing sets it: without it Kysely times nothing.
   */
  onQuery?: (event: LogEvent) => void;
}

const kyselyOptions = (options: DatabaseOptions) => (options.onQuery ? { log: options.onQuery } : {});

export interface ListenHandlers {
  notified(payload: string): void;
  up(): void;
  down(): void;
}

const INT8 = 20;
const DATE = 1082;

// bigint ids and counts fit in a JS number (< 2^53); dates stay 'YYYY-MM-DD' strings
// so no timezone ever shifts a calendar day. numeric stays an exact decimal string.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8) return (value: string) => Number(value);
    if (oid === DATE) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * A connection that runs each statement the application sends (select, insert, update,
 * delete, with) as a named prepared statement: PostgreSQL parses and plans its text once
 * per connection instead of on every call, which is most of the server's work for the
 * short indexed statements of an API request (measured in docs/benchmarks.md). Names
 * come from one table per process, by statement text, for at most MAX_PREPARED texts (a
 * statement whose text varies, an IN list, runs unnamed beyond that). A prepared
 * statement whose tables changed shape under it (a migration by a newer process) is
 * refused once with "cached plan must not change result type"; it is then prepared
 * again under a new name and run once more.
 */
const MAX_PREPARED = 1000;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
const preparedNames = new Map<string, string>();
let preparedSeq = 0;

function preparedNameFor(text: string, renew = false): string | undefined {
  let name = preparedNames.get(text);
  if (name === undefined || renew) {
    if (!renew && preparedNames.size >= MAX_PREPARED) return undefined;
    name = `s${++preparedSeq}`;
    preparedNames.set(text, name);
  }
  return name;
}

const isStalePlan = (error: unknown) => (error as { code?: string }).code === '0A000' && /cached plan must not change result type/.test(String((error as Error).message));

/**
 * A connection that runs a COPY ... FROM STDIN sent through Kysely (copy.ts: the statement
 * with one CopyData parameter) by streaming its rows with pg-copy-streams, on this very
 * connection and so in its transaction.
 */
class CopyingClient extends pg.Client {
  override query(...args: any[]): any {
    const [text, values] = args;
    if (typeof text === 'string' && values?.[0] instanceof CopyData && COPY_FROM_STDIN.test(text)) return this.copy(text, values[0]);
    return (super.query as (...a: any[]) => any)(...args);
  }

  private async copy(text: string, data: CopyData): Promise<{ command: string; rowCount: number; rows: CopyResult[] }> {
    const stream = (super.query as (s: unknown) => ReturnType<typeof copyFrom>)(copyFrom(copyStatement(text)));
    await pipeline(Readable.from(data.chunks), stream);
    return { command: 'COPY', rowCount: stream.rowCount, rows: [{ rows: stream.rowCount }] };
  }
}

class PreparingClient extends CopyingClient {
  // Kysely calls query(text, values) and awaits it; every other form passes through.
  override query(...args: any[]): any {
    const [text, values, callback] = args;
    const name = typeof text === 'string' && callback === undefined && typeof values !== 'function' && PREPARABLE.test(text) ? preparedNameFor(text) : undefined;
    if (name === undefined) return (super.query as (...a: any[]) => any)(...args);
    const run = (n: string) => (super.query as (...a: any[]) => Promise<unknown>)({ name: n, text, values });
    return run(name).catch((error: unknown) => {
      if (!isStalePlan(error)) throw error;
      return run(preparedNameFor(text, true)!);
    });
  }
}

export function postgresPool(connectionString: string, max = 10, prepared = false): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, types: pgTypes as pg.CustomTypesConfig, Client: prepared ? PreparingClient : CopyingClient });
  // A client that loses its server while checked out (a restart under load) fails its
  // query, which is what the caller sees and handles, and also emits 'error'; the pool
  // listens only while a client is idle, so without this listener that event would crash
  // the process (node-postgres#1324). The broken client is not reused: the pool drops it
  // on release. Pinned by test/hardening/faults.test.ts (npm run fault:postgres).
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

export function openPostgres(connectionString: string, options: { poolSize?: number; preparedStatements?: boolean } & DatabaseOptions = {}): Database {
  const pool = postgresPool(connectionString, options.poolSize ?? 10, options.preparedStatements ?? true);
  // An idle client losing its server (restart) must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), ...kyselyOptions(options) });
  const listeners = new Set<() => Promise<void>>();
  return {
    db,
    kind: 'postgres',
    async listen(channel, handlers) {
      const stop = listenOnPostgres(connectionString, channel, handlers);
      listeners.add(stop);
      return async () => {
        listeners.delete(stop);
        await stop();
      };
    },
    pool: () => ({ size: pool.totalCount, inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await Promise.all([...listeners].map((stop) => stop()));
      await db.destroy();
    },
  };
}

/**
 * A connection of its own that LISTENs, and comes back after it is lost (a server
 * restart): every second until it succeeds. Notifications sent while it was away are
 * lost, which is why `down` and `up` are reported.
 */
function listenOnPostgres(connectionString: string, channel: string, handlers: ListenHandlers): () => Promise<void> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (stopped) return;
    const next = new pg.Client({ connectionString, keepAlive: true });
    const lost = () => {
      if (client !== next) return;
      client = undefined;
      handlers.down();
      next.end().catch(() => {});
      if (!stopped) retry = setTimeout(connect, 1000);
    };
    next.on('error', lost);
    next.on('end', lost);
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.notified(message.payload ?? '');
    });
    client = next;
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
      if (client === next && !stopped) handlers.up();
    } catch {
      lost();
    }
  };
  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const current = client;
    client = undefined;
    await current?.end().catch(() => {});
  };
}

export const pgliteParsers = { [pgliteTypes.DATE]: (value: string) => value };

/**
 * The dialect's driver hands its one connection to one caller at a time and queues the
 * others (kysely-pglite-dialect's `connection` and `queue`): that is PGlite's pool, read for
 * the metrics. Reading fields the package does not declare is guarded: if they go away, the
 * gauges read 0 rather than the service failing.
 */
class ObservedPGliteDialect extends PGliteDialect {
  driver: { connection?: unknown; queue?: unknown[] } | undefined;
  override createDriver() {
    const driver = super.createDriver();
    this.driver = driver as unknown as { connection?: unknown; queue?: unknown[] };
    return driver;
  }
}

/**
 * What the dialect's driver uses of PGlite (query and close), with a COPY ... FROM STDIN
 * sent through Kysely (copy.ts) run as PGlite's COPY from `/dev/blob`.
 */
function copyingPGlite(client: PGlite): PGlite {
  const copying = {
    query(text: string, params?: unknown[], options?: object) {
      const data = params?.[0];
      if (!(data instanceof CopyData) || !COPY_FROM_STDIN.test(text)) return client.query(text, params, options);
      const statement = copyStatement(text).replace(/\sfrom\s+stdin$/i, " from '/dev/blob'");
      return client.query(statement, [], { blob: new Blob([...data.chunks]) }).then((result) => ({ ...result, rows: [{ rows: result.affectedRows ?? 0 } satisfies CopyResult] }));
    },
    close: () => client.close(),
  };
  return copying as unknown as PGlite;
}

/** Wraps an already open PGlite (tests load migrated snapshots this way). */
export function wrapPGlite(client: PGlite, release: () => void = () => {}, options: DatabaseOptions = {}): Database {
  const dialect = new ObservedPGliteDialect(copyingPGlite(client));
  const db = new Kysely<DB>({ dialect, ...kyselyOptions(options) });
  let closed = false;
  return {
    db,
    kind: 'pglite',
    // One process holds the database, so every NOTIFY comes from this very instance.
    async listen(channel, handlers) {
      const unlisten = await client.listen(channel, (payload) => handlers.notified(payload));
      handlers.up();
      return unlisten;
    },
    pool: () => ({ size: 1, inUse: dialect.driver?.connection ? 1 : 0, waiting: Array.isArray(dialect.driver?.queue) ? dialect.driver.queue.length : 0 }),
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      release();
    },
  };
}

export async function openPGlite(dataDir: string, options: DatabaseOptions = {}): Promise<Database> {
  const release = lockDataDir(dataDir);
  try {
    const client = await PGlite.create({ dataDir: path.join(dataDir, 'pglite'), parsers: pgliteParsers });
    return wrapPGlite(client, release, options);
  } catch (error) {
    release();
    throw error;
  }
}

export async function openDatabase(
  config: { databaseUrl?: string | undefined; databasePreparedStatements?: boolean; databasePoolSize?: number; dataDir: string },
  options: DatabaseOptions = {},
): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl, { preparedStatements: config.databasePreparedStatements, poolSize: config.databasePoolSize, ...options }) : openPGlite(config.dataDir, options);
}
