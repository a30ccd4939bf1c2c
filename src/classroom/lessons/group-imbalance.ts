// The paper's Group Imbalance bug: average load hides idle cores next to a heavy thread.
import { range, type Lesson } from '../lesson';

const lesson: Lesson = {
  id: 'group-imbalance',
  preset: 'group-imbalance-make',
  steps: [
    { id: 'start', anchor: { atMs: 30 }, panel: 'topology', cpus: [11, 27] },
    { id: 'avoid', anchor: { atMs: 300 }, panel: 'topology', cpus: [...range(8, 15), ...range(24, 31)] },
    {
      id: 'balance',
      anchor: { atMs: 300 },
      panel: 'inspector',
      question: { kind: 'balance-moves', cpus: [...range(8, 15), ...range(24, 31)], level: 'NUMA' },
    },
    { id: 'violation', anchor: { mark: 'violation', afterMs: 0 }, panel: 'metrics' },
    { id: 'fixed', preset: 'group-imbalance-make-fixed', anchor: { atMs: 300 }, panel: 'heatmaps' },
    { id: 'end', anchor: { atMs: 4000 }, panel: 'metrics' },
    // The paper's lu run: R threads on nodes 1-4 (CPUs 11, 19, 27, 35), their nodes' other 28 cores idle.
    {
      id: 'lu',
      preset: 'group-imbalance-lu',
      anchor: { atMs: 1000 },
      panel: 'topology',
      cpus: range(8, 39).filter((c) => ![11, 19, 27, 35].includes(c)),
    },
  ],
};
export default lesson;
