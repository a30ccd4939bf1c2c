// A text that may be very long (a scenario's description, any string field of
// the editor): past a few thousand characters only its start is drawn, with
// "show all (N characters)", which shows the whole text in a scrolling box
// drawn a screenful at a time (long-text-view.tsx), never megabytes of DOM
// text. Given onChange, "edit" opens it in a textarea holding it as its value
// (a slower layout of the whole text, on request).
import { useLayoutEffect, useRef, useState } from 'react';
import { useT } from '../i18n/i18n';
import { LongTextView } from './long-text-view';

/** Texts longer than this are clipped. */
export const CLIP_CHARS = 4000;
/** How much of a clipped text is shown. */
const PREVIEW_CHARS = 1000;

/** The first `limit` characters (a surrogate pair is never split). */
export function clip(text: string, limit = CLIP_CHARS): string {
  if (text.length <= limit) return text;
  const last = text.charCodeAt(limit - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit);
}

interface Props {
  text: string;
  /** Texts longer than this are clipped... */
  limit?: number;
  /** ...to their first `preview` characters. */
  preview?: number;
  /** Test ids: the wrapper's; `${testId}-show-all`, `${testId}-edit` the controls'. */
  testId?: string;
  label?: string;
  /** Makes the text editable. */
  onChange?: (text: string) => void;
  /** data-field of the first control (the editor finds its fields by it). */
  field?: string;
  className?: string;
}

type Mode = 'clipped' | 'all' | 'edit';

export function ClippedText({
  text,
  limit = CLIP_CHARS,
  preview = PREVIEW_CHARS,
  testId,
  label,
  onChange,
  field,
  className,
}: Props) {
  const t = useT();
  const [mode, setMode] = useState<Mode>('clipped');
  if (text.length <= limit && mode === 'clipped') return <span data-testid={testId}>{text}</span>;
  const count = t('app.showAll', { n: text.length.toLocaleString('en') });
  const id = (s: string) => testId && `${testId}-${s}`;
  return (
    <span className={`clipped ${className ?? ''}`} data-testid={testId}>
      {mode === 'clipped' && <span className="clipped-text">{clip(text, Math.min(limit, preview))}…</span>}
      {mode === 'all' && <LongTextView text={text} testId={id('all')} />}
      {mode === 'edit' && <FullText text={text} label={label} onChange={onChange} />}{' '}
      <button
        type="button"
        className="show-all"
        data-field={field}
        aria-expanded={mode !== 'clipped'}
        aria-label={label ? `${label}: ${count}` : undefined}
        onClick={() => setMode(mode === 'clipped' ? 'all' : 'clipped')}
        data-testid={id('show-all')}
      >
        {mode === 'clipped' ? count : t('app.showLess')}
      </button>
      {onChange && mode !== 'edit' && (
        <button type="button" className="show-all" onClick={() => setMode('edit')} data-testid={id('edit')}>
          {t('app.editAll')}
        </button>
      )}
    </span>
  );
}

/** The whole text in a textarea, set as its value (no DOM text); edits go to onChange. */
function FullText({ text, label, onChange }: { text: string; label?: string; onChange?: (text: string) => void }) {
  const box = useRef<HTMLTextAreaElement>(null);
  // The text the box holds: an edit's own echo is not written back (a same-reference compare).
  const shown = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (box.current && shown.current !== text) {
      box.current.value = text;
      shown.current = text;
    }
  }, [text]);
  return (
    <textarea
      ref={box}
      className="full-text"
      aria-label={label}
      spellCheck={false}
      rows={10}
      onChange={(e) => {
        shown.current = e.target.value;
        onChange?.(shown.current);
      }}
    />
  );
}
