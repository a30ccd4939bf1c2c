// Exports of the whole run: the trace as Chrome / Perfetto JSON (the engine
// replays the run from its start to the cursor) and the metrics as CSV.
import { useState } from 'react';
import type { ChromeTraceOut } from '../../engine/engine';
import type { Read } from '../../engine/protocol';
import { useT } from '../../i18n/i18n';
import { download, fileSlug } from './compose';

export function RunExports(props: { read: <T>(r: Read) => Promise<T>; scenarioName: string }) {
  const t = useT();
  const [note, setNote] = useState<string | null>(null);
  const base = `schedlab-${fileSlug(props.scenarioName)}`;
  // Both are made in the engine worker (a long trace takes a while); the page stays live.
  const trace = async () => {
    let out: ChromeTraceOut;
    try {
      out = await props.read<ChromeTraceOut>({ kind: 'chrome-trace' });
    } catch (e) {
      return setNote(t('exports.failed', { error: e instanceof Error ? e.message : String(e) }));
    }
    const file = `${base}.trace.json`;
    download(out.json, file, 'application/json');
    const events = out.events;
    setNote(
      out.truncatedAtNs !== null
        ? t('exports.truncated', { file, events, ms: (out.truncatedAtNs / 1e6).toFixed(3) })
        : t('exports.written', { file, events }),
    );
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
