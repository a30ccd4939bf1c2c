// An exercise on the page: the goal a scenario carries (`"exercise"`, checked
// by the engine when it loads the scenario), read back for its words. The run
// is judged by the engine (wasm-core/src/api/report/judge.rs): every report of
// the run carries the verdict (`report.exercise`), as `schedsim run` prints it.
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

/** A figure with at most three decimals, trailing zeros dropped (as the engine's line writes it). */
export function figureText(x: number): string {
  return String(Number(x.toFixed(3)));
}
