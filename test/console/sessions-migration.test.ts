// Migration 0033 on console sessions written before it (keyed by the UUID their token
// carries): each id is hashed in place, the token handed out before still opens the
// console, and what is stored no longer does.
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as hashedSessions from '../../src/db/migrations/0033_hashed_sessions.ts';
import { migrationFixture } from '../helpers/migration.ts';

const migration = migrationFixture();

describe('0033: hashed sessions', () => {
  it('hashes the stored console session ids in place, and the tokens handed out before keep working', async () => {
    const db = migration.db();
    // Back to the shape before 0033 (the fresh database holds no session yet).
    await sql`drop table store_sessions`.execute(db);
    await sql`alter table console_sessions alter column id type uuid using id::uuid`.execute(db);
    const live = randomUUID();
    const ended = randomUUID();
    await sql`insert into operators (email) values ('op@migration.test')`.execute(db);
    await sql`insert into console_sessions (id, email, expires_at, ends_at, revoked_at) values
      (${live}, 'op@migration.test', now() + interval '30 minutes', now() + interval '12 hours', null),
      (${ended}, 'op@migration.test', now() + interval '30 minutes', now() + interval '12 hours', now())`.execute(db);

    await hashedSessions.up(db);

    const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
    const stored = (await sql<{ id: string }>`select id from console_sessions order by id`.execute(db)).rows.map((r) => r.id);
    expect(stored).toEqual([sha256(live), sha256(ended)].sort());

    const { app, deps } = await migration.serve();
    const me = async (sessionId: string) =>
      (await app.inject({ method: 'GET', url: '/console/me', headers: { authorization: `Bearer ${(await deps.consoleTokens.sign(sessionId)).token}` } })).statusCode;
    expect(await me(live)).toBe(200);
    expect(await me(ended)).toBe(401);
    expect(await me(sha256(live))).toBe(401);
    // The store side's sessions table is there, empty: a store token of before 0033 names no session (its person signs in again).
    expect((await sql<{ n: number }>`select count(*)::int as n from store_sessions`.execute(db)).rows[0]!.n).toBe(0);
  });
});
