// The scenario editor: a dialog over the lab with the form (run, machine,
// policy and bugs, cgroups, processes, timed events) and the whole file as
// JSON, kept in sync; the engine checks every edit and its messages sit next
// to the fields they name. Apply loads the scenario into the lab only when it
// is valid (the lab keeps running the old one otherwise); Import reads a file
// into the editor, Export downloads the current scenario.
import { JsonFileButton } from '../views/json-file-button';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useT } from '../i18n/i18n';
import { FormContext, type FormCtx } from './field';
import { fieldIds, fieldOf, problemsByField } from './field-paths';
import { useDraft } from './use-draft';
import { download, fileSlug } from '../views/export/compose';
import { RunSection } from './run-section';
import { MachineSection } from './machine-section';
import { PolicySection } from './policy-section';
import { ProcessTable } from './process-table';
import { CgroupTable, EventTable } from './cgroups-events';
import './editor.css';

interface Props {
  /** The scenario the lab runs now. */
  initialText: string;
  /** Loads a scenario into the lab; false if the lab refused it. */
  onApply(text: string): Promise<boolean>;
  onClose(): void;
}

export function ScenarioEditor({ initialText, onApply, onClose }: Props) {
  const t = useT();
  const draft = useDraft(initialText);
  const [tab, setTab] = useState<'form' | 'json'>('form');
  const [notice, setNotice] = useState<{ text: string; bad: boolean } | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const ids = useMemo(() => fieldIds(draft.model), [draft.model]);
  const byField = useMemo(() => problemsByField(draft.problems, ids), [draft.problems, ids]);
  const ctx: FormCtx = useMemo(
    () => ({ model: draft.model, edit: draft.edit, change: draft.change, problemsAt: (id) => byField.get(id) ?? [] }),
    [draft.model, draft.edit, draft.change, byField],
  );
  const ok = draft.checked && draft.problems.length === 0;

  useEffect(() => dialog.current?.focus(), []);
  // The dialog is modal: keys typed in it never reach the lab's shortcuts
  // (bound on window), and Escape closes it.
  const onKey = (e: KeyboardEvent) => {
    e.nativeEvent.stopPropagation();
    if (e.key === 'Escape') onClose();
  };

  const apply = async () => {
    if (!ok) return;
    if (await onApply(draft.text)) onClose();
    else setNotice({ text: t('editor.applyFailed'), bad: true });
  };
  const importFile = (file: File) =>
    file.text().then(
      (text) => {
        draft.setText(text);
        setNotice({ text: t('editor.imported', { file: file.name }), bad: false });
      },
      (e: unknown) => setNotice({ text: t('editor.importFailed', { file: file.name, reason: String(e) }), bad: true }),
    );
  // The text Apply would apply (the JSON tab's own formatting included).
  const exportNow = () => download(draft.text, `${fileSlug(draft.model.name)}.json`, 'application/json');
  const focusField = (path: string) => {
    const id = fieldOf(path, ids);
    setTab('form');
    requestAnimationFrame(() => {
      const el = dialog.current?.querySelector<HTMLElement>(`[data-field="${CSS.escape(id)}"], [data-testid="msg-${CSS.escape(id)}"]`);
      el?.scrollIntoView({ block: 'center' });
      el?.focus();
    });
  };

  return (
    <div className="ed-backdrop" role="presentation">
      <div className="ed-dialog" role="dialog" aria-modal="true" aria-label={t('editor.title')} ref={dialog} tabIndex={-1} data-testid="editor" onKeyDown={onKey}>
        <header className="ed-head">
          <h2>{t('editor.title')}</h2>
          <div className="ed-tabs" role="tablist">
            <button type="button" role="tab" aria-selected={tab === 'form'} onClick={() => setTab('form')} data-testid="tab-form">
              {t('editor.tabForm')}
            </button>
            <button type="button" role="tab" aria-selected={tab === 'json'} onClick={() => setTab('json')} data-testid="tab-json">
              {t('editor.tabJson')}
            </button>
          </div>
          <JsonFileButton className="file ed-button" label={t('editor.import')} testId="editor-import" onFile={(f) => void importFile(f)} />
          <button type="button" className="ed-button" onClick={exportNow} disabled={draft.frozen} data-testid="editor-export">
            {t('editor.export')}
          </button>
          <span className={ok ? 'ed-status ok' : 'ed-status'} data-testid="editor-status">
            {!draft.checked ? t('editor.checking') : ok ? t('editor.valid') : t('editor.problems', { n: draft.problems.length })}
          </span>
          <button type="button" className="ed-button primary" onClick={apply} disabled={!ok} data-testid="editor-apply">
            {t('editor.apply')}
          </button>
          <button type="button" className="ed-button" onClick={onClose} data-testid="editor-close">
            {t('editor.close')}
          </button>
        </header>
        {notice && (
          <p className={notice.bad ? 'ed-notice bad' : 'ed-notice'} role="status">
            {notice.text}
          </p>
        )}
        {draft.problems.length > 0 && (
          <ul className="ed-problems" data-testid="editor-problems">
            {draft.problems.map((p, i) => (
              <li key={i}>
                <button type="button" onClick={() => focusField(p.path)}>
                  <code>{p.path}</code>
                </button>{' '}
                {p.message}
              </li>
            ))}
          </ul>
        )}
        <div className="ed-body">
          {tab === 'form' ? (
            <FormContext.Provider value={ctx}>
              {draft.frozen && <p className="ed-notice bad">{t('editor.syntaxFrozen')}</p>}
              <fieldset disabled={draft.frozen} className="ed-form">
                <RunSection />
                <MachineSection />
                <PolicySection />
                <CgroupTable />
                <ProcessTable />
                <EventTable />
              </fieldset>
            </FormContext.Provider>
          ) : (
            <div className="ed-json">
              <p className="ed-note">{t('editor.jsonHint')}</p>
              <textarea aria-label={t('editor.tabJson')} data-testid="editor-json" value={draft.text} onChange={(e) => draft.setText(e.target.value)} spellCheck={false} />
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
