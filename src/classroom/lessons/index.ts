// Every lesson, in the order the picker lists them.
import type { Lesson } from '../lesson';
import cfsBasics from './cfs-basics';
import groupImbalance from './group-imbalance';
import groupConstruction from './group-construction';
import overloadOnWakeup from './overload-on-wakeup';
import missingDomains from './missing-domains';
import greedyThreads from './greedy-threads';
import groupIdentity from './group-identity';
import writeAScheduler from './write-a-scheduler';
import decadeLater from './decade-later';
import rtClasses from './rt-classes';
import priorityInheritance from './priority-inheritance';
import edfVsFixed from './edf-vs-fixed';

export const LESSONS: Lesson[] = [
  cfsBasics,
  rtClasses,
  priorityInheritance,
  edfVsFixed,
  groupImbalance,
  groupConstruction,
  overloadOnWakeup,
  missingDomains,
  decadeLater,
  greedyThreads,
  groupIdentity,
  writeAScheduler,
];

export function lessonById(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}
