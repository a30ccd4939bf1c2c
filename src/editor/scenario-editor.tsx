// The scenario editor: a dialog over the lab with the form (run, machine,
// policy and bugs, cgroups, processes, timed events) and the whole file as
// JSON, kept in sync; the engine checks every edit and its messages sit next
// to the fields they name. Apply loads the scenario into the lab only when it
// is valid (the lab keeps running the old one otherwise); Import reads a file
// into the editor (refused by its size first when it is larger than a
// scenario may be), Export downloads the current scenario.
import { JsonFileButton } from '../views/json-file-button';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useT } from '../i18n/i18n';
import { EditContext, FormContext, NO_PROBLEMS, type EditCtx, type FormCtx } from './field';
import { fieldOf, formFields, problemsByField, segments } from './field-paths';
import { useDraft } from './use-draft';
import { JsonTab } from './json-tab';
import { ProblemList } from './problem-list';
import { MAX_SCENARIO_BYTES, mebibytes, readScenarioFile, ScenarioFileTooBig } from '../views/scenario-file';
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
  /** A file being imported: its notice says "reading" until the form shows it. */
  const [importing, setImporting] = useState<string | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const ids = useMemo(() => formFields(draft.model), [draft.model]);
  // Placed by the model the problems came with: between checks the grouping (and so every row's messages)
  // stays the same object, and an edit re-renders only its own row.
  const byField = useMemo(() => problemsByField(draft.problems, ids), [draft.problems]); // eslint-disable-line react-hooks/exhaustive-deps -- regrouped only when the problems change (above)
  const ctx: FormCtx = useMemo(
    () => ({
      model: draft.model,
      edit: draft.edit,
      change: draft.change,
      // One empty array, so a view that reacts to its messages changing sees no change on each edit.
      problemsAt: (id) => byField.get(id) ?? NO_PROBLEMS,
      byField,
      frozen: draft.frozen,
    }),
    [draft.model, draft.edit, draft.change, byField, draft.frozen],
  );
  const reveal = useRef<EditCtx['reveal']['current']>(new Map());
  const editCtx: EditCtx = useMemo(
    () => ({ edit: draft.edit, change: draft.change, reveal }),
    [draft.edit, draft.change],
  );
  const ok = draft.checked && draft.problems.length === 0 && !draft.reading;
  // An imported file has been read: say so (state set while rendering, React's pattern for "when this changes").
  if (importing !== null && !draft.reading) {
    setNotice({ text: t('editor.imported', { file: importing }), bad: false });
    setImporting(null);
  }
  const showTab = (next: 'form' | 'json') => {
    if (next === 'form') draft.flush();
    setTab(next);
  };

  useEffect(() => dialog.current?.focus(), []);
  // The dialog is modal: keys typed in it never reach the lab's shortcuts
  // (bound on window), and Escape closes it.
  const onKey = (e: KeyboardEvent) => {
    e.nativeEvent.stopPropagation();
    if (e.key === 'Escape') onClose();
  };

  const apply = async () => {
    if (!ok) return;
    if (await onApply(draft.text())) onClose();
    else setNotice({ text: t('editor.applyFailed'), bad: true });
  };
  const importFile = (file: File) => {
    setNotice({ text: t('editor.reading', { file: file.name }), bad: false });
    readScenarioFile(file).then(
      (text) => {
        draft.setText(text);
        setImporting(file.name);
      },
      (e: unknown) =>
        setNotice({
          text:
            e instanceof ScenarioFileTooBig
              ? t('app.fileTooBig', { file: file.name, size: mebibytes(e.bytes), max: mebibytes(MAX_SCENARIO_BYTES) })
              : t('editor.importFailed', { file: file.name, reason: String(e) }),
          bad: true,
        }),
    );
  };
  // The text Apply would apply (the JSON tab's own formatting included).
  const exportNow = () => download(draft.text(), `${fileSlug(draft.model.name)}.json`, 'application/json');
  const focusField = (path: string) => {
    const id = fieldOf(path, ids);
    showTab('form');
    // A row of a long table may not be drawn: scroll its table to it first.
    const [table, row] = segments(id);
    if (typeof row === 'number') reveal.current.get(String(table))?.(row);
    const find = (tries: number) =>
      requestAnimationFrame(() => {
        const el = dialog.current?.querySelector<HTMLElement>(
          `[data-field="${CSS.escape(id)}"], [data-testid="msg-${CSS.escape(id)}"]`,
        );
        if (!el && tries > 0) return find(tries - 1);
        el?.scrollIntoView({ block: 'center' });
        el?.focus();
      });
    find(5);
  };

  return (
    <div className="ed-backdrop" role="presentation">
      <div
        className="ed-dialog"
        role="dialog"
        aria-modal="true"
        aria-label={t('editor.title')}
        ref={dialog}
        tabIndex={-1}
        data-testid="editor"
        onKeyDown={onKey}
      >
        <header className="ed-head">
          <h2>{t('editor.title')}</h2>
          <div className="ed-tabs" role="tablist">
            <button
              type="button"
              role="tab"
              aria-selected={tab === 'form'}
              onClick={() => showTab('form')}
              data-testid="tab-form"
            >
              {t('editor.tabForm')}
            </button>
            <button
              type="button"
              role="tab"
              aria-selected={tab === 'json'}
              onClick={() => showTab('json')}
              data-testid="tab-json"
            >
              {t('editor.tabJson')}
            </button>
          </div>
          <JsonFileButton
            className="file ed-button"
            label={t('editor.import')}
            testId="editor-import"
            onFile={(f) => importFile(f)}
          />
          <button
            type="button"
            className="ed-button"
            onClick={exportNow}
            disabled={draft.frozen || draft.reading}
            data-testid="editor-export"
          >
            {t('editor.export')}
          </button>
          <span className={ok ? 'ed-status ok' : 'ed-status'} data-testid="editor-status">
            {!draft.checked || draft.reading
              ? t('editor.checking')
              : ok
                ? t('editor.valid')
                : t('editor.problems', { n: draft.problems.length })}
          </span>
          <button
            type="button"
            className="ed-button primary"
            onClick={() => void apply()}
            disabled={!ok}
            data-testid="editor-apply"
          >
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
        <ProblemList problems={draft.problems} onPick={focusField} />
        <div className="ed-body">
          {tab === 'json' ? (
            <JsonTab text={draft.text()} onText={draft.setText} />
          ) : draft.reading ? (
            <p className="ed-note" data-testid="editor-reading">
              {t('editor.readingForm')}
            </p>
          ) : (
            <FormContext.Provider value={ctx}>
              <EditContext.Provider value={editCtx}>
                {draft.frozen && <p className="ed-notice bad">{t('editor.syntaxFrozen')}</p>}
                <fieldset disabled={draft.frozen} className="ed-form">
                  <RunSection />
                  <MachineSection />
                  <PolicySection />
                  <CgroupTable />
                  <ProcessTable />
                  <EventTable />
                </fieldset>
              </EditContext.Provider>
            </FormContext.Provider>
          )}
        </div>
      </div>
    </div>
  );
}
