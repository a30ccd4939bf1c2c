// Long work in the engine worker, done a step at a time so the worker can
// take a Cancel (or a newer command) between slices and post progress. The
// states passed through are exactly those of one uninterrupted run: the engine
// is stepped the same way, only in pieces.
import type { Simulation } from './engine';
import type { Mark } from './types';

/** How far a job got: `at` of `of`, in `unit`. */
export interface JobProgress {
  fraction: number;
  at: number;
  of: number;
  unit: 'ns' | 'events';
}

/** A piece of long work. */
export interface Job {
  /** Does one step; true when the job is finished. */
  step(): boolean;
  progress(): JobProgress;
  /** Whether what the job looked for was found (true for jobs that look for nothing). */
  found(): boolean;
}

/** What the lab asks the worker to do in slices. */
export type JobSpec =
  | { kind: 'run-to'; toNs: number }
  | { kind: 'next-mark'; mark: Mark }
  | { kind: 'prev-mark'; mark: Mark }
  /** A feature's job (extensions.ts: `extJob`). */
  | { kind: 'ext'; name: string; arg: unknown };

/** Wall time aimed at per engine call. */
export const CHUNK_MS = 3;

/** A built-in job (the host makes a feature's through its registration). */
export function makeJob(sim: Simulation, spec: Exclude<JobSpec, { kind: 'ext' }>): Job {
  switch (spec.kind) {
    case 'run-to':
      return timeJob(sim, spec.toNs, (until) => {
        sim.runUntil(until);
        return false;
      });
    case 'next-mark': {
      let found = false;
      const job = timeJob(sim, sim.durationNs, (until) => {
        const r = sim.stepMarkUntil(spec.mark, until);
        found = r === 1;
        return r !== -1;
      });
      return { ...job, found: () => found };
    }
    case 'prev-mark':
      return backJob(sim, spec.mark);
  }
}

/**
 * Runs forward to `toNs`: `advance(untilNs)` runs the engine up to about
 * `untilNs` and returns true when its goal was reached (or the run ended).
 */
function timeJob(sim: Simulation, toNs: number, advance: (untilNs: number) => boolean): Job {
  const fromNs = sim.nowNs;
  let atNs = fromNs;
  let chunkNs = 2e6;
  return {
    step() {
      const t = performance.now();
      atNs = Math.min(toNs, Math.max(atNs, sim.nowNs) + chunkNs);
      if (advance(atNs) || atNs >= toNs || sim.finished) return true;
      // Aim each engine call at CHUNK_MS of wall time, whatever the workload.
      const took = Math.max(0.05, performance.now() - t);
      chunkNs = Math.min(1e10, Math.max(1e5, chunkNs * Math.min(4, CHUNK_MS / took)));
      return false;
    },
    progress: () => ({
      fraction: toNs > fromNs ? Math.min(1, Math.max(0, (atNs - fromNs) / (toNs - fromNs))) : 1,
      at: atNs,
      of: toNs,
      unit: 'ns',
    }),
    found: () => true,
  };
}

/** Searches back for the previous mark, one snapshot window per step. */
function backJob(sim: Simulation, mark: Mark): Job {
  const origin = sim.events;
  let found = false;
  sim.prevMarkStart(mark);
  return {
    step() {
      const r = sim.prevMarkContinue();
      if (r === -1) return false;
      found = r === 1;
      return true;
    },
    progress: () => ({
      fraction: origin > 0 ? (origin - sim.prevMarkSearchedTo()) / origin : 1,
      at: sim.prevMarkSearchedTo(),
      of: origin,
      unit: 'events',
    }),
    found: () => found,
  };
}
