// The exercise panel, wired to the lab: shown when the loaded scenario carries
// an exercise, judging the latest report. The verdict is final only when that
// report is the run's last one (the report arrives with the slow parts of a
// frame, so a finished frame may still carry an earlier report).
import { useMemo } from 'react';
import { exerciseOf, judge } from '../classroom/exercise';
import { ExercisePanel } from '../classroom/exercise-panel';
import { builtInByName } from '../classroom/exercises';
import { useStore } from '../stores/store';
import { useLab } from './context';

export function LabExercise() {
  const lab = useLab();
  const { json, name, trace } = useStore(lab.scenario, (s) => s);
  const data = useStore(lab.engine.store, (s) => s.data);
  const exercise = useMemo(() => exerciseOf(json), [json]);
  const report = data?.report;
  if (!exercise || !report || !data || trace) return null;
  const f = data.frame;
  const verdict = judge(exercise, report, f.finished && report.events === f.events, f.durationNs);
  return (
    <ExercisePanel
      exercise={exercise}
      verdict={verdict}
      builtIn={builtInByName(name)?.id ?? null}
      durationNs={f.durationNs}
    />
  );
}
