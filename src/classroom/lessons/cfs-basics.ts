// CFS basics on one CPU: the tree keyed by vruntime, weights from nice, who runs next.
import type { Lesson } from '../lesson';

const lesson: Lesson = {
  id: 'cfs-basics',
  preset: 'cfs-nice-levels',
  steps: [
    { id: 'tree', anchor: { atMs: 3 }, panel: 'rbtree-panel', selectCpu: 0 },
    { id: 'weights', anchor: { atMs: 50 }, panel: 'rbtree-panel' },
    { id: 'next', anchor: { atMs: 100 }, panel: 'rbtree-panel', question: { kind: 'next-runner', cpu: 0 } },
    { id: 'shares', anchor: { atMs: 1000 }, panel: 'metrics-charts' },
  ],
};
export default lesson;
