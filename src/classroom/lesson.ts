// A guided lesson as data: steps of narration, each anchored at a simulated
// time or at the next balancing decision / migration / checker violation
// after a time, with what to highlight and optionally a question the
// simulation answers (predict.ts). The words live in the catalog
// (messages/lessons.ts) under lesson.<id>.title and lesson.<id>.<step>[.q].
import { presetJson } from '../engine/engine';
import type { Mark } from '../engine/types';
import type { Question } from './predict';
import type { PartnerKind } from '../compare/variants';

/** Panels a step can ring (their data-testid). */
export type PanelId =
  | 'topology'
  | 'inspector'
  | 'heatmaps'
  | 'metrics'
  | 'metrics-charts'
  | 'rbtree-panel'
  | 'rt-runqueue'
  | 'dl-runqueue'
  | 'lanes'
  | 'exercise-panel';

export type Anchor = { atMs: number } | { mark: Mark; afterMs: number };

export interface LessonStep {
  /** Key suffix of the narration (lesson.<lesson id>.<id>). */
  id: string;
  /** Switches to this preset (later steps stay on it). */
  preset?: string;
  /** Runs this compare partner beside it on one clock (null: none), from this step on. */
  partner?: PartnerKind | null;
  anchor: Anchor;
  panel?: PanelId;
  /** CPUs outlined on the machine view. */
  cpus?: number[];
  /** Selects this CPU's runqueue. */
  selectCpu?: number;
  /** Zooms the lanes to this many ms ending at the cursor (from this step on, until the viewer zooms). */
  lanesMs?: number;
  question?: Question;
}

export interface Lesson {
  id: string;
  /** The preset the first step runs. */
  preset: string;
  steps: LessonStep[];
  /**
   * Scenarios of the lesson's own, by the name its `preset` fields give them
   * (a preset with a JavaScript policy, an exercise): each builds the text,
   * whose `name` must be that name (the lab tells the lesson's loads by it).
   */
  scenarios?: Record<string, () => string>;
}

/** The preset in force at step i: the latest one set at or before it. */
export function presetAt(lesson: Lesson, i: number): string {
  let p = lesson.preset;
  for (const s of lesson.steps.slice(0, i + 1)) if (s.preset) p = s.preset;
  return p;
}

/** The compare partner in force at step i: the latest one set at or before it (none if never). */
export function partnerAt(lesson: Lesson, i: number): PartnerKind | null {
  let p: PartnerKind | null = null;
  for (const s of lesson.steps.slice(0, i + 1)) if (s.partner !== undefined) p = s.partner;
  return p;
}

/** The text of the scenario a lesson calls `name`: its own, else the built-in preset. */
export function scenarioJson(lesson: Lesson, name: string): string {
  const own = lesson.scenarios && Object.hasOwn(lesson.scenarios, name) ? lesson.scenarios[name] : undefined;
  return own ? own() : presetJson(name);
}

export const range = (a: number, b: number): number[] => Array.from({ length: b - a + 1 }, (_, i) => a + i);
