// Exports of the whole run: the trace as Chrome / Perfetto JSON (the engine
// replays the run from its start to the cursor) and the metrics as CSV.
import { useState } from 'react';
import type { Read } from '../../engine/protocol';
import { useT } from '../../i18n/i18n';
import { download, fileSlug } from './compose';

/** The note the engine writes in otherData when the cap cut the trace (it is at the end of the text). */
export function truncationNote(traceJson: string): string | null {
  const m = /"truncated":"([^"]*)"/.exec(traceJson.slice(-600));
  return m ? m[1] : null;
}

export function RunExports(props: { read: <T>(r: Read) => Promise<T>; scenarioName: string }) {
  const t = useT();
  const [note, setNote] = useState<string | null>(null);
  const base = `schedlab-${fileSlug(props.scenarioName)}`;
  // Both are made in the engine worker (a long trace takes a while); the page stays live.
  const trace = async () => {
    let json: string;
    try {
      json = await props.read<string>({ kind: 'chrome-trace' });
    } catch (e) {
      return setNote(t('exports.failed', { error: e instanceof Error ? e.message : String(e) }));
    }
    const file = `${base}.trace.json`;
    download(json, file, 'application/json');
    const cut = truncationNote(json);
    const events = (json.match(/\n\{/g) ?? []).length;
    setNote(cut ? t('exports.truncated', { note: cut }) : t('exports.written', { file, events }));
  };
  const csv = async () => {
    try {
      download(await props.read<string>({ kind: 'metrics-csv' }), `${base}.metrics.csv`, 'text/csv');
      setNote(null);
    } catch (e) {
      setNote(t('exports.failed', { error: e instanceof Error ? e.message : String(e) }));
    }
  };
  return (
    <div className="run-exports" data-testid="run-exports">
      <span className="label">{t('exports.run')}</span>
      <button data-testid="export-trace" title={t('exports.traceTip')} onClick={() => void trace()}>
        {t('exports.trace')}
      </button>
      <button data-testid="export-csv" title={t('exports.csvTip')} onClick={() => void csv()}>
        {t('exports.csv')}
      </button>
      {note !== null && (
        <span className="meta" data-testid="export-note">
          {note}
        </span>
      )}
    </div>
  );
}
