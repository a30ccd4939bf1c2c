// What one refresh of the lab shows, read from a simulation in one go. The
// engine lives in a Web Worker (sim-worker.ts): after each command the worker
// makes one frame call per machine (wasm-core/src/api/views/frame.rs: a JSON header
// and typed arrays), posts them with the arrays transferred, not copied, and
// the page inflates them into a Frame (`inflateFrame`); the views draw from the
// Frame alone, so no view ever waits on the engine. A query says only what the
// interface wants (which CPU's trees, the lanes' window, which slow parts are
// due), never where the simulation is: the engine fills in the rest at the
// cursor it has.
import type { FramePacket } from '../../wasm-core/pkg/schedlab_core.js';
import { laneRange, type LaneRange } from './lane-range';
import type { FrameHeader, FrameQuery as EngineQuery } from './generated/engine';
import type {
  CpuSchedstat,
  CpuView,
  DecisionView,
  EventView,
  LatencyCdf,
  LoadHistory,
  MigrationView,
  MissView,
  PlacementView,
  Report,
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
/** Points of each wakeup latency curve. */
export const CDF_POINTS = 40;

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
  /** Run slices as flat quads [cpu, pid, start_ns, end_ns, …] (the engine's own array, transferred). */
  slices: Float64Array;
  /** The queried CPU's schedstats (read every frame: one CPU's are small; every CPU's were megabytes a report). */
  schedstat: CpuSchedstat | null;
  slicesKeptFromNs: number | null;
  tasks: TaskList | null;
  /** The deadlines missed late across the lanes' window on their CPUs (none for a trace). */
  misses: MissView[];
  partner: MachineFrame | null;
}

/** The query with every slow part due: a cursor that has stopped moving (a job's end, a pause) shows the
 * report, task rows and history of where it stopped, never those of where a busy stretch last read them. */
export function settledQuery(q: FrameQuery): FrameQuery {
  return { ...q, report: true, rows: Math.max(q.rows, MAX_ROWS), history: true };
}

/** The numbers of a CPU in a frame's `cpus` array, in the engine's order (`frameCpuFields()`, checked by a test). */
export const CPU_FIELDS = [
  'online',
  'curr',
  'nr_running',
  'min_vruntime',
  'load_weight',
  'root_curr',
  'load',
  'tick_stopped',
] as const;

/** One machine's frame as the engine gave it (the header parsed, the arrays as they came), and what it is of. */
export interface PostedMachine extends FramePart {
  gen: number;
  /** The pid the new names start at (the query's). */
  namesFrom: number;
}

/** What the worker posts for a refresh; `transferables` lists the buffers it hands over. */
export interface PostedFrame {
  main: PostedMachine;
  lanes: LaneRange;
  partner: PostedMachine | null;
}

/** One engine frame call's answer, its header parsed and its history's shape put with its arrays. */
export interface FramePart {
  header: FrameHeader;
  cpus: Float64Array;
  slices: Float64Array;
  history: LoadHistory | null;
}

/** An engine frame call's answer with its history's shape put beside the history's arrays (the header arrives parsed, typed by the struct that wrote it). */
export function framePart(p: FramePacket): FramePart {
  const header = p.header;
  const shape = header.history;
  const history = p.history && shape ? { widthNs: shape.width_ns, buckets: shape.buckets, ...p.history } : null;
  return { header, cpus: p.cpus, slices: p.slices, history };
}

/** A run the worker reads frames of: a simulation or a recorded trace. */
export interface FrameRun {
  framePacket(q: EngineQuery): FramePart;
  shape(): { nrCpus: number; cpusPerNode: number };
}

function engineQuery(q: FrameQuery, cpu: number, held: Held | null, gen: number, lanes: LaneRange | null): EngineQuery {
  // A lab holding another load's state (or none) gets everything afresh.
  const same = held !== null && held.gen === gen;
  return {
    cpu,
    fresh: !same,
    report: q.report,
    cdf_points: CDF_POINTS,
    history: q.history,
    history_key: same ? held.historyKey : null,
    names_from: same ? held.names : 0,
    arrows: MAX_ARROWS,
    arrow_window_ns: ARROW_WINDOW_NS,
    lanes: lanes && {
      span_ns: Math.round(q.gantt.spanNs),
      end_ns: q.gantt.endNs === null ? null : Math.max(0, Math.round(q.gantt.endNs)),
      buckets: LANE_BUCKETS,
      lo: lanes.lo,
      hi: lanes.hi,
      events: EVENT_LOG_ROWS,
      rows: q.rows,
      fresh_rows: MAX_ROWS,
    },
  };
}

/** A simulation and the count of loads it is the last of. */
export interface CountedSim {
  /** A simulation, or a real trace opened in the lab (read the same way). */
  sim: FrameRun;
  gen: number;
}

/** Reads the frame `q` asks for from the lab's simulation (and its compare partner): one engine call each. */
export function readFrame(main: CountedSim, q: FrameQuery, partner: CountedSim | null): PostedFrame {
  const shape = main.sim.shape();
  const lanes = laneRange(shape.nrCpus, shape.cpusPerNode, q.cpu);
  const mq = engineQuery(q, q.cpu, q.held, main.gen, lanes);
  const posted: PostedFrame = {
    main: { gen: main.gen, namesFrom: mq.names_from, ...main.sim.framePacket(mq) },
    lanes,
    partner: null,
  };
  if (partner) {
    const pq = engineQuery(q, 0, q.partner, partner.gen, null);
    posted.partner = { gen: partner.gen, namesFrom: pq.names_from, ...partner.sim.framePacket(pq) };
  }
  return posted;
}

/** The buffers a posted frame hands to the page (they are the worker's no more). */
export function transferables(f: PostedFrame): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const m of [f.main, f.partner]) {
    if (!m) continue;
    out.push(m.cpus.buffer as ArrayBuffer, m.slices.buffer as ArrayBuffer);
    if (m.history) {
      const h = m.history;
      out.push(h.nrRunning.buffer as ArrayBuffer, h.load.buffer as ArrayBuffer);
      out.push(h.migrations.buffer as ArrayBuffer, h.wasted.buffer as ArrayBuffer);
    }
  }
  return out;
}

/** Every CPU's counters from the `cpus` array, with the detail CPU's trees from the header. */
function cpuViews(h: FrameHeader, cpus: Float64Array): CpuView[] {
  const n = CPU_FIELDS.length;
  const out: CpuView[] = [];
  const pid = (x: number) => (x < 0 ? null : x);
  for (let i = 0; i + n <= cpus.length; i += n) {
    const cpu = i / n;
    if (h.detail && h.detail.cpu === cpu) {
      out.push(h.detail);
      continue;
    }
    out.push({
      cpu,
      online: cpus[i] === 1,
      curr: pid(cpus[i + 1]),
      nr_running: cpus[i + 2],
      min_vruntime: cpus[i + 3],
      load_weight: cpus[i + 4],
      root_curr: pid(cpus[i + 5]),
      load: cpus[i + 6],
      tick_stopped: cpus[i + 7] === 1,
      tree: { root: null, nodes: [] },
      groups: [],
      under: null,
      o1: null,
      cpu_load: null,
      eevdf: null,
      rt: null,
      dl: null,
      classes: null,
      stop_works: [],
    });
  }
  return out;
}

/** The view a frame part draws: every CPU's counters, the detail CPU's trees, no tasks. */
export function viewOf(h: FrameHeader, cpus: Float64Array): SimView {
  return {
    now_ns: h.now_ns,
    events: h.events,
    finished: h.finished,
    cpus: cpuViews(h, cpus),
    tasks: [],
    rotations: h.rotations,
  };
}

/** The least a frame call can ask: `cpu`'s trees and every CPU's counters, nothing else. */
export function countersQuery(cpu: number): EngineQuery {
  return {
    cpu,
    fresh: false,
    report: false,
    cdf_points: 0,
    history: false,
    history_key: null,
    names_from: 0xffffffff,
    arrows: 0,
    arrow_window_ns: 0,
    lanes: null,
  };
}

function machineOf(m: PostedMachine): MachineFrame {
  const h = m.header;
  return {
    gen: m.gen,
    events: h.events,
    nowNs: h.now_ns,
    durationNs: h.duration_ns,
    finished: h.finished,
    view: viewOf(h, m.cpus),
    migrations: h.migrations,
    placement: h.placement,
    decision: h.decision,
    namesFrom: m.namesFrom,
    newNames: h.new_names,
    report: h.report,
    cdfs: h.cdfs,
    historyKey: h.history_key,
    history: m.history,
  };
}

/** The page's Frame from what the worker posted. */
export function inflateFrame(f: PostedFrame): Frame {
  const m = machineOf(f.main);
  const l = f.main.header.lanes;
  return {
    ...m,
    recentEvents: l?.recent_events ?? [],
    ganttT0Ns: l?.t0_ns ?? 0,
    ganttT1Ns: l?.t1_ns ?? 0,
    lanes: f.lanes,
    slices: f.main.slices,
    schedstat: l?.schedstat ?? null,
    slicesKeptFromNs: l?.slices_kept_from_ns ?? null,
    tasks: l?.tasks ?? null,
    misses: l?.misses ?? [],
    partner: f.partner ? machineOf(f.partner) : null,
  };
}
