// The guided lesson the lab follows, if any: its step, what the step points
// at (a panel, CPUs), and a count of resets (each puts the run back at the
// step's anchor).
import { createStore } from './store';

export interface LessonStep {
  id: string;
  step: number;
}

/** What a lesson step points at: a panel (classroom/stage.ts's ids) and CPUs. */
export interface LessonMarks<P extends string = string> {
  panel: P | null;
  cpus: number[];
}

export interface LessonStoreState<P extends string = string> {
  lesson: LessonStep | null;
  marks: LessonMarks<P> | null;
  resets: number;
}

/** `P`: the panels a step may point at. */
export const createLessonStore = <P extends string>() =>
  createStore<LessonStoreState<P>>({ lesson: null, marks: null, resets: 0 });
