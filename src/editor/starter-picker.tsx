// The starters a JavaScript policy can begin from, each with its title and
// one line on what it does; picking one replaces the source. Replacing code
// someone typed asks first, in place (no browser dialog: the editor is a
// dialog already, and the question stays next to the buttons it is about).
import { useEffect, useRef, useState } from 'react';
import { useT } from '../i18n/i18n';
import type { Starter } from './policy-starters';

type Starters = typeof import('./policy-starters');

/** The starters' module, loaded on demand with the code editor (not part of the first page). */
export function loadStarters(): Promise<Starters> {
  return import('./policy-starters');
}

/** The starters' module once it has loaded (null before, and if it cannot). */
export function useStarters(): Starters | null {
  const [mod, setMod] = useState<Starters | null>(null);
  useEffect(() => {
    let live = true;
    loadStarters().then(
      (m) => live && setMod(m),
      () => undefined, // offline and never fetched: the source can still be typed
    );
    return () => {
      live = false;
    };
  }, []);
  return mod;
}

export function StarterPicker({ source, onPick }: { source: string; onPick(source: string): void }) {
  const t = useT();
  const mod = useStarters();
  const [asking, setAsking] = useState<Starter | null>(null);
  const replace = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) replace.current?.focus();
  }, [asking]);
  if (!mod) return null;
  const current = mod.starterOf(source);
  const pick = (s: Starter) => {
    if (mod.isEdited(source)) setAsking(s);
    else onPick(s.source);
  };
  return (
    <div className="ed-starters" data-testid="starters">
      <span className="ed-label" id="ed-starters-label">
        {t('editor.starters')}
      </span>
      <div className="ed-starter-list" role="group" aria-labelledby="ed-starters-label">
        {mod.STARTERS.map((s) => (
          <button
            type="button"
            key={s.id}
            className="ed-starter"
            aria-pressed={current?.id === s.id}
            onClick={() => pick(s)}
            data-testid={`starter-${s.id}`}
          >
            <strong>{t(`editor.starter.${s.id}`)}</strong>
            <span>{t(`editor.starterAbout.${s.id}`)}</span>
          </button>
        ))}
      </div>
      {asking && (
        <div className="ed-confirm" role="alert" data-testid="starter-confirm">
          <span>{t('editor.starterReplace', { name: t(`editor.starter.${asking.id}`) })}</span>
          <button
            type="button"
            className="ed-button primary"
            ref={replace}
            onClick={() => {
              onPick(asking.source);
              setAsking(null);
            }}
            data-testid="starter-replace"
          >
            {t('editor.starterReplaceYes')}
          </button>
          <button type="button" className="ed-button" onClick={() => setAsking(null)} data-testid="starter-keep">
            {t('editor.starterReplaceNo')}
          </button>
        </div>
      )}
    </div>
  );
}
