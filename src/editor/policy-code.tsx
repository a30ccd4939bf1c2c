// The code editor of a JavaScript policy: CodeMirror 6 with line numbers,
// JavaScript highlighting, undo, bracket matching, and what is wrong with the
// source shown inline (acorn's syntax error and the engine's messages, from
// policy-lint.ts). This module and CodeMirror are loaded on demand (a dynamic
// import in policy-source.tsx), so the page's first bundle does not carry
// them. CodeMirror owns its DOM; React gives it the text and the messages.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { Annotation, Compartment, EditorState } from '@codemirror/state';
import {
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { javascriptLanguage } from '@codemirror/lang-javascript';
import { lintGutter, lintKeymap, setDiagnostics } from '@codemirror/lint';
import { useLatest } from '../stores/use-latest';
import { sourceDiagnostics, syntaxProblem } from './policy-lint';
import { provideSyntaxCheck } from './policy-syntax';
import type { Problem } from './field-paths';

// The draft's check of the source's syntax arrives with this chunk (policy-syntax.ts).
provideSyntaxCheck(syntaxProblem);

/** Pause after the last keystroke before the source is parsed again. */
const LINT_DELAY_MS = 250;

/** Marks a change that came from the props (a starter picked): not echoed back as an edit. */
const fromProps = Annotation.define<boolean>();

export interface PolicyCodeProps {
  value: string;
  onChange(value: string): void;
  /** The engine's messages (those about `policy.source` are shown in the code). */
  problems: Problem[];
  /** The accessible name of the text area. */
  label: string;
  /** The form is frozen (the JSON text does not parse): look, do not type. */
  readOnly: boolean;
  /** Id of the messages under the field, when there are some. */
  describedBy?: string;
}

/** Sized to the dialog: grows with the text up to most of the screen, then scrolls. */
const theme = EditorView.theme({
  '&': { fontSize: '13px', backgroundColor: 'white', border: '1px solid #bcccdc', borderRadius: '5px' },
  '&.cm-focused': { outline: '2px solid #1d6ba5', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', lineHeight: '1.45' },
  '.cm-content, .cm-gutter': { minHeight: '16em' },
  '&.cm-editor': { maxHeight: '60vh' },
  '.cm-gutters': { backgroundColor: '#f0f4f8', borderRight: '1px solid #d9e2ec', color: '#52606d' },
});

function editableExt(readOnly: boolean) {
  return [EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)];
}

export default function PolicyCode({ value, onChange, problems, label, readOnly, describedBy }: PolicyCodeProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useLatest({ onChange, problems });
  const first = useRef({ value, readOnly, label, describedBy });
  /** The text last handed to onChange: its echo through the props is not a change from outside. */
  const emitted = useRef<string | null>(null);
  const editable = useRef(new Compartment());
  const attrs = useRef(new Compartment());

  // The view is made once; later props reach it as transactions (below).
  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const lint = () => {
      const v = view.current;
      if (v) v.dispatch(setDiagnostics(v.state, sourceDiagnostics(v.state.doc.toString(), latest.current.problems)));
    };
    const init = first.current;
    const v = new EditorView({
      parent,
      state: EditorState.create({
        doc: init.value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          drawSelection(),
          history(),
          indentOnInput(),
          bracketMatching(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          // The language alone: javascript() would add completion sources this editor does not offer.
          javascriptLanguage,
          lintGutter(),
          // Tab is left to the page (moving focus), as CodeMirror does by default: the dialog stays keyboard-usable.
          keymap.of([...defaultKeymap, ...historyKeymap, ...lintKeymap]),
          editable.current.of(editableExt(init.readOnly)),
          attrs.current.of(contentAttrs(init.label, init.describedBy)),
          theme,
          // Escape in the code is the code editor's (tooltips, selections): it must not reach the dialog, which
          // would close and drop what was typed. Tab leaves the code; Escape then closes the dialog as anywhere.
          EditorView.domEventHandlers({
            keydown: (e) => {
              if (e.key === 'Escape') e.stopPropagation();
              return false;
            },
          }),
          EditorView.updateListener.of((u) => {
            if (!u.docChanged) return;
            if (!u.transactions.some((tr) => tr.annotation(fromProps))) {
              emitted.current = u.state.doc.toString();
              latest.current.onChange(emitted.current);
            }
            clearTimeout(timer);
            timer = setTimeout(lint, LINT_DELAY_MS);
          }),
        ],
      }),
    });
    view.current = v;
    lint();
    return () => {
      clearTimeout(timer);
      v.destroy();
      view.current = null;
    };
  }, [latest]);

  // A new text from outside (a starter, the kind switch): replace the document. Not the echo of our own
  // onChange, which may lag the document by a keystroke; and in the layout phase, before the next keystroke.
  useLayoutEffect(() => {
    const v = view.current;
    if (!v || value === emitted.current || v.state.doc.toString() === value) return;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value }, annotations: fromProps.of(true) });
  }, [value]);

  // The engine's answer changed: show its messages now.
  useEffect(() => {
    const v = view.current;
    if (v) v.dispatch(setDiagnostics(v.state, sourceDiagnostics(v.state.doc.toString(), problems)));
  }, [problems]);

  useEffect(() => {
    view.current?.dispatch({ effects: editable.current.reconfigure(editableExt(readOnly)) });
  }, [readOnly]);
  useEffect(() => {
    view.current?.dispatch({ effects: attrs.current.reconfigure(contentAttrs(label, describedBy)) });
  }, [label, describedBy]);

  return <div className="ed-code" ref={host} data-testid="policy-code" />;
}

/** The text area's attributes: named by its field path (how the problem list finds it) and its label. */
function contentAttrs(label: string, describedBy: string | undefined) {
  return EditorView.contentAttributes.of({
    'data-field': 'policy.source',
    'aria-label': label,
    ...(describedBy ? { 'aria-describedby': describedBy, 'aria-invalid': 'true' } : {}),
  });
}
