// The Advanced tab: the whole scenario file as text. The text is written from
// the form only when this tab is shown (use-draft.ts), and the textarea holds
// it as its value, set once, not re-rendered by React on every keystroke (a
// controlled textarea also mirrors its value into the DOM as text).
import { useLayoutEffect, useRef } from 'react';
import { useT } from '../i18n/i18n';

export function JsonTab({ text, onText }: { text: string; onText(text: string): void }) {
  const t = useT();
  const box = useRef<HTMLTextAreaElement>(null);
  // The text the box holds; the echo of the user's own typing is not written back.
  const shown = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (box.current && shown.current !== text) {
      box.current.value = text;
      shown.current = text;
    }
  }, [text]);
  return (
    <div className="ed-json">
      <p className="ed-note">{t('editor.jsonHint')}</p>
      <textarea
        ref={box}
        aria-label={t('editor.tabJson')}
        data-testid="editor-json"
        spellCheck={false}
        onChange={(e) => {
          shown.current = e.target.value;
          onText(shown.current);
        }}
      />
    </div>
  );
}
