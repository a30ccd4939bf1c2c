// Greedy threads: CFS is fair to threads, so a process's share grows with its thread count.
import type { Lesson } from '../lesson';

const lesson: Lesson = {
  id: 'greedy-threads',
  preset: 'greedy-threads',
  steps: [
    { id: 'setup', anchor: { atMs: 100 }, panel: 'topology' },
    {
      id: 'next',
      anchor: { atMs: 500 },
      panel: 'rbtree-panel',
      selectCpu: 0,
      question: { kind: 'next-runner', cpu: 0 },
    },
    { id: 'shares', anchor: { atMs: 1000 }, panel: 'metrics-charts' },
    { id: 'late', anchor: { atMs: 2100 }, panel: 'metrics' },
  ],
};
export default lesson;
