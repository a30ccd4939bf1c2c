// Long runs without freezing the page: the engine works in slices of a few
// milliseconds of wall time, yielding to the browser between slices so it
// can paint a progress bar and take a click on Cancel. The states passed
// through are exactly those of one uninterrupted run (the engine is stepped
// the same way, only in pieces). The first slice runs at once, so short
// jumps finish within the click that asked for them.
import type { Simulation } from './engine';
import type { Mark } from './types';
import type { Translate } from '../i18n/i18n';

export interface Progress {
  label: string;
  /** 0…1 */
  fraction: number;
  detail: string;
}

/** A piece of long work, done a step at a time. */
export interface Job {
  label: string;
  /** Does one step; true when the job is finished. */
  step(): boolean;
  fraction(): number;
  detail(): string;
}

/** Wall time per slice before yielding to the browser. */
const SLICE_MS = 12;
/** Wall time aimed at per engine call of a time job. */
const CHUNK_MS = 3;

export class LongRun {
  private cancelled = false;

  constructor(
    private readonly job: Job,
    private readonly onProgress: (p: Progress | null) => void,
    private readonly onDone: () => void,
  ) {}

  start(): void {
    this.slice();
  }

  /** Stops after the current step; the simulation stays where it got. */
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.onProgress(null);
  }

  private slice = (): void => {
    if (this.cancelled) return;
    const start = performance.now();
    while (performance.now() - start < SLICE_MS) {
      if (this.job.step()) {
        this.cancelled = true;
        this.onProgress(null);
        this.onDone();
        return;
      }
    }
    this.onProgress({ label: this.job.label, fraction: this.job.fraction(), detail: this.job.detail() });
    setTimeout(this.slice, 0);
  };
}

/**
 * Runs forward to `toNs`: `advance(untilNs)` runs the engine up to about
 * `untilNs` and returns true when its goal was reached (or the run ended).
 */
export function timeJob(sim: Simulation, label: string, toNs: number, advance: (untilNs: number) => boolean): Job {
  const fromNs = sim.nowNs;
  let atNs = fromNs;
  let chunkNs = 2e6;
  return {
    label,
    step() {
      const t = performance.now();
      atNs = Math.min(toNs, Math.max(atNs, sim.nowNs) + chunkNs);
      if (advance(atNs) || atNs >= toNs || sim.finished) return true;
      // Aim each engine call at CHUNK_MS of wall time, whatever the workload.
      const took = Math.max(0.05, performance.now() - t);
      chunkNs = Math.min(1e10, Math.max(1e5, chunkNs * Math.min(4, CHUNK_MS / took)));
      return false;
    },
    fraction: () => (toNs > fromNs ? Math.min(1, Math.max(0, (atNs - fromNs) / (toNs - fromNs))) : 1),
    detail: () => `${(atNs / 1e6).toFixed(3)} / ${(toNs / 1e6).toFixed(3)} ms`,
  };
}

/** Searches back for the previous mark, one snapshot window per step. */
export function backJob(sim: Simulation, label: string, mark: Mark, onFinish: (found: boolean) => void, t: Translate): Job {
  const origin = sim.events;
  sim.prevMarkStart(mark);
  return {
    label,
    step() {
      const r = sim.prevMarkContinue();
      if (r === -1) return false;
      onFinish(r === 1);
      return true;
    },
    fraction: () => (origin > 0 ? (origin - sim.prevMarkSearchedTo()) / origin : 1),
    detail: () => t('progress.searchedBack', { at: sim.prevMarkSearchedTo(), of: origin }),
  };
}
