// Names from a trace, an rt-app file, a policy's error or a file picker are
// untrusted text. Some characters change how the text around them shows
// without showing themselves: control characters (Unicode category Cc),
// format characters (Cf: the bidirectional embeddings, overrides, isolates
// and marks, zero-width spaces and joiners, the soft hyphen, the byte-order
// mark, tags…) and the line and paragraph separators (Zl, Zp). Left as they
// are, a name could reverse the text after it or pass for another name. The
// page shows each as its code point instead (⟨U+202E⟩): as a marked element
// where the name is a DOM child (`<Shown>`, views/shown.tsx), as plain text
// where it is an attribute, an SVG title or a sentence (`shownText`).
//
// The engine refuses the same characters in a scenario's names (and a share
// link is a scenario) and escapes them in the CLI's text: wasm-core/src/api/text.rs
// (`is_hidden`); tests/unit/hidden-chars.test.ts checks that the two agree.
// No React here: the engine worker and pure modules use it too.

const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const HIDDEN_ALL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** Whether `ch` (one code point) is a hidden character. */
export function isHidden(ch: string): boolean {
  return HIDDEN.test(ch);
}

/** A code point as the page and the engine's messages name it: `U+202E`, `U+E0041`. */
export function codePoint(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A piece of a text: a run of ordinary characters, or one hidden character. */
export type TextPart = { text: string } | { hidden: string };

/**
 * `s` cut into runs of ordinary text and hidden characters, one part each; the characters of `keep` stay in
 * the runs (a quoted message keeps its line breaks and tabs). Null when `s` holds no hidden character to show,
 * so the common case allocates nothing.
 */
export function hiddenParts(s: string, keep = ''): TextPart[] | null {
  if (!HIDDEN.test(s)) return null;
  const parts: TextPart[] = [];
  let from = 0;
  for (const m of s.matchAll(HIDDEN_ALL)) {
    if (keep.includes(m[0])) continue;
    if (m.index > from) parts.push({ text: s.slice(from, m.index) });
    parts.push({ hidden: m[0] });
    from = m.index + m[0].length;
  }
  if (parts.length === 0) return null;
  if (from < s.length) parts.push({ text: s.slice(from) });
  return parts;
}

/** The mark a hidden character is shown as: `⟨U+202E⟩`. */
export function hiddenMark(ch: string): string {
  return `⟨${codePoint(ch)}⟩`;
}

/** `s` with each hidden character (but those of `keep`) written as its mark, for plain-text places. */
export function shownText(s: string, keep = ''): string {
  const parts = hiddenParts(s, keep);
  if (parts === null) return s;
  return parts.map((p) => ('hidden' in p ? hiddenMark(p.hidden) : p.text)).join('');
}

/** `shownText` clipped to `max` characters with an ellipsis (labels in a tight drawing). */
export function shownClip(s: string, max: number): string {
  const v = shownText(s);
  return v.length > max ? `${v.slice(0, max - 1)}…` : v;
}

/** The Unicode names of the hidden characters a name is most likely to hold, for the mark's tooltip. */
const NAMES: Record<number, string> = {
  0x00ad: 'soft hyphen',
  0x061c: 'arabic letter mark',
  0x180e: 'mongolian vowel separator',
  0x200b: 'zero width space',
  0x200c: 'zero width non-joiner',
  0x200d: 'zero width joiner',
  0x200e: 'left-to-right mark',
  0x200f: 'right-to-left mark',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
  0xfeff: 'zero width no-break space (byte-order mark)',
};

/** The character's Unicode name, if it is one of the common ones. */
export function hiddenName(ch: string): string | undefined {
  return NAMES[ch.codePointAt(0) ?? -1];
}
