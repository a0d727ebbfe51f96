// How a setting is declared, read and documented. src/config.ts declares every setting
// once with these builders: its variable, how it is read (type, bounds, default), what it
// means, and, by the key it sits under, the Config field it feeds. The Config type, the
// parser and the README's settings table all come from those declarations.

export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

export type NodeEnv = 'development' | 'production' | 'test';

export const NODE_ENVS: readonly NodeEnv[] = ['production', 'development', 'test'];

/**
 * NODE_ENV: one of NODE_ENVS exactly; unset is development (the quick start, `npm start`).
 * Anything else is refused: `Production` or `prod` used to be read as development, so a
 * deployment that meant production got the demo supplier and codes in the log.
 */
export function nodeEnvOf(raw: string | undefined): NodeEnv {
  if (raw === undefined) return 'development';
  if (!(NODE_ENVS as readonly string[]).includes(raw)) throw new ConfigError(`NODE_ENV must be one of ${NODE_ENVS.join(', ')}, got "${raw}"`);
  return raw as NodeEnv;
}

/** What a setting's default or rule may depend on besides its own variable. */
export interface Context {
  readonly nodeEnv: NodeEnv;
  readonly production: boolean;
  /** Whether standard output is a terminal (the log format's default). */
  readonly stdoutIsTTY: boolean;
  /** Another setting's value (read again: reading is pure). */
  read<T>(setting: Setting<T>): T;
}

/** One environment variable, read into one value. */
export interface Setting<T> {
  readonly kind: 'setting';
  readonly name: string;
  /** The README's "meaning" column, in Markdown. */
  readonly doc: string;
  /** The README's "default" column, in Markdown. */
  readonly shown: string;
  /** Never repeated in an error message (tokens, passwords, connection strings). */
  readonly secret: boolean;
  /** `raw` is undefined when the variable is unset or empty. */
  readonly parse: (raw: string | undefined, ctx: Context) => T;
}

/** A Config field no variable names by itself, computed from the others. */
export interface Derived<T> {
  readonly kind: 'derived';
  readonly derive: (env: Env, ctx: Context) => T;
}

/**
 * Several variables that make one value together (for example a bucket and its
 * credentials): each is read by its own declaration, then `build` applies the rules that
 * tie them and makes the value. `given` names the group's variables that are set, in
 * declaration order.
 */
export interface Group<F extends Fields, R> {
  readonly kind: 'group';
  readonly fields: F;
  readonly build: (values: Values<F>, given: readonly string[], ctx: Context) => R;
}

// `any`: a group's own types are checked where it is declared, by group().
export type Node = Setting<unknown> | Derived<unknown> | Group<any, unknown> | Fields;
export interface Fields {
  readonly [field: string]: Node;
}

/** The value a declaration (or a tree of them) reads into: Config is `Values<typeof settings>`. */
export type Values<T> =
  T extends Setting<infer V> ? V : T extends Derived<infer V> ? V : T extends Group<any, infer R> ? Readonly<R> : { readonly [K in keyof T]: Values<T[K]> };

interface Common {
  readonly name: string;
  readonly doc: string;
  /** The README's default column when the declared default does not say it well. */
  readonly shown?: string;
  readonly secret?: boolean;
}

/** A default, or a rule giving it (then `shown` says it in words). */
type Default<T> = { readonly default: T; readonly shown?: string } | { readonly default: (ctx: Context) => T; readonly shown: string };

function present(raw: string | undefined): string | undefined {
  return raw === undefined || raw === '' ? undefined : raw;
}

function defaultOf<T>(d: T | ((ctx: Context) => T), ctx: Context): T {
  return typeof d === 'function' ? (d as (ctx: Context) => T)(ctx) : d;
}

function code(value: unknown): string {
  return value === undefined ? 'unset' : `\`${String(value)}\``;
}

function shownOf(o: { shown?: string; default?: unknown }): string {
  if (o.shown !== undefined) return o.shown;
  if (typeof o.default === 'function') throw new Error('a default given by a rule needs `shown`');
  return code(o.default);
}

function refuse(o: Common, raw: string, must: string): never {
  throw new ConfigError(o.secret ? `${o.name} must ${must}` : `${o.name} must ${must}, got "${raw}"`);
}

/** A declaration with its own reading rule; `shown` is required, the rule's default has no other voice. */
export function setting<T>(o: Common & { readonly shown: string; readonly parse: (raw: string | undefined, ctx: Context) => T }): Setting<T> {
  return { kind: 'setting', name: o.name, doc: o.doc, shown: o.shown, secret: o.secret ?? false, parse: o.parse };
}

export function derived<T>(derive: (env: Env, ctx: Context) => T): Derived<T> {
  return { kind: 'derived', derive };
}

export function group<F extends Fields, R>(fields: F, build: (values: Values<F>, given: readonly string[], ctx: Context) => R): Group<F, R> {
  return { kind: 'group', fields, build };
}

/** A whole number in [min, max]; the one message every whole-number setting gives. */
export function wholeNumber(name: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

interface IntOptions extends Common {
  readonly min?: number;
  readonly max?: number;
  /** How the README shows the default (for example in MiB), from the value itself. */
  readonly shownAs?: (value: number) => string;
}

export function int(o: IntOptions & { readonly default: number }): Setting<number>;
export function int(o: IntOptions & { readonly default?: undefined; readonly shown: string }): Setting<number | undefined>;
export function int(o: IntOptions & { readonly default?: number }): Setting<number | undefined> {
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = o;
  const shown = o.shown ?? (o.shownAs && o.default !== undefined ? o.shownAs(o.default) : code(o.default));
  return setting({ ...o, shown, parse: (raw) => (raw === undefined ? o.default : wholeNumber(o.name, raw, min, max)) });
}

/**
 * true, 1, yes, on; false, 0, no, off (any case). `offInProduction`: a development
 * convenience, always false in production, where asking for it by name refuses the start
 * rather than being quietly ignored.
 */
export function bool(o: Common & Default<boolean> & { readonly offInProduction?: boolean }): Setting<boolean> {
  return setting({
    ...o,
    shown: shownOf(o),
    parse: (raw, ctx) => {
      const value = raw === undefined ? defaultOf(o.default, ctx) : boolOf(o.name, raw);
      if (o.offInProduction && ctx.production) {
        if (raw !== undefined && value) throw new ConfigError(`${o.name}=${raw} is a development convenience, refused when NODE_ENV=production`);
        return false;
      }
      return value;
    },
  });
}

function boolOf(name: string, raw: string): boolean {
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

interface TextOptions extends Common {
  /** A value for which this is false is refused: "NAME must <must>, got ...". */
  readonly check?: (value: string) => boolean;
  readonly must?: string;
  readonly minLength?: number;
  /** Applied to the value once it is accepted (the default too). */
  readonly map?: (value: string) => string;
}

export function text(o: TextOptions & Default<string>): Setting<string>;
export function text(o: TextOptions & { readonly default?: undefined }): Setting<string | undefined>;
export function text(o: TextOptions & { readonly default?: string | ((ctx: Context) => string); readonly shown?: string }): Setting<string | undefined> {
  return setting({
    ...o,
    shown: shownOf(o),
    parse: (raw, ctx) => {
      const value = raw ?? (o.default === undefined ? undefined : defaultOf(o.default, ctx));
      if (value === undefined) return undefined;
      if (o.minLength !== undefined && value.length < o.minLength) throw new ConfigError(`${o.name} must be at least ${o.minLength} characters long`);
      if (o.check && !o.check(value)) refuse(o, value, o.must ?? 'be valid');
      return o.map ? o.map(value) : value;
    },
  });
}

type UrlOptions = Common & { readonly schemes?: readonly ('http' | 'https' | 'smtp' | 'smtps')[] };

/** A URL with a host, http:// or https:// unless `schemes` says otherwise; trailing slashes are dropped. */
export function url(o: UrlOptions & { readonly default: string }): Setting<string>;
export function url(o: UrlOptions & { readonly default?: undefined }): Setting<string | undefined>;
export function url(o: UrlOptions & { readonly default?: string }): Setting<string | undefined> {
  const schemes = o.schemes ?? ['http', 'https'];
  const pattern = new RegExp(`^(${schemes.join('|')})://[^/]`);
  const must = `be an ${schemes.map((s) => `${s}://`).join(' or ')} URL`;
  const options: TextOptions = { ...o, check: (v) => pattern.test(v), must, map: (v) => v.replace(/\/+$/, '') };
  return o.default === undefined ? text(options) : text({ ...options, default: o.default });
}

export function oneOf<const V extends string>(o: Common & { readonly values: readonly V[] } & Default<V>): Setting<V> {
  return setting({
    ...o,
    shown: shownOf(o),
    parse: (raw, ctx) => {
      const value = raw ?? defaultOf(o.default, ctx);
      if (!(o.values as readonly string[]).includes(value)) refuse(o, value, `be one of ${o.values.join(', ')}`);
      return value as V;
    },
  });
}

function isLeaf(node: Node): node is Exclude<Node, Fields> {
  return typeof (node as { kind?: unknown }).kind === 'string';
}

/** Reads a tree of declarations from `env` into a frozen value of the same shape. */
export function readSettings<F extends Fields>(tree: F, env: Env, stdoutIsTTY: boolean): Values<F> {
  const nodeEnv = nodeEnvOf(present(env.NODE_ENV));
  const ctx: Context = {
    nodeEnv,
    production: nodeEnv === 'production',
    stdoutIsTTY,
    read: (s) => s.parse(present(env[s.name]), ctx),
  };
  const read = (node: Node): unknown => {
    if (!isLeaf(node)) {
      return Object.freeze(Object.fromEntries(Object.entries(node).map(([key, child]) => [key, read(child)])));
    }
    if (node.kind === 'setting') return ctx.read(node);
    if (node.kind === 'derived') return node.derive(env, ctx);
    const values = read(node.fields);
    const given = settingsOf(node.fields).filter((s) => present(env[s.name]) !== undefined).map((s) => s.name);
    const built = node.build(values, given, ctx);
    return typeof built === 'object' && built !== null ? Object.freeze(built) : built;
  };
  return read(tree) as Values<F>;
}

/** Every variable a tree declares, in declaration order. */
export function settingsOf(tree: Fields): Setting<unknown>[] {
  return Object.values(tree).flatMap((node) => {
    if (!isLeaf(node)) return settingsOf(node);
    if (node.kind === 'setting') return [node];
    if (node.kind === 'group') return settingsOf(node.fields);
    return [];
  });
}

/** The README's settings table, one row a variable, in declaration order. */
export function renderSettingsTable(tree: Fields): string {
  const rows = settingsOf(tree).map((s) => {
    for (const cell of [s.doc, s.shown]) if (/(^|[^\\])\|/.test(cell) || cell.includes('\n')) throw new Error(`${s.name}: a table cell holds "|" or a line break`);
    return `| \`${s.name}\` | ${s.doc} | ${s.shown} |`;
  });
  return ['| variable | meaning | default |', '|---|---|---|', ...rows].join('\n') + '\n';
}
