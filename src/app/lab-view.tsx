// The lab once a frame is in: the controls, a long job's progress, the help
// overlay, the lesson card, the exercise panel, the report's figures and exports, compare mode
// and the views (lab-panels.tsx).
import { useEffect } from 'react';
import { useT } from '../i18n/i18n';
import { useStore } from '../stores/store';
import { OnlySimulations } from '../trace/trace-banner';
import { Controls } from '../views/controls';
import { RunExports } from '../views/export/run-exports';
import { HelpOverlay } from '../views/help-overlay';
import { MetricsStrip } from '../views/metrics-strip';
import { ProgressBar } from '../views/progress-bar';
import { RunNotes } from '../views/run-notes';
import { useLab } from './context';
import { LabCompare } from './lab-compare';
import { LabExercise } from './lab-exercise';
import { LabLesson } from './lab-lesson';
import { LabPanels } from './lab-panels';

export function LabView() {
  const lab = useLab();
  const t = useT();
  const { data, playing, progress, achieved } = useStore(lab.engine.store, (s) => s);
  const { notice, help } = useStore(lab.ui, (s) => s);
  const speed = useStore(lab.view, (s) => s.speed);
  const { name, trace } = useStore(lab.scenario, (s) => s);
  const hasView = data !== null;
  useEffect(() => {
    // Marks the first render with controls and views for npm run bench:ui.
    if (hasView && performance.getEntriesByName('schedlab-interactive').length === 0)
      performance.mark('schedlab-interactive');
  }, [hasView]);
  if (!data) return null;
  const view = data.frame.view;
  const report = data.report;
  return (
    <>
      <fieldset className="recorded-controls" disabled={trace !== null} title={trace ? t('trace.recorded') : undefined}>
        <Controls
          nowNs={view.now_ns}
          durationNs={data.frame.durationNs}
          events={view.events}
          playing={playing}
          finished={view.finished}
          speed={speed}
          achieved={achieved}
          notice={notice}
          onCommand={(c) => lab.command(c, t)}
          onSpeed={lab.setSpeed}
        />
      </fieldset>
      {progress && <ProgressBar progress={progress} onCancel={() => lab.cancelLong(t)} />}
      {help && <HelpOverlay onClose={() => lab.ui.set({ help: false })} />}
      <LabLesson />
      <LabExercise />
      {report && <MetricsStrip report={report} />}
      {report && <RunNotes notes={report.notes ?? []} />}
      {trace ? <OnlySimulations what="exports" /> : <RunExports read={lab.engine.read} scenarioName={name} />}
      <LabCompare data={data} />
      <LabPanels data={data} />
    </>
  );
}
