// A real trace opened in the lab, behind the same methods as a Simulation
// (engine.ts) so the frame reader (frame.ts) and the worker (host.ts) treat it
// as one: the wasm `RealTrace` reads the trace once and answers the views at a
// cursor. A trace is recorded, not simulated: moving the cursor is all it can
// do; what needs the model's state (trees, balancing decisions, placements,
// schedstats) is empty, and the page says it exists only for simulations.
import { RealTrace } from '../../wasm-core/pkg/schedlab_core.js';
import { framePart, type FramePart } from './frame';
import type { FrameQuery as EngineFrameQuery } from './generated/engine';
import limits from './generated/limits.json';
import type { DecisionView, LatencyCdf, Mark, MigrationView, PlacementView, Report, TopologyView } from './types';

/** The largest trace file the page opens (bytes): the engine's own limit, generated (the page checks a file's size before reading it, without the wasm module). */
export function traceLimit(): number {
  return limits.page_trace_bytes;
}

/** What the page shows of an opened trace besides the views. */
export interface TraceInfo {
  name: string;
  format: string;
  kernel: string;
  cpus: number;
}

export class RealRun {
  private readonly trace: RealTrace;
  private shapeCache: { nrCpus: number; cpusPerNode: number } | null = null;

  /** Throws the importer's message (a damaged line named by its number). */
  constructor(
    text: string,
    readonly name: string,
  ) {
    this.trace = new RealTrace(text, name, 0);
  }

  info(): TraceInfo {
    const r = this.trace.real_report();
    return { name: this.name, format: r.format, kernel: r.report.kernel, cpus: r.report.cpus.length };
  }

  /** `{format, report}` as `schedsim real-trace --json` prints it. */
  realReportJson(): string {
    return this.trace.real_report_json();
  }

  get events(): number {
    return this.trace.events();
  }
  get nowNs(): number {
    return this.trace.now_ns();
  }
  get durationNs(): number {
    return this.trace.duration_ns();
  }
  get finished(): boolean {
    return this.nowNs >= this.durationNs;
  }

  seekTime(tNs: number): void {
    this.trace.seek_time(tNs);
  }
  runUntil(tNs: number): void {
    this.trace.seek_time(tNs);
  }
  seekEvent(n: number): void {
    this.trace.seek_time(this.trace.time_of_event(n));
  }
  /** The next record's time (records at one instant are passed together). */
  stepEvent(): boolean {
    if (this.finished) return false;
    this.trace.seek_time(this.trace.time_of_event(this.events + 1));
    return true;
  }
  stepTick(): boolean {
    return false;
  }
  stepMark(_mark: Mark, _forward: boolean): boolean {
    return false;
  }

  /** One refresh of the lab in one engine call, as a simulation's (see frame.ts). */
  framePacket(q: EngineFrameQuery): FramePart {
    return framePart(this.trace.frame(JSON.stringify(q)));
  }
  viewJson(): string {
    return this.trace.view_json();
  }
  report(): Report {
    return this.trace.page_metrics();
  }
  decisions(_n: number, _designatedOnly: boolean): DecisionView[] {
    return [];
  }
  placements(_n: number): PlacementView[] {
    return [];
  }
  migrations(sinceNs: number, n: number): MigrationView[] {
    return this.trace.migrations(sinceNs, n);
  }
  shape(): { nrCpus: number; cpusPerNode: number } {
    if (!this.shapeCache) {
      const t = this.topology();
      this.shapeCache = { nrCpus: t.cpus.length, cpusPerNode: t.cores_per_node * t.threads_per_core };
    }
    return this.shapeCache;
  }
  topology(): TopologyView {
    return this.trace.topology();
  }
  /** The workload's wakeup latency (sched_waking to running), over the whole recording. */
  latencyCdfs(points: number): LatencyCdf[] {
    return this.trace.latency_cdfs(points);
  }
  traceHash(): string {
    return '';
  }
  dispose(): void {
    this.trace.free();
  }
}
