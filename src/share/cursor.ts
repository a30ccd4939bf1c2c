// Where a share link puts the cursor, and how it gets there. A state is named
// by the engine's event count (several events can share one nanosecond) plus
// the clock, which run-until moves past the last event. The canonical way to
// reach it — used both by the sender when it makes a link and by the receiver
// when it opens one, so both show the same thing, rotations included — is:
// replay event n as a step (its tree rotations are the ones shown), then run
// the clock on to ns without processing any further event.
import type { Simulation } from '../engine/engine';
import { CHUNK_MS, type Job } from '../engine/jobs';
import type { Cursor } from './share-link';

/** Events replayed per engine call at first; adapted to about CHUNK_MS of wall time. */
const FIRST_CHUNK = 2_000;

/** The cursor of a state (a simulation, or a frame the worker posted of one). */
export function cursorOf(at: { events: number; nowNs: number }): Cursor {
  return { event: at.events, ns: at.nowNs };
}

/** Event n replayed as a step: from just before it, so its rotations are the ones shown. */
function replayEvent(sim: Simulation, n: number): void {
  if (n > 0 && sim.events >= n) sim.seekEvent(n - 1);
  sim.seekEvent(n);
}

/** Places the cursor at once (the sender's own state: no event lies between its last one and its clock). */
export function placeCursor(sim: Simulation, c: Cursor): void {
  replayEvent(sim, c.event);
  if (sim.nowNs < c.ns) sim.runUntil(c.ns);
}

/**
 * Places the cursor in slices (a link can point far into a long run): a job
 * for the engine worker's slicer. A cursor past the run's end leaves the run at its end; a clock
 * that a real sender could not have had (events left before it) stops at the
 * first further event rather than running on.
 */
export function cursorJob(sim: Simulation, c: Cursor): Job {
  const from = Math.min(sim.events, c.event);
  let chunk = FIRST_CHUNK;
  let chunkNs = 2e6;
  let replayed = false;
  /** Scales a chunk so the next engine call takes about CHUNK_MS. */
  const adapt = (size: number, t0: number, lo: number, hi: number) =>
    Math.max(lo, Math.min(hi, size * Math.min(4, CHUNK_MS / Math.max(0.05, performance.now() - t0))));
  return {
    step() {
      const t0 = performance.now();
      if (!replayed) {
        if (sim.events + chunk < c.event) {
          const before = sim.events;
          sim.seekEvent(before + chunk);
          chunk = Math.round(adapt(chunk, t0, 100, 1e6));
          // Unmoved: the run ended before the link's event, so stay at its end.
          if (sim.events > before) return false;
        }
        replayEvent(sim, c.event);
        replayed = true;
        return sim.nowNs >= c.ns || sim.finished;
      }
      sim.runUntil(Math.min(c.ns, sim.nowNs + chunkNs));
      chunkNs = adapt(chunkNs, t0, 1e5, 1e12);
      return sim.nowNs >= c.ns || sim.finished || sim.events !== c.event;
    },
    progress: () => ({
      fraction: c.event > from ? Math.min(1, (sim.events - from) / (c.event - from)) : 1,
      at: sim.events,
      of: c.event,
      unit: 'events',
    }),
    found: () => true,
  };
}
