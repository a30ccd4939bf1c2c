// The engine's answers the editor needs, straight from the wasm module: every
// problem of a scenario text, and the choices the format offers.
import { scenarioChoices, validateScenario } from '../../wasm-core/pkg/schedlab_core.js';
import type { Choices, Problem } from '../engine/generated/engine';

export type { Choices, MachineChoice } from '../engine/generated/engine';

/** Every problem the engine finds in scenario text (empty: it would load). */
export function engineProblems(text: string): Problem[] {
  return validateScenario(text);
}

let cached: Choices | null = null;
export function choices(): Choices {
  cached ??= scenarioChoices();
  return cached;
}
