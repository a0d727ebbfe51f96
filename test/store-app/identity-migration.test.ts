// Migration 0011 on rows written in the shape before it: a person whose email a supplier
// attached keeps their phone, the email becomes a person of its own, every membership
// still opens to the identifiers its supplier named, and only the newest code stays live.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as storeIdentity from '../../src/db/migrations/0011_store_identity.ts';
import { ADMIN_TOKEN } from '../helpers/app.ts';
import { migrationFixture } from '../helpers/migration.ts';

const migration = migrationFixture();

describe('0011: store-user identity', () => {
  it('keeps everyone their own memberships and drops the links a supplier made', async () => {
    const db = migration.db();
    // Back to the shape before 0011.
    await sql`drop table store_users`.execute(db);
    await sql`create table store_users (supplier_id bigint not null, store_id bigint not null references stores(id),
      person_id bigint not null references people(id), phone text, email text, name text,
      created_at timestamptz not null default now(), primary key (supplier_id, store_id, person_id))`.execute(db);
    await sql`create index store_users_person on store_users (person_id)`.execute(db);
    await sql`alter table sign_in_codes drop column person_id`.execute(db);

    const one = async <T>(q: ReturnType<typeof sql<T>>) => (await q.execute(db)).rows[0]!;
    const supA = (await one(sql<{ id: number }>`insert into suppliers (code, name) values ('A', 'A') returning id`)).id;
    const supB = (await one(sql<{ id: number }>`insert into suppliers (code, name) values ('B', 'B') returning id`)).id;
    const storeA = (await one(sql<{ id: number }>`insert into stores (supplier_id, internal_code, name) values (${supA}, 'SA', 'A store') returning id`)).id;
    const storeB = (await one(sql<{ id: number }>`insert into stores (supplier_id, internal_code, name) values (${supB}, 'SB', 'B store') returning id`)).id;
    // Rosa: B registered her phone; A then added her phone with A's own email, which the old code attached to her.
    const rosa = (await one(sql<{ id: number }>`insert into people (phone, email, name) values ('+573005550001', 'a-owner@example.com', 'Rosa') returning id`)).id;
    // Luis: one supplier gave phone and email together.
    const luis = (await one(sql<{ id: number }>`insert into people (phone, email) values ('+573005550002', 'luis@example.com') returning id`)).id;
    await sql`insert into store_users (supplier_id, store_id, person_id, phone, email, name) values
      (${supB}, ${storeB}, ${rosa}, '+573005550001', null, 'Rosa'),
      (${supA}, ${storeA}, ${rosa}, '+573005550001', 'a-owner@example.com', null),
      (${supB}, ${storeB}, ${luis}, '+573005550002', 'luis@example.com', 'Luis')`.execute(db);
    await sql`insert into sign_in_codes (identifier, code_hash, expires_at) values
      ('+573005550001', 'old', now() + interval '5 minutes'), ('+573005550001', 'new', now() + interval '5 minutes')`.execute(db);

    await storeIdentity.up(db);

    const people = (await sql<{ id: number; phone: string | null; email: string | null }>`select id, phone, email from people order by id`.execute(db)).rows;
    expect(people.find((p) => p.id === rosa)).toMatchObject({ phone: '+573005550001', email: null });
    expect(people.find((p) => p.id === luis)).toMatchObject({ phone: '+573005550002', email: null });
    expect(people.filter((p) => p.phone === null).map((p) => p.email).sort()).toEqual(['a-owner@example.com', 'luis@example.com']);
    const live = (await sql<{ code_hash: string }>`select code_hash from sign_in_codes where consumed_at is null`.execute(db)).rows;
    expect(live).toEqual([{ code_hash: 'new' }]);

    // Through the real API over the migrated database.
    const { app, deps } = await migration.serve();
    const storesOf = async (contact: object) => {
      const minted = await app.inject({ method: 'POST', url: '/admin/store-users/token', payload: contact, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      const me = await app.inject({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${minted.json().access_token}` } });
      return me.json().stores.map((s: { internalCode: string }) => s.internalCode).sort();
    };
    expect(await storesOf({ phone: '+573005550001' })).toEqual(['SA', 'SB']);
    expect(await storesOf({ email: 'a-owner@example.com' })).toEqual(['SA']);
    expect(await storesOf({ phone: '+573005550002' })).toEqual(['SB']);
    expect(await storesOf({ email: 'luis@example.com' })).toEqual(['SB']);
    const users = await app.inject({ method: 'GET', url: '/app/me', headers: { authorization: `Bearer ${(await deps.storeTokens.sign(rosa)).token}` } });
    expect(users.json().user).toEqual({ phone: '+573005550001', email: null, name: 'Rosa', language: null });
  });
});
