// The built-in exercises: a preset's machine and workload, a starter policy
// (wasm-core/policies/*.js, the files schedsim and the engine's tests run) as
// the student's starting point, and a goal (`exercise`) the run is judged
// against. Their titles and tasks are in i18n/messages/exercise.ts
// (ex.<id>.title, ex.<id>.task); the scenario carries the task in English too,
// so a file or a link read elsewhere still says what to do.
import { presetJson } from '../engine/engine';
import fifo from '../../wasm-core/policies/global-fifo.js?raw';
import skeleton from '../../wasm-core/policies/keep-busy-skeleton.js?raw';
import vtime from '../../wasm-core/policies/weighted-vtime.js?raw';
import type { Exercise } from './exercise';

export const STARTERS = { fifo, skeleton, vtime };

export interface BuiltInExercise {
  id: string;
  preset: string;
  /** The starting policy's JavaScript source. */
  policy: string;
  /** Shorter than the preset's: long enough to show the goal, short enough to run again after each edit. */
  durationMs: number;
  exercise: Exercise & { text: string };
}

export const EXERCISES: BuiltInExercise[] = [
  {
    id: 'keep-busy',
    preset: 'group-imbalance-make',
    policy: skeleton,
    // make's first 64 jobs (20–60 ms each) all end and are replaced within it.
    durationMs: 1000,
    exercise: {
      goal: 'longest_wasted_idle_ms',
      // One tick at HZ 250: the longest an idle CPU may take to notice waiting work even if nothing woke it.
      max: 4,
      text:
        'Keep every core busy: no CPU may idle longer than one tick (4 ms) while a thread it could run waits. ' +
        'The skeleton keeps each thread on its own CPU’s queue; make dispatch() find work.',
    },
  },
  {
    id: 'online-latency',
    preset: 'gi-colocation',
    policy: vtime,
    // The offline jobs join at 100 ms: 400 ms of colocation.
    durationMs: 500,
    exercise: {
      goal: 'p99_wakeup_us',
      // One online request's run (100 µs, the schbench-worker template): a wakeup that waits only behind other
      // online requests stays within it; one queued behind an offline job's slice waits milliseconds.
      max: 100,
      process: 'online-0',
      text:
        'Online first: keep the p99 wakeup latency of online-0 within 100 µs, one online request’s run, while 24 ' +
        'offline threads share the node. The weighted-vtime starter lets a waking thread wait behind offline slices.',
    },
  },
];

export const exerciseById = (id: string): BuiltInExercise | undefined => EXERCISES.find((e) => e.id === id);

/** The scenario's name for a built-in exercise (the picker shows which one is loaded by it). */
export const exerciseName = (e: BuiltInExercise): string => `exercise-${e.id}`;

/** A preset run under a JavaScript policy, as a scenario text of its own name (and its exercise, if given). */
export function policyScenario(
  preset: string,
  name: string,
  source: string,
  durationMs: number,
  ex?: Exercise,
): string {
  const s = JSON.parse(presetJson(preset)) as Record<string, unknown>;
  s.name = name;
  s.duration_ms = durationMs;
  s.policy = { kind: 'ext', source };
  if (ex) {
    // The preset's description tells its own story (Linux 4.1's bug); the exercise's task replaces it.
    s.exercise = ex;
    s.description = ex.text ?? s.description;
  }
  return JSON.stringify(s, null, 2);
}

/** A built-in exercise's scenario text, with its starting policy. */
export const exerciseScenario = (e: BuiltInExercise): string =>
  policyScenario(e.preset, exerciseName(e), e.policy, e.durationMs, e.exercise);

/** The built-in exercise a loaded scenario is, by its name (edited policies included), if any. */
export const builtInByName = (name: string): BuiltInExercise | undefined =>
  EXERCISES.find((e) => exerciseName(e) === name);
