// A decade later: each of the paper's bug scenarios on stock Linux 4.1 beside
// the same workload on Linux 6.12 as it ships, on one clock (compare mode).
import type { Lesson } from '../lesson';

const on612 = { kind: 'kernel', kernel: '6.12' } as const;

const lesson: Lesson = {
  id: 'decade-later',
  preset: 'group-imbalance-make',
  steps: [
    { id: 'intro', partner: on612, anchor: { atMs: 500 }, panel: 'metrics' },
    { id: 'imbalance', anchor: { atMs: 1500 }, panel: 'heatmaps' },
    { id: 'lu', preset: 'group-imbalance-lu', partner: on612, anchor: { atMs: 400 }, panel: 'metrics' },
    {
      id: 'construction',
      preset: 'group-construction-numactl',
      partner: on612,
      anchor: { atMs: 400 },
      panel: 'heatmaps',
    },
    { id: 'wakeup', preset: 'overload-on-wakeup-db', partner: on612, anchor: { atMs: 800 }, panel: 'metrics' },
    { id: 'domains', preset: 'missing-domains-hotplug', partner: on612, anchor: { atMs: 1000 }, panel: 'metrics' },
    { id: 'end', anchor: { atMs: 1000 }, partner: null, panel: 'metrics' },
  ],
};
export default lesson;
