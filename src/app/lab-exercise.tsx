// The exercise panel, wired to the lab: shown when the loaded scenario carries
// an exercise, with the engine's verdict from the latest report (final once
// the run is over: the report says so itself).
import { useMemo } from 'react';
import { exerciseOf } from '../classroom/exercise';
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
  const verdict = report?.exercise;
  if (!exercise || !verdict || !data || trace) return null;
  const f = data.frame;
  return (
    <ExercisePanel
      exercise={exercise}
      verdict={verdict}
      builtIn={builtInByName(name)?.id ?? null}
      durationNs={f.durationNs}
    />
  );
}
