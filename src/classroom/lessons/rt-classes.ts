// The real-time class on one CPU (Linux 4.1): FIFO preempting the fair
// class at once, RR's turns among equals, and throttling handing the tail of
// each second back to the fair class.
import type { Lesson } from '../lesson';

const lesson: Lesson = {
  id: 'rt-classes',
  preset: 'rt-fifo-rr-throttling',
  steps: [
    { id: 'alone', anchor: { atMs: 50 }, panel: 'rbtree-panel', selectCpu: 0 },
    { id: 'fifo', anchor: { atMs: 150 }, panel: 'rt-runqueue', selectCpu: 0 },
    { id: 'rr', anchor: { atMs: 1450 }, panel: 'rt-runqueue' },
    { id: 'throttled', anchor: { atMs: 1970 }, panel: 'rt-runqueue' },
    { id: 'shares', anchor: { atMs: 3000 }, panel: 'metrics-charts' },
  ],
};
export default lesson;
