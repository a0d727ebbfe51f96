// Request validation: TypeBox schemas compiled by Ajv. Bodies are validated strictly
// (no type coercion: "12" is not a number) and lose unknown fields (the contract says
// they are ignored, never stored); query strings and path params are coerced, since
// every value there arrives as text.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from '../lib/errors.ts';
import { decimalPlaces } from '../lib/numbers.ts';
import { CODE_PATTERN } from './common.schemas.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function createAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: 'all',
    useDefaults: true,
    coerceTypes,
    strict: false,
    allowUnionTypes: true,
  });
  addFormats(ajv);
  ajv.addKeyword({
    keyword: 'maxDecimals',
    type: 'number',
    schemaType: 'number',
    errors: true,
    validate: function maxDecimals(max: number, value: number) {
      if (decimalPlaces(value) <= max) return true;
      (maxDecimals as { errors?: unknown[] }).errors = [{ keyword: 'maxDecimals', message: `must have at most ${max} decimals`, params: { max } }];
      return false;
    },
  });
  // A calendar date that exists (2026-02-30 does not), as YYYY-MM-DD.
  ajv.addFormat('calendar-date', {
    type: 'string',
    validate: (value: string) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
    },
  });
  return ajv;
}

const bodyAjv = createAjv(false);
const textAjv = createAjv('array');

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
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  const validate = ajv.compile(withSafeIntegers(schema)) as ValidateFunction;
  const guarded = (data: unknown): boolean => {
    const unstorable = storableBodies.has(data as object) ? null : findUnstorable(data, '');
    if (unstorable !== null) {
      guarded.errors = [{ keyword: 'nul', instancePath: unstorable.pointer, schemaPath: '#', params: {}, message: unstorable.message }];
      return false;
    }
    const valid = validate(data) as boolean;
    guarded.errors = validate.errors;
    return valid;
  };
  guarded.errors = null as ErrorObject[] | null | undefined;
  return guarded;
};

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

export function markIfStorable(text: string, value: unknown) {
  if (typeof value === 'object' && value !== null && !RISKY_ESCAPE.test(text)) storableBodies.add(value);
}

/** Why a string cannot be stored, or null. (With the u flag, \p{Cs} matches only a surrogate that is not half of a pair.) */
function unstorableText(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character';
  if (/\p{Cs}/u.test(text)) return 'must be valid Unicode (a lone surrogate is not)';
  return null;
}

/** The JSON Pointer of the first string (or key) that cannot be stored, and why; or null. */
function findUnstorable(value: unknown, pointer: string): { pointer: string; message: string } | null {
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
  maxDecimals: 'INVALID_PRECISION',
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
      return (error.params as { format: string }).format === 'calendar-date'
        ? 'must be a real date as YYYY-MM-DD'
        : `must be a valid ${(error.params as { format: string }).format}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/** Ajv's errors as field errors with JSON Pointers; `prefix` is '' for the body, '/query' or '/params'. */
export function toFieldErrors(errors: ErrorObject[], prefix: string): FieldError[] {
  const seen = new Set<string>();
  const result: FieldError[] = [];
  for (const error of errors) {
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
