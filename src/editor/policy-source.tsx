// Kind 'ext' in the policy section: the scheduler's JavaScript (`source`),
// the starters it can begin from, and the watchdog (`watchdog_ms`). The code
// editor (CodeMirror, policy-code.tsx) is fetched when this first shows; until
// it is in, and for good if it cannot be fetched (offline, never loaded
// before), a plain textarea holds the same text, so typing never waits.
import { useEffect, useState, type ComponentType } from 'react';
import { useT } from '../i18n/i18n';
import { Field, Messages, useForm } from './field';
import type { PolicyCodeProps } from './policy-code';
import { StarterPicker } from './starter-picker';
import './policy-source.css';

type CodeEditor = { Code: ComponentType<PolicyCodeProps> } | 'loading' | 'failed';

function useCodeEditor(): CodeEditor {
  const [code, setCode] = useState<CodeEditor>('loading');
  useEffect(() => {
    let live = true;
    import('./policy-code').then(
      (m) => live && setCode({ Code: m.default }),
      () => live && setCode('failed'),
    );
    return () => {
      live = false;
    };
  }, []);
  return code;
}

export function PolicySource() {
  const t = useT();
  const { model, edit, problemsAt, frozen } = useForm();
  const source = model.policy.source;
  const problems = problemsAt('policy.source');
  const code = useCodeEditor();
  const label = t('editor.source');
  const describedBy = problems.length > 0 ? 'msg-policy.source' : undefined;
  const set = (v: string) => edit('policy.source', v);
  return (
    <div className="ed-policy-source" data-testid="policy-source">
      <div className="ed-label">
        {label} <code>source</code>
      </div>
      <p className="ed-hint">{t('editor.sourceHint')}</p>
      <StarterPicker source={source} onPick={set} />
      {typeof code === 'object' ? (
        <code.Code
          value={source}
          onChange={set}
          problems={problems}
          label={label}
          readOnly={frozen}
          describedBy={describedBy}
        />
      ) : (
        <textarea
          className={problems.length > 0 ? 'ed-code-plain bad' : 'ed-code-plain'}
          data-field="policy.source"
          data-testid="policy-code-plain"
          aria-label={label}
          aria-invalid={problems.length > 0 || undefined}
          aria-describedby={describedBy}
          aria-busy={code === 'loading' || undefined}
          value={source}
          onChange={(e) => set(e.target.value)}
          rows={16}
          spellCheck={false}
        />
      )}
      {code === 'failed' && <p className="ed-note">{t('editor.codePlain')}</p>}
      <Messages id="policy.source" />
      <div className="ed-row">
        <Field id="policy.watchdog_ms" label={t('editor.watchdog')} unit="ms" placeholder="30000" width={80} />
      </div>
    </div>
  );
}
