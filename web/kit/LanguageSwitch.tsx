// The language picker of both apps: each passes its own word for the label, the session's
// language and how it changes it (the shop also tells the service).
import { LANGUAGE_NAMES, type Language } from './i18n.ts';

export function LanguageSwitch({ label, language, choose }: { label: string; language: Language; choose: (language: Language) => void }) {
  return (
    <label className="lang">
      <span className="visually-hidden">{label}</span>
      <select value={language} onChange={(e) => choose(e.target.value as Language)}>
        {(Object.keys(LANGUAGE_NAMES) as Language[]).map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
