// Play's requests in the engine worker: run toward a time for a bounded
// amount of wall time. A plain run-until holds the worker for as many events
// as fall before its goal (thousands of forks on a 1,024-CPU machine took
// 25 s), and nothing, not even Pause, gets in meanwhile.
import type { Simulation } from './engine';

/**
 * Runs toward `toNs` for about `maxMs` of wall time, in batches of events
 * sized from the previous batch's cost (however many events fall before
 * `toNs`, as at a mass fork); true when it got there. Play's requests.
 */
export function runBounded(sim: Simulation, toNs: number, maxMs: number): boolean {
  const start = performance.now();
  // One event first: on a 1,024-CPU machine a fork can cost 10 ms.
  let batch = 1;
  for (;;) {
    const t = performance.now();
    if (sim.runUntilLimited(toNs, batch) || sim.finished) return true;
    const now = performance.now();
    const left = maxMs - (now - start);
    if (left <= 0) return false;
    // Half of what is left at the last batch's cost per event, so the budget is overrun by little.
    const perEvent = Math.max(1e-4, (now - t) / batch);
    batch = Math.max(1, Math.min(batch * 8, Math.floor(left / 2 / perEvent)));
  }
}
