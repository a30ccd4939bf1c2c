// The paper's Missing Scheduling Domains bug: a hotplug rebuild drops the NUMA levels.
import { range, type Lesson } from '../lesson';

const lesson: Lesson = {
  id: 'missing-domains',
  preset: 'missing-domains-hotplug',
  steps: [
    { id: 'hotplug', anchor: { atMs: 15 }, panel: 'topology', cpus: [5] },
    { id: 'fork', anchor: { atMs: 49 }, panel: 'topology', question: { kind: 'placement', task: 'app' } },
    { id: 'crowd', anchor: { atMs: 300 }, panel: 'inspector', cpus: range(0, 7) },
    { id: 'fixed', preset: 'missing-domains-hotplug-fixed', anchor: { atMs: 300 }, panel: 'topology' },
  ],
};
export default lesson;
