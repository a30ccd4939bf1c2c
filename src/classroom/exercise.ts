// An exercise on the page: the goal a scenario carries (`"exercise"`, checked
// by the engine when it loads the scenario) and the run judged against it.
// The judgement follows wasm-core/src/api/exercise.rs rule for rule, from the
// same report figures: the engine's simulator does not hold the scenario, so
// the page's report comes without a verdict and the page reads the figure
// itself. tests/unit/exercise.test.ts holds it to the engine's cases.
import type { Report } from '../engine/types';

export type GoalName =
  'longest_wasted_idle_ms' | 'wasted_core_ms' | 'p99_wakeup_us' | 'max_wakeup_us' | 'completion_ms';

/** The goals, with their unit and whether they name a process (as exercise.rs's GOALS). */
export const GOALS: Record<GoalName, { unit: 'ms' | 'µs'; perProcess: boolean }> = {
  longest_wasted_idle_ms: { unit: 'ms', perProcess: false },
  wasted_core_ms: { unit: 'ms', perProcess: false },
  p99_wakeup_us: { unit: 'µs', perProcess: true },
  max_wakeup_us: { unit: 'µs', perProcess: true },
  completion_ms: { unit: 'ms', perProcess: true },
};

/** The scenario's `exercise`. */
export interface Exercise {
  goal: GoalName;
  max: number;
  process?: string;
  text?: string;
}

/** The run judged: the shape `schedsim run --json` writes (report.exercise). */
export type Verdict = NonNullable<Report['exercise']>;

const isGoal = (g: unknown): g is GoalName => typeof g === 'string' && Object.hasOwn(GOALS, g);

/**
 * The exercise a scenario text carries, or null. The engine has refused a
 * wrong one before the page shows it; this only reads the shape back.
 */
export function exerciseOf(scenarioJson: string): Exercise | null {
  // Cheap test first: a scenario of megabytes without an exercise is not parsed again.
  if (!scenarioJson.includes('"exercise"')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(scenarioJson);
  } catch {
    return null;
  }
  const e = (parsed as { exercise?: unknown } | null)?.exercise as Record<string, unknown> | undefined;
  if (!e || typeof e !== 'object' || !isGoal(e.goal) || typeof e.max !== 'number') return null;
  return {
    goal: e.goal,
    max: e.max,
    process: typeof e.process === 'string' ? e.process : undefined,
    text: typeof e.text === 'string' ? e.text : undefined,
  };
}

/** The run's figure in the goal's unit; null while there is none (no wakeup measured, not completed). */
function figureOf(ex: Exercise, r: Report): number | null {
  const proc = () => r.processes.find((p) => p.name === ex.process);
  switch (ex.goal) {
    case 'longest_wasted_idle_ms':
      // No stretch at all is a longest stretch of zero.
      return r.longest_wasted_idle ? r.longest_wasted_idle[2] / 1e6 : 0;
    case 'wasted_core_ms':
      return r.wasted_core_ns / 1e6;
    case 'p99_wakeup_us':
    case 'max_wakeup_us': {
      // [p50, p90, p99, max]
      const l = proc()?.wakeup_latency_ns;
      return l ? l[ex.goal === 'p99_wakeup_us' ? 2 : 3] / 1e3 : null;
    }
    case 'completion_ms': {
      const c = proc()?.completion_ns;
      return c == null ? null : c / 1e6;
    }
  }
}

/**
 * The run judged from `r`. `finished`: the run is over and `r` is its last
 * report; `durationNs`: the scenario's duration (a run over before it
 * stopped early, and fails).
 */
export function judge(ex: Exercise, r: Report, finished: boolean, durationNs: number): Verdict {
  const figure = figureOf(ex, r);
  const stoppedEarly = finished && r.sim_time_ns < durationNs;
  return {
    goal: ex.goal,
    ...(ex.process !== undefined ? { process: ex.process } : {}),
    bound: ex.max,
    figure,
    pass: !stoppedEarly && figure !== null && figure <= ex.max,
    finished,
    ...(stoppedEarly ? { stopped_early_ns: r.sim_time_ns } : {}),
  };
}

/** A figure with at most three decimals, trailing zeros dropped (as the engine's line writes it). */
export function figureText(x: number): string {
  return String(Number(x.toFixed(3)));
}
