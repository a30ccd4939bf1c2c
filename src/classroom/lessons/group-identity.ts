// Group Identity: latency-sensitive online services colocated with offline batch jobs.
import { range, type Lesson } from '../lesson';

const lesson: Lesson = {
  id: 'group-identity',
  preset: 'gi-colocation',
  steps: [
    { id: 'online', anchor: { atMs: 90 }, panel: 'topology', cpus: range(0, 31) },
    { id: 'offline', anchor: { atMs: 150 }, panel: 'topology', cpus: range(0, 31) },
    {
      id: 'next',
      anchor: { atMs: 200 },
      panel: 'rbtree-panel',
      selectCpu: 3,
      question: { kind: 'next-runner', cpu: 3 },
    },
    { id: 'latency', anchor: { atMs: 1000 }, panel: 'metrics-charts' },
  ],
};
export default lesson;
