// The TypeScript facade over the wasm engine. It owns the lifetime of the
// Rust-side handle: call dispose() when a simulation is replaced, or its
// memory stays allocated in the wasm heap.
import init, { Simulator, presetList, presetScenario } from '../../wasm-core/pkg/schedlab_core.js';
import type { DecisionView, EventView, PresetInfo, Report, RunSlice, SimView } from './types';

let ready: Promise<void> | null = null;

/** Loads and instantiates the wasm module once. */
export function loadEngine(): Promise<void> {
  ready ??= init().then(() => undefined);
  return ready;
}

export function listPresets(): PresetInfo[] {
  return JSON.parse(presetList()) as PresetInfo[];
}

export function presetJson(name: string): string {
  return presetScenario(name);
}

/** A running simulation. Throws on construction if the scenario is invalid. */
export class Simulation {
  private sim: Simulator;

  constructor(scenarioJson: string) {
    this.sim = new Simulator(scenarioJson);
  }

  stepEvent(): boolean {
    return this.sim.step_event();
  }

  stepTick(): boolean {
    return this.sim.step_tick();
  }

  runUntil(tNs: number): void {
    this.sim.run_until(tNs);
  }

  get nowNs(): number {
    return this.sim.now_ns();
  }

  get durationNs(): number {
    return this.sim.duration_ns();
  }

  get finished(): boolean {
    return this.sim.finished();
  }

  view(): SimView {
    return JSON.parse(this.sim.view_json()) as SimView;
  }

  report(): Report {
    return JSON.parse(this.sim.metrics_json()) as Report;
  }

  recentEvents(n: number): EventView[] {
    return JSON.parse(this.sim.recent_events(n)) as EventView[];
  }

  /** Run slices overlapping [t0, t1], decoded from the engine's flat quads. */
  slices(t0Ns: number, t1Ns: number): RunSlice[] {
    const flat = this.sim.slices(t0Ns, t1Ns);
    const out: RunSlice[] = [];
    for (let i = 0; i + 3 < flat.length; i += 4) {
      out.push({ cpu: flat[i], pid: flat[i + 1], startNs: flat[i + 2], endNs: flat[i + 3] });
    }
    return out;
  }

  /** The n most recent balancing decisions (oldest first). */
  decisions(n: number, designatedOnly: boolean): DecisionView[] {
    return JSON.parse(this.sim.decisions_json(n, designatedOnly)) as DecisionView[];
  }

  traceHash(): string {
    return this.sim.trace_hash();
  }

  /** Frees the Rust-side simulator; the wrapper must not be used afterwards. */
  dispose(): void {
    this.sim.free();
  }
}
