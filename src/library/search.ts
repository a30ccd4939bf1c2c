// The library's search: every word of the query (case-insensitive) must occur
// in a preset's name, title, paragraph or tag labels in the current language.
// Pure, so the unit test can check it without a browser.
import type { Lang } from '../i18n/i18n';
import { PRESET_NOTES, noteText, type PresetNote, type Tag } from './preset-notes';

export interface LibraryEntry {
  name: string;
  note: PresetNote;
}

/** The entries for the engine's presets, in the engine's order; presets without a note are left out (the unit test forbids them). */
export function libraryEntries(presetNames: string[]): LibraryEntry[] {
  return presetNames.flatMap((name) => (PRESET_NOTES[name] ? [{ name, note: PRESET_NOTES[name] }] : []));
}

export function searchLibrary(
  entries: LibraryEntry[],
  query: string,
  lang: Lang,
  tagLabel: (t: Tag) => string,
): LibraryEntry[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0);
  if (words.length === 0) return entries;
  return entries.filter((e) => {
    const text = noteText(e.name, e.note, lang, tagLabel).toLowerCase();
    return words.every((w) => text.includes(w));
  });
}
