// What one refresh of the lab shows, read from a simulation in one go. The
// engine lives in a Web Worker (sim-worker.ts): after each command the worker
// reads a Frame for the lab's current FrameQuery and posts it; the views draw
// from the Frame alone, so no view ever waits on the engine. A query says only
// what the interface wants (which CPU's trees, the lanes' window, which slow
// parts are due), never where the simulation is: the worker fills in the rest
// at the cursor it has.
import type { Simulation } from './engine';
import type { RealRun } from './real-run';
import { laneRange, type LaneRange } from './lane-range';
import type {
  CpuSchedstat,
  DecisionView,
  EventView,
  LatencyCdf,
  LoadHistory,
  MigrationView,
  PlacementView,
  Report,
  RunSlice,
  SimView,
  TaskList,
} from './types';

/** Migrations younger than this (simulated time) are drawn as arrows. */
export const ARROW_WINDOW_NS = 20e6;
export const MAX_ARROWS = 32;
/** Task table rows: paused, and while playing (refreshed a few times a second, faster than anyone reads them);
 * forking workloads create thousands of short-lived tasks. */
export const MAX_ROWS = 300;
export const PLAYING_ROWS = 40;
/** The lanes' window is read in this many buckets at most per CPU (more than the widest lanes have pixels):
 * slices shorter than a bucket come once per bucket, so zooming out over a long run stays light. */
export const LANE_BUCKETS = 4096;
/** Records the event log shows. */
export const EVENT_LOG_ROWS = 14;

/** The lanes' window: its span, and its end (null: follow the cursor). */
export interface GanttWindow {
  spanNs: number;
  endNs: number | null;
}

/** What the lab holds of one machine: from which load (the worker counts them), how many names, which history. */
export interface Held {
  gen: number;
  names: number;
  historyKey: string | null;
}

export interface FrameQuery {
  /** The CPU whose trees are drawn. */
  cpu: number;
  gantt: GanttWindow;
  /** The slow parts (sorting every latency sample, hundreds of rows, the heatmap history): only when due. */
  report: boolean;
  /** Task table rows; 0 leaves the table as it was. */
  rows: number;
  /** Whether the heatmap history may come; it comes only when it changed since the one the lab holds. */
  history: boolean;
  /** What the lab holds of the simulation (task names: pids only grow, names never change). */
  held: Held;
  /** ... and of the compare partner, when there is one. */
  partner: Held | null;
}

/** The views of one machine at the cursor. */
export interface MachineFrame {
  /** Which load of the machine this frame is of; a frame of another load than the lab holds starts afresh. */
  gen: number;
  events: number;
  nowNs: number;
  durationNs: number;
  finished: boolean;
  /** Every CPU's counters, and the trees of the queried CPU. */
  view: SimView;
  migrations: MigrationView[];
  placement: PlacementView | null;
  decision: DecisionView | null;
  /** Names of pids from `namesFrom` on (the lab's count, or 0 for a new load). */
  namesFrom: number;
  newNames: string[];
  report: Report | null;
  cdfs: LatencyCdf[] | null;
  historyKey: string;
  history: LoadHistory | null;
}

export interface Frame extends MachineFrame {
  recentEvents: EventView[];
  /** The lanes' window as resolved at this cursor, and its slices. */
  ganttT0Ns: number;
  ganttT1Ns: number;
  /** The CPUs the lanes draw (past MAX_LANES CPUs, the queried CPU's node), and their slices. */
  lanes: LaneRange;
  slices: RunSlice[];
  /** The queried CPU's schedstats (read every frame: one CPU's are small; every CPU's were megabytes a report). */
  schedstat: CpuSchedstat | null;
  slicesKeptFromNs: number | null;
  tasks: TaskList | null;
  partner: MachineFrame | null;
}

/** The query with every slow part due: a cursor that has stopped moving (a job's end, a pause) shows the
 * report, task rows and history of where it stopped, never those of where a busy stretch last read them. */
export function settledQuery(q: FrameQuery): FrameQuery {
  return { ...q, report: true, rows: Math.max(q.rows, MAX_ROWS), history: true };
}

/** Where the lanes' window lies at `nowNs`: following, it ends at the cursor; a window panned past a cursor since rewound ends at it. */
export function ganttSpan(w: GanttWindow, nowNs: number): [number, number] {
  const end = w.endNs === null ? nowNs : Math.min(w.endNs, Math.max(nowNs, w.spanNs));
  const t0 = Math.max(0, end - w.spanNs);
  return [t0, t0 + w.spanNs];
}

function machineFrame(
  sim: Simulation | RealRun,
  gen: number,
  cpu: number,
  report: boolean,
  history: boolean,
  held: Held | null,
): MachineFrame {
  const nowNs = sim.nowNs;
  const key = sim.historyKey();
  // A lab holding another load's state (or none) gets everything afresh.
  const same = held !== null && held.gen === gen;
  const namesFrom = same ? held.names : 0;
  return {
    gen,
    events: sim.events,
    nowNs,
    durationNs: sim.durationNs,
    finished: sim.finished,
    view: sim.frame(cpu),
    migrations: sim.migrations(Math.max(0, nowNs - ARROW_WINDOW_NS), MAX_ARROWS),
    placement: sim.placements(1)[0] ?? null,
    decision: sim.decisions(1, true)[0] ?? null,
    namesFrom,
    newNames: sim.namesFrom(namesFrom),
    report: report || !same ? sim.pageReport() : null,
    cdfs: report || !same ? sim.latencyCdfs(40) : null,
    historyKey: key,
    history: !same || (history && held.historyKey !== key) ? sim.history() : null,
  };
}

/** A simulation and the count of loads it is the last of. */
export interface CountedSim {
  /** A simulation, or a real trace opened in the lab (read the same way). */
  sim: Simulation | RealRun;
  gen: number;
}

/** Reads the frame `q` asks for from the lab's simulation (and its compare partner). */
export function readFrame(main: CountedSim, q: FrameQuery, partner: CountedSim | null): Frame {
  const sim = main.sim;
  const m = machineFrame(sim, main.gen, q.cpu, q.report, q.history, q.held);
  const [t0, t1] = ganttSpan(q.gantt, m.nowNs);
  const shape = sim.shape();
  const lanes = laneRange(shape.nrCpus, shape.cpusPerNode, q.cpu);
  return {
    ...m,
    recentEvents: sim.recentEvents(EVENT_LOG_ROWS),
    ganttT0Ns: t0,
    ganttT1Ns: t1,
    lanes,
    slices: sim.slices(t0, t1, Math.floor((t1 - t0) / LANE_BUCKETS), lanes.lo, lanes.hi),
    schedstat: sim.schedstatOf(q.cpu),
    slicesKeptFromNs: sim.slicesKeptFromNs(),
    tasks: q.rows > 0 || m.namesFrom === 0 ? sim.listedTasks(q.rows > 0 ? q.rows : MAX_ROWS) : null,
    partner: partner ? machineFrame(partner.sim, partner.gen, 0, q.report, q.history, q.partner) : null,
  };
}
