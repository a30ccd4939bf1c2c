// Both languages are complete, catalogs never collide, and interpolation works.
import { describe, expect, it } from 'vitest';
import { CATALOGS } from '../../src/i18n/catalogs';
import { translate } from '../../src/i18n/i18n';

describe('i18n catalogs', () => {
  it('every key exists in English and Chinese, with the same placeholders', () => {
    for (const c of CATALOGS) {
      expect(Object.keys(c.zh).sort()).toEqual(Object.keys(c.en).sort());
      for (const k of Object.keys(c.en)) {
        const vars = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
        expect(vars(c.zh[k]), k).toEqual(vars(c.en[k]));
        expect(c.zh[k].trim().length, k).toBeGreaterThan(0);
      }
    }
  });
  it('no key is defined by two catalogs', () => {
    const seen = new Set<string>();
    for (const c of CATALOGS)
      for (const k of Object.keys(c.en)) {
        expect(seen.has(k), k).toBe(false);
        seen.add(k);
      }
  });
  it('translates, interpolates and falls back to the key', () => {
    expect(translate('zh', 'app.language')).toBe('语言');
    expect(translate('en', 'no.such.key')).toBe('no.such.key');
  });
  it('fills every message as a placeholder-by-placeholder replace would, a missing value left as written', () => {
    const byReplace = (text: string, vars: Record<string, string | number>) =>
      text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
    for (const lang of ['en', 'zh'] as const)
      for (const c of CATALOGS)
        for (const [k, text] of Object.entries(c[lang])) {
          const names = [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
          // Every placeholder but the first gets a value (one with braces of its own), twice over.
          const vars = Object.fromEntries(names.slice(1).map((n, i) => [n, i % 2 ? i : `{${n}}!`]));
          const once = translate(lang, k, vars);
          expect(once, k).toBe(byReplace(text, vars));
          expect(translate(lang, k, vars), k).toBe(once);
        }
    expect(translate('en', 'rq.pickOption', { cpu: 3 })).toBe('3 ({n} runnable)');
  });
});
