// src/db/types.ts is written by hand (it keeps typed JSON columns and literal unions no
// generator would know); this test keeps it from drifting from the migrated database. It
// reads the tables from information_schema and the `DB` interface with the TypeScript
// compiler, and compares tables, columns, nullability, a compatible type per column and
// which columns may be left out of an insert.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../helpers/database.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TYPES_FILE = path.join(ROOT, 'src/db/types.ts');
/** Kysely's own bookkeeping, not the application's tables. */
const NOT_THE_APP = new Set(['kysely_migration', 'kysely_migration_lock']);

/** What a TypeScript type is, as far as a column is concerned. */
type Kind = 'string' | 'number' | 'boolean' | 'bigint' | 'Date' | 'bytes' | 'array' | 'object' | 'unknown' | 'undefined' | 'null' | 'other';

/**
 * The TypeScript kinds a value of each PostgreSQL type may be selected as, by udt_name
 * (arrays are `_` + the element's udt_name and must be TS arrays of the element's kinds).
 * They follow what both drivers return with the parsers of src/db/database.ts:
 * - text-like and uuid: string (a literal union is a string too);
 * - int2/int4/float: number; int8: number too (pg's INT8 parser is Number(); PGlite
 *   returns a number below 2^53), ids and counts never reach 2^53;
 * - numeric: string, the exact decimal text (neither driver parses it);
 * - date: string 'YYYY-MM-DD' (pgTypes DATE and pgliteParsers keep the text);
 * - timestamptz: Date (the project's Timestamp selects Date);
 * - json/jsonb: anything: parsed by both drivers, typed by hand (the refinements);
 * - bytea: Buffer or Uint8Array.
 */
const ALLOWED: Record<string, readonly Kind[] | 'any'> = {
  text: ['string'],
  varchar: ['string'],
  bpchar: ['string'],
  citext: ['string'],
  uuid: ['string'],
  int2: ['number'],
  int4: ['number'],
  int8: ['number'],
  float4: ['number'],
  float8: ['number'],
  numeric: ['string'],
  bool: ['boolean'],
  date: ['string'],
  timestamptz: ['Date'],
  timestamp: ['Date'],
  json: 'any',
  jsonb: 'any',
  bytea: ['bytes'],
};

interface DbColumn {
  table_name: string;
  column_name: string;
  data_type: string;
  udt_name: string;
  is_nullable: 'YES' | 'NO';
  column_default: string | null;
  is_identity: 'YES' | 'NO';
}

interface TsColumn {
  /** The declared type, as written (for messages). */
  declared: string;
  /** The select type (ColumnType's S, Generated's T), as the checker prints it. */
  select: string;
  nullable: boolean;
  /** Non-null parts of the select type: kind, and for arrays the element's kinds. */
  parts: { kind: Kind; elements: Kind[] }[];
  /** Kysely's Insertable leaves it out (undefined or null in the insert type). */
  optionalOnInsert: boolean;
  generated: boolean;
}

let database: Awaited<ReturnType<typeof freshDatabase>>;
let dbColumns: Map<string, Map<string, DbColumn>>;
let tsTables: Map<string, Map<string, TsColumn>>;

beforeAll(async () => {
  database = await freshDatabase();
  const { rows } = await sql<DbColumn>`
    select table_name, column_name, data_type, udt_name, is_nullable, column_default, is_identity
      from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`.execute(database.db);
  dbColumns = new Map();
  for (const row of rows) {
    if (NOT_THE_APP.has(row.table_name)) continue;
    if (!dbColumns.has(row.table_name)) dbColumns.set(row.table_name, new Map());
    dbColumns.get(row.table_name)!.set(row.column_name, row);
  }
  tsTables = readTypes();
});
afterAll(() => database.close());

function readTypes(): Map<string, Map<string, TsColumn>> {
  const config = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const program = ts.createProgram({ rootNames: [TYPES_FILE], options });
  const source = program.getSourceFile(TYPES_FILE)!;
  // With kysely unresolved every column would read as `any` and pass: refuse that.
  const diagnostics = ts.getPreEmitDiagnostics(program, source).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(diagnostics, 'src/db/types.ts must compile for this test to mean anything').toEqual([]);
  const checker = program.getTypeChecker();
  const dbSymbol = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).find((s) => s.name === 'DB');
  expect(dbSymbol, 'src/db/types.ts exports the DB interface').toBeDefined();

  const members = (type: ts.Type) => (type.isUnion() ? type.types : [type]);
  const prop = (type: ts.Type, name: string) => {
    const symbol = type.getProperty(name);
    return symbol && checker.getTypeOfSymbolAtLocation(symbol, source);
  };
  const kind = (type: ts.Type): Kind => {
    const f = type.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return 'unknown';
    if (f & ts.TypeFlags.Undefined) return 'undefined';
    if (f & ts.TypeFlags.Null) return 'null';
    if (f & ts.TypeFlags.StringLike) return 'string';
    if (f & ts.TypeFlags.NumberLike) return 'number';
    if (f & ts.TypeFlags.BooleanLike) return 'boolean';
    if (f & ts.TypeFlags.BigIntLike) return 'bigint';
    if (checker.isArrayType(type) || checker.isTupleType(type)) return 'array';
    const name = type.getSymbol()?.name;
    if (name === 'Date') return 'Date';
    if (name === 'Buffer' || name === 'Uint8Array') return 'bytes';
    if (f & ts.TypeFlags.Object) return 'object';
    return 'other';
  };
  const elementKinds = (type: ts.Type): Kind[] => [
    ...new Set(checker.getTypeArguments(type as ts.TypeReference).flatMap((element) => members(element).map(kind))),
  ];

  const tables = new Map<string, Map<string, TsColumn>>();
  for (const table of checker.getDeclaredTypeOfSymbol(dbSymbol!).getProperties()) {
    const columns = new Map<string, TsColumn>();
    for (const column of checker.getTypeOfSymbolAtLocation(table, source).getProperties()) {
      const declared = checker.getTypeOfSymbolAtLocation(column, source);
      // Kysely's SelectType/InsertType, distributed over the union as Kysely does.
      const select = members(declared).flatMap((m) => members(prop(m, '__select__') ?? m));
      const insert = members(declared).flatMap((m) => members(prop(m, '__insert__') ?? m));
      const nonNull = select.filter((m) => !(m.flags & ts.TypeFlags.Null));
      columns.set(column.name, {
        declared: checker.typeToString(declared),
        select: select.map((m) => checker.typeToString(m)).join(' | '),
        nullable: nonNull.length < select.length,
        parts: nonNull.map((m) => {
          const k = kind(m);
          return { kind: k, elements: k === 'array' ? elementKinds(m) : [] };
        }),
        optionalOnInsert: insert.some((m) => m.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)) || column.flags & ts.SymbolFlags.Optional ? true : false,
        generated: members(declared).some((m) => m.aliasSymbol?.name === 'Generated'),
      });
    }
    tables.set(table.name, columns);
  }
  return tables;
}

/** Every column found on both sides, with both descriptions. */
function* pairs() {
  for (const [table, columns] of dbColumns) {
    for (const [name, db] of columns) {
      const typed = tsTables.get(table)?.get(name);
      if (typed) yield { at: `${table}.${name}`, db, typed, dbText: `${db.udt_name} ${db.is_nullable === 'YES' ? 'null' : 'not null'}` };
    }
  }
}

/** Whether one non-null part of a select type may hold a value of udt (not an array). */
const fitsScalar = (udt: string, kind: Kind): boolean => {
  const allowed = ALLOWED[udt];
  if (kind === 'undefined' || allowed === undefined) return false;
  return allowed === 'any' || allowed.includes(kind);
};

describe('src/db/types.ts against the migrated database', () => {
  it('declares the same tables', () => {
    expect([...tsTables.keys()].sort(), 'tables of DB in types.ts (received) against the database (expected)').toEqual([...dbColumns.keys()].sort());
  });

  it('declares the same columns per table', () => {
    const problems: string[] = [];
    for (const [table, columns] of dbColumns) {
      const typed = tsTables.get(table);
      if (!typed) continue; // reported by the tables test
      for (const name of columns.keys()) if (!typed.has(name)) problems.push(`${table}.${name}: in the database (${columns.get(name)!.udt_name}), missing from types.ts`);
      for (const [name, column] of typed) if (!columns.has(name)) problems.push(`${table}.${name}: in types.ts (${column.declared}), no such column in the database`);
    }
    expect(problems).toEqual([]);
  });

  it('makes a column nullable exactly when the database does', () => {
    const problems: string[] = [];
    for (const { at, db, typed, dbText } of pairs()) {
      // `unknown` (an untyped JSON column) already admits null, so it fits either way.
      if (typed.parts.some((p) => p.kind === 'unknown')) continue;
      if (typed.nullable !== (db.is_nullable === 'YES')) problems.push(`${at}: database ${dbText}, types.ts selects ${typed.select}`);
    }
    expect(problems).toEqual([]);
  });

  it('gives each column a type its driver returns', () => {
    const problems: string[] = [];
    for (const { at, db, typed, dbText } of pairs()) {
      const udt = db.udt_name;
      const isArray = udt.startsWith('_');
      const element = isArray ? udt.slice(1) : udt;
      if (ALLOWED[element] === undefined) {
        problems.push(`${at}: database ${dbText} (${db.data_type}) has no mapping in this test; add one to ALLOWED (types.ts selects ${typed.select})`);
        continue;
      }
      const fits =
        typed.parts.length > 0 &&
        typed.parts.every((part) =>
          // An array's elements may be NULL whatever the column's nullability: null is allowed beside the element's type.
          isArray
            ? part.kind === 'array' && part.elements.some((k) => k !== 'null') && part.elements.every((k) => k === 'null' || fitsScalar(element, k))
            : fitsScalar(element, part.kind),
        );
      const expected = ALLOWED[element] === 'any' ? 'any' : (ALLOWED[element] as readonly Kind[]).join(' or ');
      if (!fits) problems.push(`${at}: database ${dbText} wants ${isArray ? `an array of ${expected}` : expected}, types.ts selects ${typed.select}`);
    }
    expect(problems).toEqual([]);
  });

  it('lets an insert leave out only columns the database fills (default, identity or null)', () => {
    const problems: string[] = [];
    for (const { at, db, typed, dbText } of pairs()) {
      const filled = db.column_default !== null || db.is_identity === 'YES';
      if (typed.generated && !filled) problems.push(`${at}: Generated<> in types.ts (${typed.declared}), but the database (${dbText}) has no default or identity`);
      else if (typed.optionalOnInsert && !filled && db.is_nullable === 'NO')
        problems.push(`${at}: types.ts lets an insert leave it out (${typed.declared}), but the database (${dbText}) has no default`);
      if (db.is_identity === 'YES' && !typed.optionalOnInsert) problems.push(`${at}: an identity column in the database, but types.ts requires it on insert (${typed.declared}); use Generated<>`);
    }
    expect(problems).toEqual([]);
  });
});
