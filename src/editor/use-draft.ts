// The scenario being edited: the form model and the JSON text, kept in sync
// both ways, and its problems, re-checked by the engine shortly after each
// edit. The text is what gets applied and exported; the form is rebuilt from
// it whenever it parses.
import { useCallback, useEffect, useState } from 'react';
import { fromScenario, programProblems, scenarioText, type FormModel, type JsonObject } from './scenario-form';
import { setField, type Problem } from './field-paths';
import { engineProblems } from './engine-checks';

const CHECK_DELAY_MS = 150;

/** The text parsed as a scenario object, or why it is not one. */
function parseObject(text: string): JsonObject | string {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : 'the scenario must be a JSON object';
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Engine problems, with the form's own (program text that is not JSON) in place of the engine's at the same path. */
export function allProblems(text: string, model: FormModel): Problem[] {
  const local = programProblems(model);
  const seen = new Set(local.map((p) => p.path));
  return [...local, ...engineProblems(text).filter((p) => !seen.has(p.path))];
}

export interface Draft {
  model: FormModel;
  text: string;
  /** The text does not parse as an object: the form shows the last version that did. */
  frozen: boolean;
  problems: Problem[];
  /** The problems belong to the current text (the debounced check has run). */
  checked: boolean;
  edit(id: string, value: string): void;
  change(fn: (m: FormModel) => FormModel): void;
  setText(text: string): void;
}

export function useDraft(initialText: string): Draft {
  const [state, setState] = useState(() => {
    const parsed = parseObject(initialText);
    return { text: initialText, model: fromScenario(typeof parsed === 'string' ? {} : parsed), frozen: typeof parsed === 'string' };
  });
  // The scenario as opened is checked at once; edits after a short pause.
  const [checkedText, setCheckedText] = useState<string | null>(initialText);
  const [problems, setProblems] = useState<Problem[]>(() => allProblems(state.text, state.model));

  useEffect(() => {
    if (state.text === checkedText) return;
    const timer = setTimeout(() => {
      setProblems(allProblems(state.text, state.model));
      setCheckedText(state.text);
    }, CHECK_DELAY_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state]);

  const change = useCallback((fn: (m: FormModel) => FormModel) => {
    setState((s) => {
      const model = fn(s.model);
      return { model, text: scenarioText(model), frozen: false };
    });
  }, []);
  const edit = useCallback((id: string, value: string) => change((m) => setField(m, id, value)), [change]);
  const setText = useCallback((text: string) => {
    setState((s) => {
      const parsed = parseObject(text);
      return typeof parsed === 'string' ? { ...s, text, frozen: true } : { text, model: fromScenario(parsed), frozen: false };
    });
  }, []);

  return { ...state, problems, checked: checkedText === state.text, edit, change, setText };
}
