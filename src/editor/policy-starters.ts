// The starter policies a JavaScript scheduler begins from: the very files the
// engine's own tests run (wasm-core/policies/), read as text by Vite's `?raw`.
// Loaded with the code editor (a dynamic import), not with the first page.
// Their titles and one-line explanations are in the editor's catalog,
// `editor.starter.<id>` and `editor.starterAbout.<id>`.
import globalFifo from '../../wasm-core/policies/global-fifo.js?raw';
import percpuRr from '../../wasm-core/policies/percpu-rr.js?raw';
import weightedVtime from '../../wasm-core/policies/weighted-vtime.js?raw';
import keepBusy from '../../wasm-core/policies/keep-busy-skeleton.js?raw';
import { setField } from './field-paths';
import type { FormModel } from './scenario-form';

export interface Starter {
  id: string;
  source: string;
}

/** In the order the picker shows them: simplest first, the exercise last. */
export const STARTERS: readonly Starter[] = [
  { id: 'global-fifo', source: globalFifo },
  { id: 'percpu-rr', source: percpuRr },
  { id: 'weighted-vtime', source: weightedVtime },
  { id: 'keep-busy-skeleton', source: keepBusy },
];

/** The starter a source is, unchanged; null when it is anything else. */
export function starterOf(source: string): Starter | null {
  return STARTERS.find((s) => s.source === source) ?? null;
}

/** Whether replacing the source would lose typing: it is neither empty nor an untouched starter. */
export function isEdited(source: string): boolean {
  return source.trim() !== '' && starterOf(source) === null;
}

/**
 * The policy after its kind was changed. Choosing 'ext' with no source
 * starts from the global FIFO, so there is something that runs at once.
 * Leaving 'ext' drops a source nobody edited (and the watchdog with it): the
 * engine refuses a source under another kind, and nothing typed is lost; an
 * edited one stays, with the engine's message saying why it is refused.
 */
export function afterKindChange(m: FormModel): FormModel {
  const p = m.policy;
  if (p.kind === 'ext') return p.source.trim() === '' ? setField(m, 'policy.source', STARTERS[0].source) : m;
  if (isEdited(p.source) || (p.source === '' && p.watchdog_ms === '')) return m;
  return setField(setField(m, 'policy.source', ''), 'policy.watchdog_ms', '');
}
