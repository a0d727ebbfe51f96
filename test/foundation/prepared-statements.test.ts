// PostgreSQL connections run the application's statements as named prepared statements
// (src/db/database.ts). What must hold: they are really prepared, once per text and
// connection; and a statement prepared before a migration changed its table still runs.
// The pool keeps the connections DATABASE_POOL_SIZE allows.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, openPostgres, type Database } from '../../src/db/database.ts';
import { freshDatabase, onPostgres } from '../helpers/database.ts';

let fresh: Database & { url?: string };
let one: Database; // one connection, so pg_prepared_statements (per session) shows its statements

beforeAll(async () => {
  if (!onPostgres()) return;
  fresh = await freshDatabase();
  one = openPostgres(fresh.url!, { poolSize: 1 });
});
afterAll(async () => {
  await one?.close();
  await fresh?.close();
});

describe.runIf(onPostgres())('prepared statements on PostgreSQL', () => {
  it('prepares each statement text once per connection and reuses it', async () => {
    for (const id of [1, 2, 3]) await one.db.selectFrom('suppliers').select('id').where('id', '=', id).execute();
    const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(one.db);
    const suppliers = rows.filter((r) => r.statement.includes('from "suppliers"'));
    expect(suppliers).toHaveLength(1);
  });

  it('runs a prepared statement again after its table changed shape', async () => {
    await sql`create table prepared_probe (a int)`.execute(one.db);
    await sql`insert into prepared_probe values (1)`.execute(one.db);
    const probe = () => sql<Record<string, unknown>>`select * from prepared_probe`.execute(one.db);
    expect((await probe()).rows).toEqual([{ a: 1 }]);
    await sql`alter table prepared_probe add column b int default 2`.execute(one.db);
    expect((await probe()).rows).toEqual([{ a: 1, b: 2 }]);
  });
});

describe.runIf(onPostgres())('the pool on PostgreSQL', () => {
  it('keeps at most DATABASE_POOL_SIZE connections, however many statements wait', async () => {
    const config = loadConfig({ DATABASE_URL: fresh.url!, DATABASE_POOL_SIZE: '2' });
    const database = await openDatabase(config);
    try {
      const backend = () => sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.2)`.execute(database.db);
      const answers = await Promise.all(Array.from({ length: 6 }, backend));
      expect(new Set(answers.map((a) => a.rows[0]!.pid)).size).toBe(2);
    } finally {
      await database.close();
    }
  });
});
