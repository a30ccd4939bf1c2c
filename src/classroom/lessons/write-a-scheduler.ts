// Writing a scheduler: a sched_ext policy in JavaScript on the Group Imbalance
// machine. The exercise's skeleton runs first (every thread stays where it
// started: one CPU works, 63 idle), then the global FIFO starter (every core
// busy), and the lesson ends on the exercise itself, judged by its panel.
import { exerciseById, exerciseName, exerciseScenario, policyScenario, STARTERS } from '../exercises';
import type { Lesson } from '../lesson';

const exercise = exerciseById('keep-busy');
if (!exercise) throw new Error('the keep-busy exercise is built in');
const SKELETON = 'write-a-scheduler-skeleton';
const FIFO = 'write-a-scheduler-fifo';
// The exercise's machine, workload and length, so the lesson's runs and the exercise's compare.
const run = (name: string, source: string) => () => policyScenario(exercise.preset, name, source, exercise.durationMs);

const lesson: Lesson = {
  id: 'write-a-scheduler',
  preset: SKELETON,
  scenarios: {
    [SKELETON]: run(SKELETON, STARTERS.skeleton),
    [FIFO]: run(FIFO, STARTERS.fifo),
    [exerciseName(exercise)]: () => exerciseScenario(exercise),
  },
  steps: [
    { id: 'start', anchor: { atMs: 30 }, panel: 'topology', cpus: [0], selectCpu: 0 },
    { id: 'select', anchor: { atMs: 100 }, panel: 'topology', cpus: [0], selectCpu: 0 },
    { id: 'enqueue', anchor: { atMs: 100 }, panel: 'topology', cpus: [0], selectCpu: 0 },
    { id: 'dispatch', anchor: { atMs: 300 }, panel: 'heatmaps' },
    { id: 'idle', anchor: { atMs: 300 }, panel: 'metrics' },
    { id: 'fifo', preset: FIFO, anchor: { atMs: 300 }, panel: 'heatmaps' },
    { id: 'exercise', preset: exerciseName(exercise), anchor: { atMs: exercise.durationMs }, panel: 'exercise-panel' },
  ],
};
export default lesson;
