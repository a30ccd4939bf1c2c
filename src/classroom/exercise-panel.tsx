// The exercise panel: what the loaded scenario asks (its goal in words, and
// the task: a built-in exercise's in the interface language, else the
// scenario's own text), the figure the run has reached so far, and at the
// run's end PASS or FAIL with the figures that decided it.
import { useT } from '../i18n/i18n';
import { GOALS, figureText, type Exercise, type Verdict } from './exercise';

export interface ExercisePanelProps {
  exercise: Exercise;
  verdict: Verdict;
  /** A built-in exercise's id: its title and task come from the catalog. */
  builtIn: string | null;
  durationNs: number;
}

export function ExercisePanel({ exercise, verdict: v, builtIn, durationNs }: ExercisePanelProps) {
  const t = useT();
  const unit = GOALS[exercise.goal].unit;
  const process = exercise.process ?? '';
  const what = t(`ex.what.${exercise.goal}`, { process });
  const max = figureText(exercise.max);
  const figure = v.figure === null ? null : figureText(v.figure);
  const perProcessMissing = exercise.goal === 'completion_ms' ? 'notCompleted' : 'noWakeup';
  let progress: string;
  if (figure === null)
    progress = t(perProcessMissing === 'noWakeup' ? 'ex.noWakeupYet' : 'ex.notCompletedYet', { process });
  else progress = t(v.pass ? 'ex.soFar' : 'ex.soFarOver', { what, figure, unit, max });
  let why: string;
  if (v.stopped_early_ns !== undefined) why = t('ex.stopped', { t: figureText(v.stopped_early_ns / 1e6) });
  else if (figure === null) why = t(`ex.${perProcessMissing}`, { process });
  else why = t(v.pass ? 'ex.within' : 'ex.over', { what, figure, unit, max });
  return (
    <section className="panel exercise-panel" data-testid="exercise-panel" aria-labelledby="exercise-title">
      <h2 id="exercise-title">
        {t('ex.title')}
        {builtIn && `: ${t(`ex.${builtIn}.title`)}`}
      </h2>
      {builtIn ? (
        <p data-testid="exercise-task">{t(`ex.${builtIn}.task`)}</p>
      ) : (
        exercise.text && (
          <p className="exercise-text" data-testid="exercise-task">
            {exercise.text}
          </p>
        )
      )}
      <p data-testid="exercise-goal">
        <b>{t(`ex.goal.${exercise.goal}`, { max, process })}</b>
      </p>
      {v.finished ? (
        <p className={v.pass ? 'verdict good' : 'verdict bad'} data-testid="exercise-verdict" role="status">
          <b>{v.pass ? t('ex.pass') : t('ex.fail')}</b> {why}
        </p>
      ) : (
        <p className="meta" data-testid="exercise-so-far">
          {progress} {t('ex.atEnd', { t: figureText(durationNs / 1e6) })}
        </p>
      )}
      {v.finished && !v.pass && <p className="meta">{t('ex.again')}</p>}
    </section>
  );
}
