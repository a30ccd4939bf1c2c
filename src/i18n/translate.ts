// The message lookup without React: the lab's components reach it through
// useT (i18n.tsx); the engine worker uses it directly for the words of lesson
// answers, which it computes beside the simulation.
import { CATALOGS } from './catalogs';

export const LANGS = ['en', 'zh'] as const;
export type Lang = (typeof LANGS)[number];
export type Messages = Record<string, string>;
/** One area's messages: every key present in both languages (checked by tests/unit/i18n.test.ts). */
export type Catalog = Record<Lang, Messages>;
export type Vars = Record<string, string | number>;
export type Translate = (key: string, vars?: Vars) => string;

function merged(lang: Lang): Messages {
  return Object.assign({}, ...CATALOGS.map((c) => c[lang])) as Messages;
}
const TABLES: Record<Lang, Messages> = { en: merged('en'), zh: merged('zh') };

/**
 * A message cut at its placeholders: literal text at even indices, placeholder names at odd ones. Kept per
 * message text, since the page fills the same few messages thousands of times a second (a label per CPU).
 */
const PIECES = new Map<string, string[]>();
function pieces(text: string): string[] {
  let p = PIECES.get(text);
  if (p === undefined) {
    p = text.split(/\{(\w+)\}/);
    PIECES.set(text, p);
  }
  return p;
}

/**
 * Looks a key up; falls back to English, then to the key itself, so a gap shows rather than breaks. A
 * `{name}` with no value in `vars` stays as written.
 */
export function translate(lang: Lang, key: string, vars?: Vars): string {
  const text = TABLES[lang][key] ?? TABLES.en[key] ?? key;
  if (!vars) return text;
  const p = pieces(text);
  let out = p[0];
  for (let i = 1; i < p.length; i += 2) {
    const name = p[i];
    out += (name in vars ? String(vars[name]) : `{${name}}`) + p[i + 1];
  }
  return out;
}

export function isLang(s: unknown): s is Lang {
  return typeof s === 'string' && (LANGS as readonly string[]).includes(s);
}
