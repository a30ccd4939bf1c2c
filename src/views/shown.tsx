// A name (or a quoted message) as a DOM child, its hidden characters shown as
// marked code points (views/hidden-chars.ts says which and why): each a small
// ⟨U+202E⟩ whose tooltip names the character. Text with none is returned as it
// is, so a table of ordinary names renders as before.
import { useT } from '../i18n/i18n';
import { codePoint, hiddenMark, hiddenName, hiddenParts } from './hidden-chars';

/** `text` with its hidden characters (but those of `keep`) as marks. */
export function Shown({ text, keep = '' }: { text: string; keep?: string }) {
  const parts = hiddenParts(text, keep);
  if (parts === null) return text;
  return <>{parts.map((p, i) => ('hidden' in p ? <HiddenMark key={i} ch={p.hidden} /> : p.text))}</>;
}

function HiddenMark({ ch }: { ch: string }) {
  const t = useT();
  const name = hiddenName(ch);
  return (
    <span
      className="hidden-char"
      data-testid="hidden-char"
      title={t('views.hiddenChar', { cp: codePoint(ch), name: name === undefined ? '' : ` (${name})` })}
    >
      {hiddenMark(ch)}
    </span>
  );
}
