// The compare partner: a second simulation in the engine worker, kept on the
// primary's clock by the worker itself — every state change of the primary
// brings the partner to the same simulated time, forward by running, backward
// by its own exact rewind. Here, as a store: which partner, its name, and its
// error.
import type { LabEngine } from '../stores/lab-engine';
import { problemOf, type Problem } from '../stores/problem';
import { createStore } from '../stores/store';
import { partnerScenario, type PartnerKind } from './variants';

export interface PartnerState {
  kind: PartnerKind | null;
  name: string;
  error: Problem | null;
}

export class Partner {
  readonly store = createStore<PartnerState>({ kind: null, name: '', error: null });

  constructor(private readonly engine: LabEngine) {}

  /** (Re)builds the partner of `kind` for the primary scenario; null removes it. */
  async build(k: PartnerKind | null, primaryJson: string): Promise<void> {
    this.store.set({ kind: k, error: null });
    try {
      const json = k ? partnerScenario(k, primaryJson) : null;
      await this.engine.setPartner(json);
      const name = json === null ? null : (JSON.parse(json) as { name?: unknown }).name;
      if (json !== null) this.store.set({ name: typeof name === 'string' ? name : '' });
    } catch (e) {
      this.store.set({ error: problemOf(e) });
      // The worker dropped the old partner before trying the new one.
      await this.engine.refresh();
    }
  }
}
