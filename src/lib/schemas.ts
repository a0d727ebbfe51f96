// Shapes every module shares (docs/conventions.md): codes, names, URLs, money, problems,
// list pages. Module schemas are built from these, never re-declared.
import { Type, type TSchema } from 'typebox';

/**
 * Control characters (Unicode's Cc: U+0000 to U+001F and U+007F to U+009F), as a range
 * every regular expression engine reads the same way.
 */
const CONTROL = '\\x00-\\x1f\\x7f-\\x9f';
/**
 * The white space JavaScript's `\s` matches beyond the controls: space, no-break space,
 * the Unicode space separators, the line and paragraph separators and the byte-order mark.
 * Written as the characters themselves (not `\u` escapes, which Go's RE2 does not read).
 */
const SPACE = ' \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
/**
 * 1 to 100 characters, no control characters, no leading or trailing space; case-sensitive.
 * Written in the interoperable subset JSON Schema recommends (no lookaround, no `\p{…}`),
 * so Go, Python, Postman and Ajv all read the contract alike: a first character that is
 * neither a control nor a space, then optionally any non-controls ending in such a character.
 * Like the rule it replaces it matches the empty string: `minLength` alone reports that.
 */
export const CODE_PATTERN = `^(?:[^${CONTROL}${SPACE}](?:[^${CONTROL}]*[^${CONTROL}${SPACE}])?)?$`;
/** A file's name: no control characters and no path separators. */
export const FILE_NAME_PATTERN = `^[^${CONTROL}/\\\\]+$`;
export const Code = (options: { description?: string } = {}) => Type.String({ minLength: 1, maxLength: 100, pattern: CODE_PATTERN, ...options });
export const Name = (options: { description?: string } = {}) => Type.String({ minLength: 1, maxLength: 255, ...options });
export const Description = () => Type.String({ maxLength: 5000 });
export const Url = () => Type.String({ maxLength: 2048, format: 'uri', pattern: '^https?://' });
/**
 * Money and prices: a JSON number, at most 4 decimals, stored as an exact decimal. At
 * most 11 integer digits, so every accepted value (15 significant digits) survives the
 * JSON number it arrives as exactly.
 */
export const MAX_MONEY = 99_999_999_999.9999;
export const Money = (options: { minimum?: number; description?: string } = {}) =>
  Type.Number({ minimum: 0, maximum: MAX_MONEY, 'x-maxDecimals': 4, ...options } as never);
export const Units = () => Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'package size' });
export const Timestamp = () => Type.String({ format: 'date-time' });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ProblemSchema = Type.Object(
  {
    status: Type.Integer(),
    code: Type.String({ description: 'stable machine-readable code' }),
    title: Type.String(),
    detail: Type.String(),
    errors: Type.Array(Type.Object({ pointer: Type.String(), code: Type.String(), message: Type.String() })),
    requestId: Type.String(),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details' },
);

export const ProblemRef = Type.Unsafe<unknown>({ $ref: 'Problem#' });

/** Error answers a route may give, all problem details. */
export const problems = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [status, { description: 'problem details', content: { 'application/problem+json': { schema: ProblemRef } } }]),
  );

export const CodeParams = Type.Object({ code: Code({ description: 'internalCode' }) });
/** The `:id` of a path naming a row by the platform's id (an order, a ticket, a member, a webhook delivery). */
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const PageQuery = {
  take: Type.Integer({ minimum: 1, maximum: 50, default: 50 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
};

/** The `search` of a list: part of an entity's code or name, case-insensitive. */
export const SearchQuery = {
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'part of the code or the name, case-insensitive' })),
};

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({
    data: Type.Array(item),
    page: Type.Integer(),
    take: Type.Integer(),
    total: Type.Integer(),
    totalPages: Type.Integer(),
  });


export const BatchAccepted = Type.Object({ batchId: Type.Array(Type.String({ format: 'uuid' })) });
