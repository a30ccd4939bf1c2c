// Long runs without freezing the page: the engine advances in slices of a
// few milliseconds of wall time, yielding to the browser between slices so
// it can paint a progress bar and take a click on Cancel. The states passed
// through are exactly those of one uninterrupted run (the engine is stepped
// the same way, only in pieces). The first slice runs at once, so short
// jumps finish within the click that asked for them.
import type { Simulation } from './engine';

export interface Progress {
  label: string;
  fromNs: number;
  toNs: number;
  atNs: number;
}

/** Wall time per slice before yielding to the browser. */
const SLICE_MS = 12;
/** Wall time aimed at per engine call inside a slice. */
const CHUNK_MS = 3;

export class LongRun {
  private cancelled = false;
  private atNs: number;
  private readonly fromNs: number;
  private chunkNs = 2e6;

  /**
   * `advance(untilNs)` runs the engine up to about `untilNs` and returns true
   * when the goal was reached (or the run ended); the run also ends at `toNs`.
   */
  constructor(
    private readonly sim: Simulation,
    private readonly label: string,
    private readonly toNs: number,
    private readonly advance: (untilNs: number) => boolean,
    private readonly onProgress: (p: Progress | null) => void,
    private readonly onDone: () => void,
  ) {
    this.fromNs = sim.nowNs;
    this.atNs = sim.nowNs;
  }

  start(): void {
    this.slice();
  }

  /** Stops after the current engine call; the simulation stays where it got. */
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.onProgress(null);
  }

  private slice = (): void => {
    if (this.cancelled) return;
    const start = performance.now();
    while (performance.now() - start < SLICE_MS) {
      const t = performance.now();
      this.atNs = Math.min(this.toNs, Math.max(this.atNs, this.sim.nowNs) + this.chunkNs);
      if (this.advance(this.atNs) || this.atNs >= this.toNs || this.sim.finished) {
        this.cancelled = true;
        this.onProgress(null);
        this.onDone();
        return;
      }
      // Aim each engine call at CHUNK_MS of wall time, whatever the workload.
      const took = Math.max(0.05, performance.now() - t);
      this.chunkNs = Math.min(1e10, Math.max(1e5, this.chunkNs * Math.min(4, CHUNK_MS / took)));
    }
    this.onProgress({ label: this.label, fromNs: this.fromNs, toNs: this.toNs, atNs: this.atNs });
    setTimeout(this.slice, 0);
  };
}
