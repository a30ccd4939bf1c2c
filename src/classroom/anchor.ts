// Puts a simulation at a lesson step's anchor: a simulated time, or the next
// mark (balancing decision, migration, checker violation) after a time.
// Exact in both directions (the engine's seek is snapshot + replay).
import type { Simulation } from '../engine/engine';
import type { Anchor } from './lesson';

/** Returns false when the mark searched for never comes (the cursor is then at the end). */
export function applyAnchor(sim: Simulation, a: Anchor): boolean {
  if ('atMs' in a) {
    sim.seekTime(Math.min(a.atMs * 1e6, sim.durationNs));
    return true;
  }
  sim.seekTime(Math.min(a.afterMs * 1e6, sim.durationNs));
  return sim.stepMark(a.mark, true);
}
