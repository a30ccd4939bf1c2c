// The paper's Scheduling Group Construction bug: groups built from CPU 0's view.
import { range, type Lesson } from '../lesson';

const lesson: Lesson = {
  id: 'group-construction',
  preset: 'group-construction-numactl',
  steps: [
    { id: 'crowd', anchor: { atMs: 100 }, panel: 'topology', cpus: range(8, 23) },
    {
      id: 'balance',
      anchor: { atMs: 100 },
      panel: 'inspector',
      question: { kind: 'balance-moves', cpus: range(8, 23), level: 'NUMA' },
    },
    { id: 'violation', anchor: { mark: 'violation', afterMs: 0 }, panel: 'heatmaps', cpus: range(16, 23) },
    {
      id: 'fixed',
      preset: 'group-construction-numactl-fixed',
      anchor: { atMs: 100 },
      panel: 'topology',
      cpus: range(8, 23),
    },
  ],
};
export default lesson;
