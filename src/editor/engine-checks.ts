// The engine's answers the editor needs, straight from the wasm module: every
// problem of a scenario text, and the choices the format offers.
import { scenarioChoices, validateScenario } from '../../wasm-core/pkg/schedlab_core.js';
import type { Problem } from './field-paths';
import type { Json } from './scenario-form';

export interface MachineChoice {
  name: string;
  nodes: number;
  cores_per_node: number;
  threads_per_core: number;
  nodes_per_package: number;
  distance: number[][];
}

export interface Choices {
  machines: MachineChoice[];
  templates: { name: string; program: Json[] }[];
  policies: string[];
  bug_profiles: string[];
  identities: string[];
}

/** Every problem the engine finds in scenario text (empty: it would load). */
export function engineProblems(text: string): Problem[] {
  return JSON.parse(validateScenario(text)) as Problem[];
}

let cached: Choices | null = null;
export function choices(): Choices {
  cached ??= JSON.parse(scenarioChoices()) as Choices;
  return cached;
}
