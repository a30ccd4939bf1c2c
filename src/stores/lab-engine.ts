// The lab's side of the engine worker, as a store: the latest Frame with what
// it keeps between frames (task names, the last report, task rows, heatmap
// history), the frame each heavy view group draws, the commands as promises,
// long jobs with progress and Cancel, and the play loop. What each request
// asks for and which group draws which frame is the refresh scheduler's
// (refresh.ts).
import type { Answer, EngineClient } from '../engine/client';
import { callOp, type CallKey } from '../engine/extensions';
import type { Frame, FrameQuery, GanttWindow, MachineFrame } from '../engine/frame';
import { MAX_ROWS, PLAYING_ROWS } from '../engine/frame';
import type { JobProgress, JobSpec } from '../engine/jobs';
import { PLAY_REQUEST_MS, PlayPace, fmtSpeed, type PlayAsk } from '../engine/play-pace';
import type { Command, JobEnd, Loaded, Moved, Op, Read } from '../engine/protocol';
import type { TraceInfo } from '../engine/real-run';
import type { LatencyCdf, LoadHistory, Report, TaskList, TopologyView } from '../engine/types';
import { RefreshScheduler, type SeenPart, type ViewGroup } from './refresh';
import { createStore } from './store';

/** One machine's state as the views draw it. */
export interface MachineData {
  /** Which load of the machine (frames of another start afresh). */
  gen: number;
  frame: MachineFrame;
  topology: TopologyView;
  names: string[];
  report: Report | null;
  cdfs: LatencyCdf[];
  history: LoadHistory | null;
  historyKey: string | null;
}

export interface LabData extends MachineData {
  frame: Frame;
  tasks: TaskList;
  partner: MachineData | null;
}

/** A long job as the progress bar shows it. */
export interface Progress {
  label: string;
  fraction: number;
  detail: string;
}

/** What the lab shows, which the worker reads for it. */
export interface LabUi {
  cpu: number;
  gantt: GanttWindow;
}

export interface EngineState {
  /** The latest frame taken in, with what the lab keeps between frames. */
  data: LabData | null;
  /** The frame each heavy view group draws (the refresh scheduler's turn while busy). */
  shown: Record<ViewGroup, LabData | null>;
  /** Bumped on every frame taken in. */
  version: number;
  progress: Progress | null;
  playing: boolean;
  /** The speed Play achieves (null until measured, or when not playing). */
  achieved: number | null;
}

/** A machine's data with frame `f` taken in; `prev` is what the lab held of the same load, if anything. */
export function machineData(f: MachineFrame, topology: TopologyView, prev: MachineData | null): MachineData {
  const d: MachineData = prev
    ? { ...prev, frame: f }
    : { gen: f.gen, frame: f, topology, names: [], report: null, cdfs: [], history: null, historyKey: null };
  // Names by pid: frames answer what their query held, and several can be under way at once.
  const end = f.namesFrom + f.newNames.length;
  if (f.namesFrom <= d.names.length && end > d.names.length) d.names = d.names.slice(0, f.namesFrom).concat(f.newNames);
  if (f.report) {
    d.report = f.report;
    d.cdfs = f.cdfs ?? [];
  }
  if (f.history) {
    d.history = f.history;
    d.historyKey = f.historyKey;
  }
  return d;
}

/** A job's progress in words: time jobs in ms, the others in events. */
const defaultDetail = (p: JobProgress) =>
  p.unit === 'events' ? `${p.at} / ${p.of}` : `${(p.at / 1e6).toFixed(3)} / ${(p.of / 1e6).toFixed(3)} ms`;

export class LabEngine {
  readonly store = createStore<EngineState>({
    data: null,
    shown: { topology: null, runqueue: null, lanes: null },
    version: 0,
    progress: null,
    playing: false,
    achieved: null,
  });
  /** The requests of the current (or last) play, for the test hook. */
  readonly asks: PlayAsk[] = [];
  private readonly refreshes = new RefreshScheduler();
  /** The parts of the page scrolled out of view (app/seen.tsx): while busy, nothing is drawn or read for them. */
  private readonly unseen = new Set<SeenPart>();
  // Each machine's shape with its load count: a load's answer brings it before any frame of that load,
  // and a frame of any other load (read for an older request) is not taken in.
  private shape: { gen: number; topology: TopologyView } | null = null;
  private partnerShape: { gen: number; topology: TopologyView } | null = null;
  /** Counts jobs and commands: a job's progress is shown only while it is the latest. */
  private jobs = 0;
  /** Set while a job runs, before its progress reaches the store. */
  private inJob = false;
  private stopPlay: (() => void) | null = null;

  /** `ui` is what the lab shows now; `speed` the play speed asked for. */
  constructor(
    private readonly client: EngineClient,
    private readonly ui: () => LabUi,
    private readonly speed: () => number,
  ) {}

  get data(): LabData | null {
    return this.store.get().data;
  }

  private get busy(): boolean {
    return this.store.get().playing || this.inJob;
  }

  private query(): FrameQuery {
    const d = this.data;
    const { report, tasks, history } = this.refreshes.ask(this.busy, performance.now(), this.unseen);
    const held = (m: MachineData | null) =>
      m ? { gen: m.gen, names: m.names.length, historyKey: m.historyKey } : null;
    const ui = this.ui();
    return {
      cpu: ui.cpu,
      gantt: ui.gantt,
      report,
      rows: tasks ? (this.busy ? PLAYING_ROWS : MAX_ROWS) : 0,
      history,
      held: held(d) ?? { gen: -1, names: 0, historyKey: null },
      partner: held(d?.partner ?? null),
    };
  }

  /** Takes in a frame the worker read. */
  private apply(f: Frame | null): void {
    const s = this.shape;
    if (!f || s?.gen !== f.gen) return;
    const prev = this.data;
    const main = machineData(f, s.topology, prev?.gen === f.gen ? prev : null);
    const ps = this.partnerShape;
    const pPrev = prev?.partner ?? null;
    const partner =
      f.partner && ps?.gen === f.partner.gen
        ? machineData(f.partner, ps.topology, pPrev?.gen === f.partner.gen ? pPrev : null)
        : null;
    const data: LabData = { ...main, frame: f, tasks: f.tasks ?? prev?.tasks ?? { rows: [], total: 0 }, partner };
    const groups = this.refreshes.draw(this.busy, this.unseen);
    this.store.set((st) => ({
      data,
      shown: { ...st.shown, ...Object.fromEntries(groups.map((g) => [g, data])) },
      version: st.version + 1,
    }));
  }

  /** Whether a part of the page is in view (app/seen.tsx tells, as the page scrolls or lays out anew). */
  setSeen(part: SeenPart, seen: boolean): void {
    if (seen) this.unseen.delete(part);
    else this.unseen.add(part);
  }

  /** Replaces the simulation; throws the engine's message if it refused the scenario (the old one then stays). */
  async load(json: string): Promise<void> {
    this.endJobs();
    this.setPlaying(false);
    const a = await this.client.request<Loaded>({ op: 'load', json }, this.query());
    this.shape = a.value;
    this.apply(a.frame);
  }

  /** Replaces the lab's run with a real trace read in the worker; throws the importer's message (the old run then stays). */
  async openTrace(file: Blob, name: string): Promise<TraceInfo> {
    this.endJobs();
    this.setPlaying(false);
    const a = await this.client.request<Loaded>({ op: 'open-trace', file, name }, this.query());
    this.shape = a.value;
    this.apply(a.frame);
    return a.value.trace as TraceInfo;
  }

  /** Builds the compare partner from its scenario (null removes it); throws the engine's message. */
  async setPartner(json: string | null): Promise<void> {
    const a = await this.client.request<Loaded | null>({ op: 'partner', json });
    this.partnerShape = a.value;
    // Read after the shape is known, so the query asks for the new partner afresh.
    this.apply((await this.client.request<null>({ op: 'frame' }, this.query())).frame);
  }

  async command(c: Command): Promise<boolean> {
    this.endJobs();
    const a = await this.client.request<Moved>({ op: 'command', command: c }, this.query());
    this.apply(a.frame);
    return a.value.found;
  }

  /** The same state read again: the CPU, the lanes' window or the slow parts changed. */
  async refresh(): Promise<void> {
    this.apply((await this.client.request<null>({ op: 'frame' }, this.query())).frame);
  }

  /** What only reads (exports, the test hook); bound, so it can be handed on. */
  read = async <T>(r: Read): Promise<T> => (await this.client.request<T>({ op: 'read', read: r })).value;

  request<T>(op: Op): Promise<Answer<T>> {
    return this.client.request<T>(op);
  }

  /** A feature's question about the lab's run (engine/extensions.ts). */
  async call<A, R>(key: CallKey<A, R>, arg: A): Promise<R> {
    return (await this.client.request<R>(callOp(key, arg))).value;
  }

  /** Runs a job in the worker with a progress bar; resolves when it ends (found or not, cancelled or not). */
  async job(spec: JobSpec, label: string, detail: (p: JobProgress) => string = defaultDetail): Promise<JobEnd> {
    this.setPlaying(false);
    const mine = ++this.jobs;
    this.refreshes.start(performance.now());
    this.inJob = true;
    this.store.set({ progress: { label, fraction: 0, detail: '' } });
    try {
      const a = await this.client.request<JobEnd>({ op: 'job', job: spec }, this.query(), (p) => {
        this.apply(p.frame);
        if (this.jobs === mine)
          this.store.set({ progress: { label, fraction: p.progress.fraction, detail: detail(p.progress) } });
        // The next progress may bring a frame once this one is drawn.
        requestAnimationFrame(() => this.client.send({ op: 'ack', q: this.query() }));
      });
      this.apply(a.frame);
      return a.value;
    } finally {
      if (this.jobs === mine) this.endJobs();
    }
  }

  async cancel(): Promise<void> {
    this.endJobs();
    this.apply((await this.client.request<null>({ op: 'cancel' }, this.query())).frame);
  }

  /** No job's progress is shown any more (a newer request ends the job in the worker). */
  private endJobs(): void {
    this.jobs++;
    this.inJob = false;
    this.store.set({ progress: null });
    this.settle();
  }

  /** Not busy any more: every view group shows the latest frame (while busy they took frames in turn). */
  private settle(): void {
    const data = this.data;
    if (this.busy || !data) return;
    this.store.set({ shown: { topology: data, runqueue: data, lanes: data } });
  }

  setPlaying(on: boolean | ((was: boolean) => boolean)): void {
    const was = this.store.get().playing;
    const next = typeof on === 'function' ? on(was) : on;
    if (next === was) return;
    this.store.set({ playing: next });
    if (next) this.startPlay();
    else {
      this.stopPlay?.();
      this.settle();
      // The last run-until read the slow parts in turn, so the stopped cursor is read again whole;
      // it is queued behind any run-until still in flight.
      if (this.data) void this.refresh();
    }
  }

  /** Play starts over at the speed now asked for (the speed changed while playing). */
  restartPlay(): void {
    if (!this.store.get().playing) return;
    this.stopPlay?.();
    this.startPlay();
  }

  /**
   * The play loop: simulated time advances by wall time × speed. One run-until
   * is in flight at a time; wall time that passes while the worker is busy is
   * added to the next request, up to a cap, and each request stops after a
   * bounded amount of work (play-pace.ts), so a slow engine plays slower than
   * the clock and says so (`achieved`).
   */
  private startPlay(): void {
    const pace = new PlayPace(this.speed(), performance.now());
    let raf = 0;
    let inFlight = false;
    let stopped = false;
    this.asks.length = 0;
    this.refreshes.start(performance.now());
    const frame = (ts: number) => {
      pace.tick(ts);
      const d = this.data;
      if (!inFlight && d) {
        inFlight = true;
        const ask = pace.take(d.frame.nowNs);
        this.asks.push(ask);
        if (this.asks.length > 1000) this.asks.splice(0, 500);
        this.command({ kind: 'run-until', ns: ask.toNs, maxMs: PLAY_REQUEST_MS }).then(
          () => {
            inFlight = false;
            const f = this.data?.frame;
            if (f?.finished) this.setPlaying(false);
            const x = f && !stopped ? pace.observe(performance.now(), f.nowNs) : null;
            // Re-rendered only when the shown figure changes.
            if (x !== null)
              this.store.set(({ achieved: old }) => ({
                achieved: old !== null && fmtSpeed(old) === fmtSpeed(x) ? old : x,
              }));
          },
          () => this.setPlaying(false),
        );
      }
      if (!stopped) raf = requestAnimationFrame(frame);
    };
    raf = requestAnimationFrame(frame);
    this.stopPlay = () => {
      stopped = true;
      cancelAnimationFrame(raf);
      this.stopPlay = null;
      this.store.set({ achieved: null });
    };
  }
}
