// The paper's Overload-on-Wakeup bug: wakeups look for an idle core only on the waker's node.
import type { Lesson } from '../lesson';

const lesson: Lesson = {
  id: 'overload-on-wakeup',
  preset: 'overload-on-wakeup-db',
  steps: [
    { id: 'workers', anchor: { atMs: 100 }, panel: 'heatmaps' },
    { id: 'wakeup', anchor: { atMs: 800 }, panel: 'topology', question: { kind: 'placement', task: 'db' } },
    { id: 'violation', anchor: { mark: 'violation', afterMs: 0 }, panel: 'metrics' },
    { id: 'fixed', preset: 'overload-on-wakeup-db-fixed', anchor: { atMs: 800 }, panel: 'heatmaps' },
  ],
};
export default lesson;
