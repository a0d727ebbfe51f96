// A list page's URL search, declared as data: each key's kind, read by one validator that
// main.tsx hands to the route. A value the kind does not accept is left out (the page
// shows the list unfiltered), never an error: URLs are typed and shared by hand.

/** Reads one URL value: its accepted form, else undefined. */
export type SearchValue<T> = (v: unknown) => T | undefined;

/** A non-empty string. */
export const textValue: SearchValue<string> = (v) => (typeof v === 'string' && v !== '' ? v : undefined);
/** A calendar day (YYYY-MM-DD). */
export const dayValue: SearchValue<string> = (v) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined);
/** Yes or no (true or false, as the URL writes them). */
export const flagValue: SearchValue<boolean> = (v) => (v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined);
/** Yes alone (a checkbox filter: unchecked is no filter at all). */
export const onlyTrue: SearchValue<true> = (v) => (v === true || v === 'true' ? true : undefined);
/** A page number: 1 and up. */
export const pageValue = (v: unknown) => Math.max(1, Math.floor(Number(v)) || 1);

/** One of `values` (a contract's union, see valuesOf in lib/api.ts). */
export const enumOf =
  <T extends string>(values: readonly T[]): SearchValue<T> =>
  (v) =>
    (values as readonly unknown[]).includes(v) ? (v as T) : undefined;

/** A string `pattern` accepts whole. */
export const matching =
  (pattern: RegExp): SearchValue<string> =>
  (v) =>
    typeof v === 'string' && pattern.test(v) ? v : undefined;

type Kind = 'text' | 'day' | 'flag' | SearchValue<unknown>;
type ValueOf<K> = K extends 'text' | 'day' ? string : K extends 'flag' ? boolean : K extends SearchValue<infer T> ? T : never;
export type ListSearch<S extends Record<string, Kind>> = { [K in keyof S]?: ValueOf<S[K]> } & { page?: number };

const KINDS = { text: textValue, day: dayValue, flag: flagValue } as const;

/**
 * The validator of a list route's search: the declared keys, each read by its kind, and
 * the page (left out on the first page, so a list's plain URL stays plain).
 */
export function listSearch<S extends Record<string, Kind>>(spec: S): (s: Record<string, unknown>) => ListSearch<S> {
  const readers = Object.entries(spec).map(([key, kind]) => [key, typeof kind === 'string' ? KINDS[kind] : kind] as const);
  return (s) => {
    const out: Record<string, unknown> = {};
    for (const [key, read] of readers) out[key] = read(s[key]);
    out.page = s.page === undefined ? undefined : pageValue(s.page);
    return out as ListSearch<S>;
  };
}
