// What the lab has loaded: the scenario's text and the name and description
// the header shows, or the real trace open in its place; the engine's last
// refusal; the trace file being read.
import type { TraceInfo } from '../engine/real-run';
import type { Problem } from './problem';
import { createStore } from './store';

/** A real trace open in the lab instead of a simulation. */
export interface OpenTrace {
  info: TraceInfo;
  file: File;
}

export interface ScenarioState {
  /** The scenario's JSON exactly as loaded (share links carry it). */
  json: string;
  name: string;
  description: string;
  /** Why the lab could not open the last thing it was given: the page's words, the engine's quoted. */
  error: Problem | null;
  trace: OpenTrace | null;
  /** The trace file being read and parsed in the worker (a large one takes seconds). */
  reading: string | null;
}

export const createScenarioStore = (json: string, name: string) =>
  createStore<ScenarioState>({ json, name, description: '', error: null, trace: null, reading: null });
