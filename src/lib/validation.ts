// Request validation: TypeBox schemas compiled by Ajv. Bodies are validated strictly
// (no type coercion: "12" is not a number) and lose unknown fields (the contract says
// they are ignored, never stored); query strings and path params are coerced, since
// every value there arrives as text.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from '../lib/errors.ts';
import { decimalPlaces } from '../lib/numbers.ts';
import { CODE_PATTERN } from './schemas.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function createAjv(coerceTypes: boolean | 'array', removeAdditional: 'all' | false = 'all'): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional,
    useDefaults: true,
    coerceTypes,
    strict: false,
    allowUnionTypes: true,
  });
  addFormats(ajv);
  // A custom keyword carries the `x-` prefix, as OpenAPI asks of an extension.
  ajv.addKeyword({
    keyword: 'x-maxDecimals',
    type: 'number',
    schemaType: 'number',
    errors: true,
    validate: function maxDecimals(max: number, value: number) {
      if (decimalPlaces(value) <= max) return true;
      (maxDecimals as { errors?: unknown[] }).errors = [{ keyword: 'x-maxDecimals', message: `must have at most ${max} decimals`, params: { max } }];
      return false;
    },
  });
  for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format);
  return ajv;
}

/**
 * The formats of ours the schemas name, beyond ajv-formats' (which these replace for `date`
 * and `date-time`, so the rule holds for every schema that names them): dates and instants
 * the database and every client can hold, years 0001 to 9999 only. (Year 0000 parses in
 * JavaScript but PostgreSQL refuses it; five-digit years do not survive ISO 8601 text.)
 * The answers' serializer is given them too (src/http/serialization.ts).
 */
export const FORMATS = {
  'calendar-date': { type: 'string', validate: isCalendarDate },
  date: { type: 'string', validate: isCalendarDate },
  'date-time': { type: 'string', validate: isInstant },
  'date-or-timestamp': { type: 'string', validate: isDateOrTimestamp },
} as const satisfies Record<string, { type: 'string'; validate: (value: string) => boolean }>;

/** A calendar date that exists (2026-02-30 does not), as YYYY-MM-DD, in years 0001 to 9999. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value.startsWith('0000')) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

const INSTANT = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * An RFC 3339 instant (as ajv-formats' date-time: a T or space, seconds, an offset or Z)
 * whose date is a real one in years 0001 to 9999 (leap seconds are not accepted).
 */
export function isInstant(value: string): boolean {
  const match = INSTANT.exec(value);
  if (!match || !isCalendarDate(match[1]!)) return false;
  const [hour, minute, second] = [Number(match[2]), Number(match[3]), Number(match[4])];
  if (hour > 23 || minute > 59 || second > 59) return false;
  const offset = match[6]!;
  if (offset.length === 6 && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(4)) > 59)) return false;
  return true;
}

/**
 * What an import's loose timestamp field takes: a calendar date, or a date followed by a
 * time JavaScript can read ("2025-12-01 10:00"), in years 0001 to 9999 both as written
 * and once read.
 */
export function isDateOrTimestamp(value: string): boolean {
  const match = /^(\d{4}-\d{2}-\d{2})([T ].+)?$/.exec(value);
  if (!match || !isCalendarDate(match[1]!)) return false;
  if (match[2] === undefined) return true;
  const at = new Date(value);
  const year = at.getUTCFullYear();
  return !Number.isNaN(at.getTime()) && year >= 1 && year <= 9999;
}

const bodyAjv = createAjv(false);
const textAjv = createAjv('array');
// Headers a schema does not name stay: removing them would hide X-Forwarded-For (the
// client address), Idempotency-Key and the rest from every later hook.
const headerAjv = createAjv('array', false);

/**
 * Two rules hold for every request, whatever its schema says:
 * - no text holds the NUL character or a lone UTF-16 surrogate ("\ud800" in JSON):
 *   PostgreSQL cannot store the first in text or jsonb, and jsonb refuses the second
 *   (text would silently turn it into U+FFFD);
 * - every integer is a safe integer (beyond 2^53 JSON numbers lose their digits, and
 *   beyond 2^63 they do not fit a bigint column).
 * The first is checked before the schema, the second is added to every integer of it.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const body = httpPart === 'body';
  const ajv = body ? bodyAjv : httpPart === 'headers' ? headerAjv : textAjv;
  const copy = withSafeIntegers(schema);
  const validate = ajv.compile(copy) as ValidateFunction;
  const dropNulls = body ? nullDropper(copy) : undefined;
  const guarded = (sent: unknown): boolean | { value: unknown } => {
    // A missing or empty body is `{}` (Fastify hands the validator null for it): a body
    // whose every field is optional may be left out, and one with a required field
    // answers which field is missing rather than "must be object".
    const missing = body && (sent === null || sent === undefined);
    const data = missing ? {} : sent;
    const unstorable = storableBodies.has(data as object) ? null : findUnstorable(data, '');
    if (unstorable !== null) {
      guarded.errors = [{ keyword: 'nul', instancePath: unstorable.pointer, schemaPath: '#', params: {}, message: unstorable.message }];
      return false;
    }
    if (dropNulls && !nullFreeBodies.has(data as object)) dropNulls(data);
    const valid = validate(data) as boolean;
    guarded.errors = validate.errors;
    return valid && missing ? { value: data } : valid;
  };
  guarded.errors = null as ErrorObject[] | null | undefined;
  return guarded;
};

type Dropper = (value: unknown) => void;
type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

const acceptsNull = (s: JsonSchema): boolean =>
  s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null')) || s.const === null || !!s.anyOf?.some(acceptsNull) || !!s.oneOf?.some(acceptsNull);

const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * `null` in an optional field means the field is absent, wherever the schema gives null no
 * meaning of its own (a field declared nullable, as the upserts' "null clears it", keeps
 * its null). The returned function deletes such nulls in place before validation, at
 * every depth; undefined when the schema has no such field.
 */
export function nullDropper(schema: JsonSchema): Dropper | undefined {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const droppers = branches.map((b) => ({ type: b.type, drop: nullDropper(b) })).filter((b) => b.drop);
    if (droppers.length === 0) return undefined;
    // A union of an object and an array of it (a product given either way): the branch of the value's own JSON type.
    return (value) => droppers.find((b) => b.type === jsonType(value))?.drop!(value);
  }
  if (schema.type === 'array' && schema.items) {
    const item = nullDropper(schema.items);
    return item && ((value) => Array.isArray(value) && value.forEach(item));
  }
  if (schema.type !== 'object' || !schema.properties) return undefined;
  const required = new Set(schema.required ?? []);
  const optional: string[] = [];
  const nested: [string, Dropper][] = [];
  for (const [key, property] of Object.entries(schema.properties)) {
    if (!required.has(key) && !acceptsNull(property)) optional.push(key);
    const drop = nullDropper(property);
    if (drop) nested.push([key, drop]);
  }
  if (optional.length === 0 && nested.length === 0) return undefined;
  return (value) => {
    if (jsonType(value) !== 'object') return;
    const object = value as Record<string, unknown>;
    for (const key of optional) if (object[key] === null) delete object[key];
    for (const [key, drop] of nested) if (object[key] !== undefined && object[key] !== null) drop(object[key]);
  };
}

const SAFE = Number.MAX_SAFE_INTEGER;
const schemaCopies = new WeakMap<object, object>();

function withSafeIntegers(schema: unknown): object {
  const cached = schemaCopies.get(schema as object);
  if (cached) return cached;
  const copy = JSON.parse(JSON.stringify(schema), (_key, value) => {
    if (value && typeof value === 'object' && !Array.isArray(value) && value.type === 'integer') {
      return { ...value, minimum: Math.max(value.minimum ?? -SAFE, -SAFE), maximum: Math.min(value.maximum ?? SAFE, SAFE) };
    }
    return value;
  });
  schemaCopies.set(schema as object, copy);
  return copy;
}

/**
 * Parsed JSON can hold NUL or a lone surrogate only where its text wrote them as \u
 * escapes: JSON refuses raw control characters, and UTF-8 cannot encode a surrogate.
 * A body whose text has no such escape is recorded here as storable, and its strings are
 * not walked one by one (a 50,000-item batch holds hundreds of thousands of them). Any
 * match, even a harmless "\\u0000", only means the walk is done.
 */
const RISKY_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;
const storableBodies = new WeakSet<object>();
/** Bodies whose text holds no `null` at all: nothing for `nullDropper` to look for. */
const nullFreeBodies = new WeakSet<object>();

export function markIfStorable(text: string, value: unknown) {
  if (typeof value !== 'object' || value === null) return;
  if (!RISKY_ESCAPE.test(text)) storableBodies.add(value);
  if (!text.includes('null')) nullFreeBodies.add(value);
}

/** Why a string cannot be stored, or null. (With the u flag, \p{Cs} matches only a surrogate that is not half of a pair.) */
function unstorableText(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character';
  if (/\p{Cs}/u.test(text)) return 'must be valid Unicode (a lone surrogate is not)';
  return null;
}

/**
 * The JSON Pointer of the first string (or key) that cannot be stored, and why; or null.
 * (Also the file imports' check of a row as read, src/modules/imports.)
 */
export function findUnstorable(value: unknown, pointer: string): { pointer: string; message: string } | null {
  if (typeof value === 'string') {
    const message = unstorableText(value);
    return message === null ? null : { pointer, message };
  }
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const message = unstorableText(key);
    if (message !== null) return { pointer: at, message };
    const found = findUnstorable(item, at);
    if (found !== null) return found;
  }
  return null;
}

const KEYWORD_CODES: Record<string, string> = {
  required: 'REQUIRED',
  type: 'INVALID_TYPE',
  minimum: 'OUT_OF_RANGE',
  maximum: 'OUT_OF_RANGE',
  exclusiveMinimum: 'OUT_OF_RANGE',
  exclusiveMaximum: 'OUT_OF_RANGE',
  minLength: 'INVALID_LENGTH',
  maxLength: 'INVALID_LENGTH',
  minItems: 'INVALID_LENGTH',
  maxItems: 'TOO_MANY_ITEMS',
  pattern: 'INVALID_FORMAT',
  format: 'INVALID_FORMAT',
  enum: 'INVALID_VALUE',
  const: 'INVALID_VALUE',
  'x-maxDecimals': 'INVALID_PRECISION',
  multipleOf: 'INVALID_PRECISION',
  nul: 'INVALID_VALUE',
  anyOf: 'INVALID_TYPE',
  oneOf: 'INVALID_TYPE',
};

function message(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return `${(error.params as { missingProperty: string }).missingProperty} is required`;
    case 'pattern':
      return (error.params as { pattern: string }).pattern === CODE_PATTERN
        ? 'must be 1 to 100 characters without control characters or leading or trailing spaces'
        : `must match ${(error.params as { pattern: string }).pattern}`;
    case 'format':
      return ['calendar-date', 'date'].includes((error.params as { format: string }).format)
        ? 'must be a real date as YYYY-MM-DD, in years 0001 to 9999'
        : (error.params as { format: string }).format === 'date-or-timestamp'
        ? 'must be a real date (YYYY-MM-DD) or a date and time, in years 0001 to 9999'
        : (error.params as { format: string }).format === 'date-time'
        ? 'must be a date and time as RFC 3339 (YYYY-MM-DDThh:mm:ssZ or with an offset), in years 0001 to 9999'
        : `must be a valid ${(error.params as { format: string }).format}`;
    case 'maxItems':
      return `must hold at most ${(error.params as { limit: number }).limit} items`;
    case 'minItems': {
      const limit = (error.params as { limit: number }).limit;
      return `must hold at least ${limit} item${limit === 1 ? '' : 's'}`;
    }
    default:
      return error.message ?? 'is invalid';
  }
}

/** The values a field may take, where its schema lists them (an enum, or a union of literals). */
function allowedValues(errors: ErrorObject[]): Map<string, unknown[]> {
  const allowed = new Map<string, unknown[]>();
  for (const error of errors) {
    const values =
      error.keyword === 'enum' ? (error.params as { allowedValues: unknown[] }).allowedValues
      : error.keyword === 'const' ? [(error.params as { allowedValue: unknown }).allowedValue]
      : [];
    if (values.length > 0) allowed.set(error.instancePath, [...(allowed.get(error.instancePath) ?? []), ...values]);
  }
  return allowed;
}

const list = (values: unknown[]) => [...new Set(values)].map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');

/** Ajv's errors as field errors with JSON Pointers; `prefix` is '' for the body, '/query' or '/params'. */
export function toFieldErrors(errors: ErrorObject[], prefix: string): FieldError[] {
  const seen = new Set<string>();
  const result: FieldError[] = [];
  const allowed = allowedValues(errors);
  for (const error of errors) {
    // A value outside a list of allowed values is one problem, which names them all.
    const values = allowed.get(error.instancePath);
    if (values && error.keyword !== 'required') {
      const pointer = prefix + error.instancePath;
      if (!seen.has(pointer)) result.push({ pointer, code: 'INVALID_VALUE', message: `must be one of: ${list(values)}` });
      seen.add(pointer);
      continue;
    }
    // A union (a nullable field) reports every branch's failure and then its own: keep
    // the failure of the branch the value was meant for, not "must be null" beside it.
    const sibling = errors.some((e) => e !== error && e.instancePath === error.instancePath && e.keyword !== 'anyOf');
    if (error.keyword === 'anyOf' && sibling) continue;
    if (error.keyword === 'type' && (error.params as { type: string }).type === 'null' && sibling) continue;
    let pointer = prefix + error.instancePath;
    if (error.keyword === 'required') {
      const missing = (error.params as { missingProperty: string }).missingProperty.replace(/~/g, '~0').replace(/\//g, '~1');
      pointer = `${pointer}/${missing}`;
    }
    const code = KEYWORD_CODES[error.keyword] ?? 'INVALID_VALUE';
    const key = `${pointer}|${code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ pointer, code, message: message(error) });
  }
  return result;
}
