// The TypeScript facade over the wasm engine. It owns the lifetime of the
// Rust-side handle: call dispose() when a simulation is replaced, or its
// memory stays allocated in the wasm heap. In the app, Simulations live only
// in the engine worker (host.ts); the page uses this module for the pure
// lookups (preset list and texts) and talks to the worker (client.ts).
import init, { Simulator } from '../../wasm-core/pkg/schedlab_core.js';
import { countersQuery, framePart, viewOf, type FramePart } from './frame';
import { PRESETS, presetText } from './presets';
import type { FrameQuery as EngineFrameQuery } from './generated/engine';
import type {
  DecisionView,
  LatencyCdf,
  Mark,
  MigrationView,
  PlacementView,
  PresetInfo,
  Report,
  SimView,
  TaskView,
  TopologyView,
} from './types';

/** A trace export: the JSON text, the trace events it holds, and where the cap cut it (ns; null: not cut). */
export interface ChromeTraceOut {
  json: string;
  events: number;
  truncatedAtNs: number | null;
}

let ready: Promise<void> | null = null;

/** Loads and instantiates the wasm module once. */
export function loadEngine(): Promise<void> {
  ready ??= init().then(() => undefined);
  return ready;
}

export function listPresets(): readonly PresetInfo[] {
  return PRESETS;
}

export function presetJson(name: string): string {
  return presetText(name);
}

/** A running simulation. Throws on construction if the scenario is invalid. */
export class Simulation {
  private sim: Simulator;
  private names: string[] = [];
  /** CPUs and CPUs per node: fixed for a simulation's life (hotplug changes only who is online). */
  private shapeCache: { nrCpus: number; cpusPerNode: number } | null = null;

  constructor(private readonly scenarioJson: string) {
    this.sim = new Simulator(scenarioJson);
  }

  /** A second simulation in exactly this one's state (its timeline of snapshots too); dispose it after use. */
  copy(): Simulation {
    const c = new Simulation(this.scenarioJson);
    const state = this.sim.save();
    c.sim.restore(state);
    state.free();
    return c;
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

  /** As runUntil, processing at most maxEvents events; true when it got to tNs (calls from where it stopped add up to one runUntil). */
  runUntilLimited(tNs: number, maxEvents: number): boolean {
    return this.sim.run_until_limited(tNs, maxEvents);
  }

  /** Goes exactly (snapshot + deterministic replay) to the state right after event n. */
  seekEvent(n: number): void {
    this.sim.seek_event(n);
  }

  /** Goes exactly to simulated time t, forward or back. */
  seekTime(tNs: number): void {
    this.sim.seek_time(tNs);
  }

  /** Steps to the next (forward) or previous mark; false when there is none. */
  stepMark(mark: Mark, forward: boolean): boolean {
    return this.sim.step_mark(mark, forward);
  }

  /** As stepMark forward, stopping once past limitNs: 1 found, 0 run ended, -1 stopped at the limit. */
  stepMarkUntil(mark: Mark, limitNs: number): number {
    return this.sim.step_mark_until(mark, limitNs);
  }

  /** Starts a backward search for the previous mark (see prevMarkContinue). */
  prevMarkStart(mark: Mark): void {
    this.sim.prev_mark_start(mark);
  }

  /** Scans one more snapshot window back: 1 found (moved there), 0 none, -1 not yet. */
  prevMarkContinue(): number {
    return this.sim.prev_mark_continue();
  }

  prevMarkSearchedTo(): number {
    return this.sim.prev_mark_searched_to();
  }

  get events(): number {
    return this.sim.events();
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

  /** The whole state at the cursor: every CPU's trees and every task. */
  view(): SimView {
    return this.sim.view();
  }

  /** The same as JSON text (cheap to post between threads; a 10,000-task object graph is not). */
  viewJson(): string {
    return this.sim.view_json();
  }

  /** Every CPU's counters and the trees of `cpu`, no tasks (the classroom's predictions step a copy and read this). */
  frame(cpu: number): SimView {
    const p = this.framePacket(countersQuery(cpu));
    return viewOf(p.header, p.cpus);
  }

  /** One refresh of the lab in one engine call (see frame.ts). */
  framePacket(q: EngineFrameQuery): FramePart {
    return framePart(this.sim.frame(JSON.stringify(q)));
  }

  tasks(): TaskView[] {
    return this.sim.tasks();
  }

  /** Task names, fetched once each (names never change; pids only grow). */
  nameOf(pid: number): string {
    if (pid >= this.names.length) {
      const n = this.sim.nr_tasks();
      if (n > this.names.length) this.names.push(...this.sim.task_names(this.names.length));
    }
    return this.names[pid] ?? `pid ${pid}`;
  }

  /** Names of the pids from `from` on (the worker sends the lab only names it does not have). */
  namesFrom(from: number): string[] {
    return this.sim.nr_tasks() > from ? this.sim.task_names(from) : [];
  }

  report(): Report {
    return this.sim.metrics();
  }

  /** The report without schedstats (a frame's: the page reads the selected CPU's alone, `schedstatOf`). */
  pageReport(): Report {
    return this.sim.page_metrics();
  }

  /** The n most recent balancing decisions (oldest first). */
  decisions(n: number, designatedOnly: boolean): DecisionView[] {
    return this.sim.decisions(n, designatedOnly);
  }

  /** The n most recent wakeup/fork placements (oldest first). */
  placements(n: number): PlacementView[] {
    return this.sim.placements(n);
  }

  /** The machine's CPU count and CPUs per node (read once). */
  shape(): { nrCpus: number; cpusPerNode: number } {
    if (!this.shapeCache) {
      const t = this.topology();
      this.shapeCache = { nrCpus: t.cpus.length, cpusPerNode: t.cores_per_node * t.threads_per_core };
    }
    return this.shapeCache;
  }

  topology(): TopologyView {
    return this.sim.topology();
  }

  /** Up to n migrations at or after sinceNs among the recent trace records. */
  migrations(sinceNs: number, n: number): MigrationView[] {
    return this.sim.migrations(sinceNs, n);
  }

  /** Each woken process's wakeup latency quantiles (points + 1 of them). */
  latencyCdfs(points: number): LatencyCdf[] {
    return this.sim.latency_cdfs(points);
  }

  /** The run from its start to the cursor as Chrome / Perfetto trace JSON text (replayed in wasm; capped), with its fields. */
  chromeTrace(): ChromeTraceOut {
    const e = this.sim.chrome_trace();
    const out = { json: e.json, events: e.events, truncatedAtNs: e.truncated_at_ns ?? null };
    e.free();
    return out;
  }

  /** The metrics report at the cursor as CSV (quoted, formula-safe). */
  metricsCsv(): string {
    return this.sim.metrics_csv();
  }

  traceHash(): string {
    return this.sim.trace_hash();
  }

  /** Frees the Rust-side simulator; the wrapper must not be used afterwards. */
  dispose(): void {
    this.sim.free();
  }
}
