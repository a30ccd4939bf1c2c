// Priority inversion and inheritance on one CPU (Linux 4.1): a fair task
// holding a mutex, a FIFO task waiting for it and a FIFO hog in between;
// then the same tasks with PI mutexes, where the owner runs at its waiter's
// priority until it unlocks.
import type { Lesson } from '../lesson';

const lesson: Lesson = {
  id: 'priority-inheritance',
  preset: 'priority-inversion',
  steps: [
    { id: 'held', anchor: { atMs: 4 }, panel: 'rbtree-panel', selectCpu: 0 },
    { id: 'inverted', anchor: { atMs: 50 }, panel: 'rt-runqueue', selectCpu: 0 },
    { id: 'unbounded', anchor: { atMs: 400 }, panel: 'metrics' },
    { id: 'lent', preset: 'priority-inheritance', anchor: { atMs: 10 }, panel: 'rt-runqueue', selectCpu: 0 },
    { id: 'bounded', anchor: { atMs: 400 }, panel: 'metrics' },
  ],
};
export default lesson;
