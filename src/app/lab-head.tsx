// What sits above the lab's views: the editor and library dialogs, the trace
// being read or open, the scenario's name and description, a broken link's
// explanation and the engine's refusal.
import { builtInByName } from '../classroom/exercises';
import { useEffect, useState } from 'react';
import { loadEngine, presetJson } from '../engine/engine';
import { ScenarioEditor } from '../editor/scenario-editor';
import { useLang, useT } from '../i18n/i18n';
import { LibraryPanel } from '../library/library-panel';
import { PRESET_NOTES } from '../library/preset-notes';
import { LinkProblem } from '../share/link-problem';
import type { OpenProblem } from '../share/use-share';
import { useStore } from '../stores/store';
import { TraceBanner } from '../trace/trace-banner';
import { ClippedText } from '../views/clipped-text';
import { ProblemText } from '../views/problem-text';
import { useLab } from './context';
import { shownText } from '../views/hidden-chars';

/**
 * The page's own engine module, which only the editor needs (its choices and, if its worker cannot start, its
 * checks): loaded the first time `want` is true, so a visit that never edits never downloads it. Null while loading,
 * then true, or the error.
 */
function useEngineModule(want: boolean): true | string | null {
  const [state, setState] = useState<true | string | null>(null);
  useEffect(() => {
    if (want && state === null)
      loadEngine().then(
        () => setState(true),
        (e: unknown) => setState(String(e)),
      );
  }, [want, state]);
  return state;
}

export function LabHead(p: { openProblem: OpenProblem | null; dismissProblem: () => void }) {
  const lab = useLab();
  const t = useT();
  const [lang] = useLang();
  const { json, name, description, error, trace, reading } = useStore(lab.scenario, (s) => s);
  const { editing, library } = useStore(lab.ui, (s) => s);
  const engineModule = useEngineModule(editing);
  const durationNs = useStore(lab.engine.store, (s) => s.data?.frame.durationNs ?? 0);
  // The library's note describes a built-in preset as shipped (own property
  // only: a scenario may be named "constructor"), not an edited copy of it.
  const builtIn =
    Object.hasOwn(PRESET_NOTES, name) && lab.presets.some((x) => x.name === name) && presetJson(name) === json;
  // A built-in exercise's description is its task, which the catalog has in every language.
  const exercise = builtInByName(name);
  const task = exercise && description === exercise.exercise.text ? `ex.${exercise.id}.task` : null;
  return (
    <>
      {editing && engineModule === true && (
        <ScenarioEditor initialText={json} onApply={lab.load} onClose={() => lab.ui.set({ editing: false })} />
      )}
      {editing && engineModule !== true && (
        <p role="status" data-testid="editor-loading">
          {engineModule === null ? t('editor.loading') : t('app.engineFailed', { error: engineModule })}
        </p>
      )}
      {reading !== null && (
        <p className="only-sim" data-testid="trace-reading" role="status">
          {t('trace.reading', { file: shownText(reading) })}
        </p>
      )}
      {trace && <TraceBanner trace={trace} durationNs={durationNs} onClose={lab.reset} />}
      <p className="description" hidden={trace !== null}>
        {/* A built-in preset is described in the interface language by the library's note; other scenarios by their own text. */}
        {/* A scenario's own text may be megabytes long: past 1,500 characters (the presets' are shorter) its start is shown, the rest on demand. */}
        <b>{name}</b> —{' '}
        <ClippedText
          text={lang === 'en' ? description : builtIn ? PRESET_NOTES[name].text[lang] : task ? t(task) : description}
          limit={1500}
          preview={500}
          label={t('editor.description')}
          testId="description-text"
        />
      </p>
      {p.openProblem && <LinkProblem problem={p.openProblem} onDismiss={p.dismissProblem} />}
      {library && (
        <LibraryPanel
          presets={lab.presets}
          current={name}
          onOpen={(preset) => {
            void lab.load(presetJson(preset));
            lab.ui.set({ library: false });
          }}
          onClose={() => lab.ui.set({ library: false })}
        />
      )}
      {error !== null && (
        <div className="error" data-testid="error" role="alert">
          <b>{t('app.cannotRun')}</b>
          <ProblemText problem={error} />
        </div>
      )}
    </>
  );
}
