// Opening a real trace: the header's "Open trace…" picker, and files dropped
// anywhere on the page (a .json file is a scenario, anything else a trace).
// The file is handed over unread: its size is checked against the stated
// limit first, then the engine worker streams and parses it.
import { useEffect, useState } from 'react';
import { useT } from '../i18n/i18n';

export function TraceOpenButton(props: { onFile: (file: File) => void }) {
  const t = useT();
  return (
    <label className="file" title={t('trace.openTitle')}>
      {t('trace.open')}
      <input
        type="file"
        accept=".txt,.trace,.report,.perf,text/plain"
        data-testid="open-trace"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) props.onFile(f);
          e.target.value = '';
        }}
      />
    </label>
  );
}

/** Files dropped on the page: scenarios (.json) to `onScenario`, the rest to `onTrace`; a hint shows while dragging. */
export function FileDrop(props: { onTrace: (file: File) => void; onScenario: (file: File) => void }) {
  const t = useT();
  const [over, setOver] = useState(false);
  const { onTrace, onScenario } = props;
  useEffect(() => {
    const hasFile = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;
    const onOver = (e: DragEvent) => {
      if (!hasFile(e)) return;
      e.preventDefault();
      setOver(true);
    };
    const onLeave = (e: DragEvent) => {
      // Leaving the window (not moving between the page's elements).
      if (e.relatedTarget === null) setOver(false);
    };
    const onDrop = (e: DragEvent) => {
      if (!hasFile(e)) return;
      e.preventDefault();
      setOver(false);
      const f = e.dataTransfer?.files[0];
      if (!f) return;
      if (f.name.toLowerCase().endsWith('.json')) onScenario(f);
      else onTrace(f);
    };
    window.addEventListener('dragover', onOver);
    window.addEventListener('dragleave', onLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('dragleave', onLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, [onTrace, onScenario]);
  return over ? (
    <div className="trace-drop" data-testid="trace-drop">
      {t('trace.dropHere')}
    </div>
  ) : null;
}
