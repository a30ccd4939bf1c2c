// The scenario being edited: the form model and the JSON text, kept in sync
// both ways, and its problems. Whichever side was edited last is the truth;
// the other is derived only when needed: a form edit leaves the text to be
// written when it is read (the check, the JSON tab, Apply, Export), and a
// long text is read into the form in the editor's worker. The engine's check
// runs in that worker shortly after the last edit; the text is what gets
// applied and exported.
import { useCallback, useEffect, useRef, useState } from 'react';
import { fromScenario, type FormModel } from './scenario-form';
import { programProblems } from './form-to-scenario';
import { onSyntaxCheck, policySyntaxProblems } from './policy-syntax';
import { scenarioWriter } from './scenario-writer';
import { setField, type Problem } from './field-paths';
import { parseObject, type CheckResult } from './check-text';
import { Checker } from './checker';
import { useLatest } from '../stores/use-latest';

/** Pause after the last edit before the check. */
const CHECK_DELAY_MS = 200;
/** Texts up to this many characters are read into the form on the page at once; longer ones in the worker. */
export const READ_ON_PAGE_MAX = 256 * 1024;

interface State {
  model: FormModel;
  /** The current text; null: the model's, written when read. */
  text: string | null;
  /** The model is not yet the text's (a long text is being read in the worker). */
  reading: boolean;
  /** The text does not parse as an object: the form shows the last version that did. */
  frozen: boolean;
  /** Counts edits: a check's answer belongs to one. */
  rev: number;
}

export interface Draft {
  model: FormModel;
  frozen: boolean;
  /** A long text is being read into the form (the form waits for it). */
  reading: boolean;
  problems: Problem[];
  /** The problems belong to the current draft (its check has answered). */
  checked: boolean;
  /** The current scenario text (written from the form the first time it is asked for). */
  text(): string;
  edit(id: string, value: string): void;
  change(fn: (m: FormModel) => FormModel): void;
  setText(text: string): void;
  /** Checks now instead of after the pause (the form is about to be shown). */
  flush(): void;
}

/** The state of a new text: read at once when short; otherwise the model stays until the worker has read it. */
function withText(s: State | null, text: string): State {
  const rev = (s?.rev ?? -1) + 1;
  const old = s?.model ?? fromScenario({});
  if (text.length > READ_ON_PAGE_MAX) return { model: old, text, reading: true, frozen: s?.frozen ?? false, rev };
  const parsed = parseObject(text);
  return typeof parsed === 'string'
    ? { model: old, text, reading: false, frozen: true, rev }
    : { model: fromScenario(parsed), text, reading: false, frozen: false, rev };
}

/** The answer of a check taken into the state it was asked for (a newer edit wins). */
function withAnswer(s: State, rev: number, r: CheckResult): State {
  if (s.rev !== rev || !s.reading) return s;
  return r.model
    ? { ...s, model: r.model, reading: false, frozen: false }
    : { ...s, reading: false, frozen: r.syntax !== null };
}

export function useDraft(initialText: string): Draft {
  const [state, setState] = useState<State>(() => withText(null, initialText));
  const [result, setResult] = useState<{ rev: number; problems: Problem[] }>({ rev: -1, problems: [] });
  const [parser, setParser] = useState(0);
  const written = useRef(new WeakMap<FormModel, string>());
  const [write] = useState(scenarioWriter);
  const checker = useRef<Checker | null>(null);
  const flushRef = useRef<(() => void) | null>(null);

  useEffect(() => {
    const c = new Checker();
    checker.current = c;
    return () => {
      c.dispose();
      if (checker.current === c) checker.current = null;
    };
  }, []);

  const textOf = useCallback(
    (s: State): string => {
      if (s.text !== null) return s.text;
      let t = written.current.get(s.model);
      if (t === undefined) written.current.set(s.model, (t = write(s.model)));
      return t;
    },
    [write],
  );

  // The scenario as opened is checked at once; edits after a short pause. A
  // check answers for the edit it was asked for (`rev`); the model a long text
  // yields arrives with it and does not start another.
  const current = useLatest(state);
  useEffect(() => {
    const rev = state.rev;
    let done = false;
    const run = () => {
      const s = current.current;
      if (done || s.rev !== rev) return;
      done = true;
      flushRef.current = null;
      const c = checker.current;
      if (!c) return;
      // Program text that is not JSON, a policy whose JavaScript does not parse: the page's own messages, in
      // place of the engine's at the same path.
      const local = [
        ...(s.text === null ? programProblems(s.model) : []),
        ...policySyntaxProblems(s.text === null ? s.model.policy : policyOfText(s.text)),
      ];
      void c.check(textOf(s), s.reading).then((r) => {
        if (!r) return;
        setState((cur) => withAnswer(cur, rev, r));
        const seen = new Set(local.map((p) => p.path));
        setResult({ rev, problems: [...local, ...r.problems.filter((p) => !seen.has(p.path))] });
      });
    };
    flushRef.current = run;
    const timer = setTimeout(run, rev === 0 ? 0 : CHECK_DELAY_MS);
    return () => {
      clearTimeout(timer);
      done = true;
    };
  }, [state.rev, textOf, current, parser]);

  // The policy's parser arrives with the code editor: check again with it.
  useEffect(() => onSyntaxCheck(() => setParser((n) => n + 1)), []);

  const change = useCallback((fn: (m: FormModel) => FormModel) => {
    setState((s) => ({ model: fn(s.model), text: null, reading: false, frozen: false, rev: s.rev + 1 }));
  }, []);
  const edit = useCallback((id: string, value: string) => change((m) => setField(m, id, value)), [change]);
  const setText = useCallback((text: string) => setState((s) => withText(s, text)), []);
  const flush = useCallback(() => flushRef.current?.(), []);
  const text = useCallback(() => textOf(state), [state, textOf]);

  return {
    model: state.model,
    frozen: state.frozen,
    reading: state.reading,
    problems: result.problems,
    checked: result.rev === state.rev,
    text,
    edit,
    change,
    setText,
    flush,
  };
}

/** The policy of a scenario text (the JSON tab's), if it parses. */
function policyOfText(text: string): { kind?: unknown; source?: unknown } | undefined {
  // A long scenario without a JavaScript policy is not parsed again here.
  if (!text.includes('"ext"')) return undefined;
  try {
    const v = JSON.parse(text) as { policy?: { kind?: unknown; source?: unknown } } | null;
    return v?.policy;
  } catch {
    return undefined;
  }
}
