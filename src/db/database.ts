// One Kysely instance over either PostgreSQL (production, several processes) or
// embedded PGlite (a single process, data in DATA_DIR). Everything above this file
// is the same for both.
import path from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';
import type { DB } from './types.ts';

export type DatabaseKind = 'postgres' | 'pglite';

export interface Database {
  readonly db: Kysely<DB>;
  readonly kind: DatabaseKind;
  close(): Promise<void>;
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

export function postgresPool(connectionString: string, max = 10): pg.Pool {
  return new pg.Pool({ connectionString, max, types: pgTypes as pg.CustomTypesConfig });
}

export function openPostgres(connectionString: string, poolSize = 10): Database {
  const pool = postgresPool(connectionString, poolSize);
  // An idle client losing its server (restart) must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', close: () => db.destroy() };
}

export const pgliteParsers = { [pgliteTypes.DATE]: (value: string) => value };

/** Wraps an already open PGlite (tests load migrated snapshots this way). */
export function wrapPGlite(client: PGlite, release: () => void = () => {}): Database {
  const db = new Kysely<DB>({ dialect: new PGliteDialect(client) });
  let closed = false;
  return {
    db,
    kind: 'pglite',
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      release();
    },
  };
}

export async function openPGlite(dataDir: string): Promise<Database> {
  const release = lockDataDir(dataDir);
  try {
    const client = await PGlite.create({ dataDir: path.join(dataDir, 'pglite'), parsers: pgliteParsers });
    return wrapPGlite(client, release);
  } catch (error) {
    release();
    throw error;
  }
}

export async function openDatabase(config: { databaseUrl?: string | undefined; dataDir: string }): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPGlite(config.dataDir);
}
