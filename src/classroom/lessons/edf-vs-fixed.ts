// EDF against fixed priorities on one CPU (Linux 4.1): one periodic task set,
// 3 ms every 6 ms and 4 ms every 9 ms (utilisation 0.944), first as SCHED_FIFO
// tasks with rate-monotonic priorities, where the longer-period task misses a
// deadline every 18 ms (the lanes mark each), then as SCHED_DEADLINE servers,
// where EDF meets them all. The times are worked by hand in
// wasm-core/tests/it/edf_vs_fixed.rs.
import type { Lesson } from '../lesson';

const lesson: Lesson = {
  id: 'edf-vs-fixed',
  preset: 'edf-vs-fixed-priorities-rm',
  steps: [
    { id: 'set', anchor: { atMs: 1 }, panel: 'rt-runqueue', selectCpu: 0, lanesMs: 20 },
    { id: 'preempted', anchor: { atMs: 7 }, panel: 'rt-runqueue', lanesMs: 20 },
    { id: 'miss', anchor: { atMs: 12 }, panel: 'lanes', lanesMs: 20 },
    { id: 'bound', anchor: { atMs: 40 }, panel: 'lanes', lanesMs: 40 },
    { id: 'edf', preset: 'edf-vs-fixed-priorities', anchor: { atMs: 6.5 }, panel: 'dl-runqueue', lanesMs: 20 },
    { id: 'met', anchor: { atMs: 40 }, panel: 'lanes', lanesMs: 40 },
    { id: 'price', anchor: { atMs: 1800 }, panel: 'metrics-charts' },
  ],
};
export default lesson;
