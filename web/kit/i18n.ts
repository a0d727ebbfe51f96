// The words plumbing both apps share: the languages they speak and how one is chosen, and
// a translator over an app's own typed catalogs (the catalogs stay in each app, so neither
// bundle carries the other's words). `{name}` in a message is a value put in by `t`.
//
// Plural forms come from the language (Intl.PluralRules): a message that counts is written
// as keys `base.one`, `base.other` (and `base.few`, `base.many`... where a language needs
// them) with a `{count}` placeholder, and is asked for by its base with `count`:
// `t('catalog.units', { count: 1 })` answers `base.<category of 1>`, or `base.other` when
// the catalog has no key for that category (Spanish calls a million `many`).

export const LANGUAGE_NAMES = { es: 'Español', 'pt-BR': 'Português (Brasil)', en: 'English' } as const;
export type Language = keyof typeof LANGUAGE_NAMES;

export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && value in LANGUAGE_NAMES;

/** The first of the browser's languages the apps speak; Spanish otherwise. */
export function pickLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('es')) return 'es';
    if (lower.startsWith('pt')) return 'pt-BR';
    if (lower.startsWith('en')) return 'en';
  }
  return 'es';
}

export type Params = Record<string, string | number>;
/** The base of a counted message: `catalog.units` for the keys `catalog.units.one` and `catalog.units.other`. */
export type PluralBase<K extends string> = K extends `${infer B}.other` ? B : never;
/** A key of the catalog, or the base of a counted message (then `params.count` chooses the form). */
export type Translate<K extends string> = (key: K | PluralBase<K>, params?: Params) => string;

const rulesOf = new Map<Language, Intl.PluralRules>();
/** The language's plural category of a count: `one`, `other`, `many`... */
export function pluralCategory(language: Language, count: number): Intl.LDMLPluralRule {
  let rules = rulesOf.get(language);
  if (!rules) rulesOf.set(language, (rules = new Intl.PluralRules(language)));
  return rules.select(count);
}

/** The key of a counted message's form for `count`: `base.<category>` when the catalog has it, else `base.other`. */
export function pluralKey<K extends string>(catalog: Readonly<Record<K, string>>, language: Language, base: PluralBase<K>, count: number): K {
  const exact = `${base}.${pluralCategory(language, count)}`;
  return (exact in catalog ? exact : `${base}.other`) as K;
}

const interpolate = (message: string, params: Params | undefined) =>
  message.replace(/\{(\w+)\}/g, (whole, name: string) => (params && name in params ? String(params[name]) : whole));

/**
 * One app's words: its catalogs by language (each a Record of the same keys, so a key
 * missing in a language does not compile), the translator of a language, and the message
 * of a problem code where the catalog has `error.<CODE>`.
 */
export function defineWords<K extends string>(catalogs: Readonly<Record<Language, Readonly<Record<K, string>>>>) {
  const translators = new Map<Language, Translate<K>>();
  return {
    catalogs,
    translator(language: Language): Translate<K> {
      let t = translators.get(language);
      if (t) return t;
      const catalog = catalogs[language];
      t = (key, params) => {
        const found = key in catalog ? key : typeof params?.count === 'number' ? pluralKey(catalog, language, key as PluralBase<K>, params.count) : (`${key}.other` as K);
        return interpolate(catalog[found as K] ?? key, params);
      };
      translators.set(language, t);
      return t;
    },
    /** The translated message of a problem code, when the catalog has one. */
    problemMessage(t: Translate<K>, code: string | undefined): string | undefined {
      const key = `error.${code}` as K;
      return code && key in catalogs.es ? t(key) : undefined;
    },
  };
}
