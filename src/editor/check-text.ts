// One check of a scenario text, wherever it runs (the editor's worker, or the
// page when that worker cannot start): whether it parses as an object, its
// form model when asked for, and every problem the engine finds.
import { engineProblems } from './engine-checks';
import { fromScenario, type FormModel, type JsonObject } from './scenario-form';
import type { Problem } from './field-paths';

export interface CheckRequest {
  id: number;
  text: string;
  /** Read the text into a form model too (a text the page did not parse itself). */
  wantModel: boolean;
}

export interface CheckResult {
  problems: Problem[];
  /** The text's form model, when asked for and it parses as an object. */
  model: FormModel | null;
  /** Why the text is not a scenario object (null: it is one). */
  syntax: string | null;
}

/** What the worker answers: null when a newer request came before this one was started. */
export interface CheckReply {
  id: number;
  result: CheckResult | null;
}

/** The text parsed as a scenario object, or why it is not one. */
export function parseObject(text: string): JsonObject | string {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as JsonObject)
      : 'the scenario must be a JSON object';
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

export function checkText(text: string, wantModel: boolean): CheckResult {
  let problems: Problem[];
  try {
    problems = engineProblems(text);
  } catch (e) {
    problems = [
      { path: '', message: `the engine could not check this scenario: ${e instanceof Error ? e.message : String(e)}` },
    ];
  }
  const parsed = wantModel ? parseObject(text) : null;
  return {
    problems,
    model: parsed !== null && typeof parsed !== 'string' ? fromScenario(parsed) : null,
    syntax: typeof parsed === 'string' ? parsed : null,
  };
}
