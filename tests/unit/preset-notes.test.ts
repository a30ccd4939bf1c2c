// The library's notes cover exactly the engine's presets, in both languages,
// with known tags that have labels; the search matches in the current language.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync } from '../../wasm-core/pkg/schedlab_core.js';
import { PRESETS } from '../../src/engine/presets';
import { PRESET_NOTES, TAGS, type Tag } from '../../src/library/preset-notes';
import { libraryEntries, searchLibrary } from '../../src/library/search';
import { translate, LANGS } from '../../src/i18n/i18n';

const root = join(import.meta.dirname, '..', '..');
let names: string[] = [];
beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')) });
  names = PRESETS.map((p) => p.name);
});

describe('preset notes', () => {
  it('every preset has a note', () => {
    for (const n of names) expect(PRESET_NOTES[n], `no note for preset ${n}`).toBeDefined();
  });
  it('every note names a preset that exists', () => {
    for (const n of Object.keys(PRESET_NOTES)) expect(names, `note for unknown preset ${n}`).toContain(n);
  });
  it('titles and paragraphs exist in both languages; tags are known and labelled, one facet at least policy', () => {
    for (const [n, note] of Object.entries(PRESET_NOTES)) {
      for (const l of LANGS) {
        expect(note.title[l].trim().length, `${n} ${l}`).toBeGreaterThan(3);
        expect(note.text[l].trim().length, `${n} ${l}`).toBeGreaterThan(80);
      }
      expect(note.tags.length, n).toBeGreaterThan(1);
      expect(
        note.tags.some((t) => TAGS[t] === 'policy'),
        n,
      ).toBe(true);
      for (const t of note.tags) {
        expect(Object.keys(TAGS)).toContain(t);
        for (const l of LANGS) expect(translate(l, `lib.tag.${t}`), `${t} ${l}`).not.toBe(`lib.tag.${t}`);
      }
      // Every bug preset says which bug it is.
      if (/^(group-imbalance|group-construction|overload-on-wakeup|missing-domains)/.test(n))
        expect(
          note.tags.some((t) => TAGS[t] === 'bug'),
          n,
        ).toBe(true);
    }
  });
  it('searches titles, text and tag labels in the current language, every word', () => {
    const entries = libraryEntries(names);
    expect(entries.map((e) => e.name)).toEqual(names);
    const label = (l: 'en' | 'zh') => (t: Tag) => translate(l, `lib.tag.${t}`);
    const find = (q: string, l: 'en' | 'zh' = 'en') => searchLibrary(entries, q, l, label(l)).map((e) => e.name);
    expect(find('')).toEqual(names);
    expect(find('HOTPLUG')).toEqual(['missing-domains-hotplug', 'missing-domains-hotplug-fixed']);
    expect(find('fixed kernel group imbalance')).toEqual(['group-imbalance-make-fixed', 'group-imbalance-lu-fixed']);
    expect(find('热插拔', 'zh')).toEqual(['missing-domains-hotplug', 'missing-domains-hotplug-fixed']);
    expect(find('热插拔', 'en')).toEqual([]);
    expect(find('EEVDF')).toContain('eevdf-vs-cfs');
    expect(find('zzz-nothing')).toEqual([]);
  });
});
