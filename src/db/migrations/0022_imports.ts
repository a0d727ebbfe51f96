// Frozen once shipped. File imports (src/modules/imports/README.md): a file a supplier
// uploads, read by the service into ordinary batches, remembering each item's line and
// original row so the failed rows can be listed and given back as a file.
// - imports: one row per uploaded file, with what was read (rows, refused, sent);
// - import_parts: the file's rows in runs of at most 1,000, each run either items of one
//   batch (batch_id, from item first_idx on) or rows refused before sending (batch_id
//   null, with each row's problems): the line of each and its original content, as
//   parallel arrays, so a part is one row written by one statement per chunk, never a row
//   per item. A batch's parts go with it (retention deletes the import first).
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table imports (
     id uuid primary key,
     supplier_id bigint not null references suppliers(id) on delete cascade,
     seq bigint generated always as identity,
     kind text not null,
     remove boolean not null default false,
     format text not null check (format in ('csv', 'jsonl')),
     file_name text not null,
     delimiter text not null default ',',
     header json,
     uploaded_by_kind text not null check (uploaded_by_kind in ('person', 'credential')),
     uploaded_by text not null,
     rows_read integer not null,
     refused integer not null,
     sent integer not null,
     created_at timestamptz not null default now())`,
  `create index imports_supplier_seq on imports (supplier_id, seq)`,

  `create table import_parts (
     import_id uuid not null references imports(id) on delete cascade,
     part integer not null,
     batch_id uuid references batches(id) on delete cascade,
     first_idx integer not null,
     lines integer[] not null,
     originals json not null,
     problems json,
     primary key (import_id, part))`,
  `create index import_parts_batch on import_parts (batch_id) where batch_id is not null`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
