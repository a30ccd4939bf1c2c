// The lab's view of the engine worker: the latest Frame with what it keeps
// between frames (task names, the last report, task rows and heatmap
// history), the commands as promises, long jobs with progress and Cancel, and
// the play loop. While playing or in a long job the slow parts (report, task
// rows, history) are asked for in turn, one every SLOW_MS / 3 of wall time, so
// no frame pays for all of them; paused, every change brings all of them.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useLatest } from './use-latest';
import type { Answer, EngineClient } from '../engine/client';
import type { Frame, FrameQuery, GanttWindow, MachineFrame } from '../engine/frame';
import type { JobProgress, JobSpec } from '../engine/jobs';
import type { Command, JobEnd, Loaded, Moved, Op, Read } from '../engine/protocol';
import type { TraceInfo } from '../engine/real-run';
import type { LatencyCdf, LoadHistory, Report, TaskList, TopologyView } from '../engine/types';
import { MAX_ROWS, PLAYING_ROWS } from '../engine/frame';
import { PLAY_REQUEST_MS, PlayPace, fmtSpeed, type PlayAsk } from '../engine/play-pace';

const SLOW_MS = 250;

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

export interface LabUi {
  cpu: number;
  gantt: GanttWindow;
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

export function useLabEngine(client: EngineClient, ui: LabUi, formatDetail: (p: JobProgress, spec: JobSpec) => string) {
  const dataRef = useRef<LabData | null>(null);
  const [version, setVersion] = useState(0);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [playing, setPlaying] = useState(false);
  const uiRef = useLatest(ui);
  // Also set by job() and cancel() before React renders their state.
  const busyRef = useRef(false);
  useLayoutEffect(() => {
    busyRef.current = playing || progress !== null;
  }, [playing, progress]);
  const playingRef = useLatest(playing);
  // Each machine's shape with its load count: a load's answer brings it before any frame of that load,
  // and a frame of any other load (read for an older request) is not taken in.
  const shape = useRef<{ gen: number; topology: TopologyView } | null>(null);
  const partnerShape = useRef<{ gen: number; topology: TopologyView } | null>(null);
  const jobRef = useRef<number>(0);
  // When each slow part [report, tasks, history] was last asked for (wall ms).
  const lastSlow = useRef<number[]>([0, 0, 0]);

  /** Which slow parts a request asks for: all when paused; while busy, at most the one that is due. */
  const due = (): boolean[] => {
    if (!busyRef.current) return [true, true, true];
    const now = performance.now();
    const last = lastSlow.current;
    const i = last.findIndex((t) => now - t >= SLOW_MS);
    if (i >= 0) last[i] = now;
    return [0, 1, 2].map((k) => k === i);
  };
  /** Staggers the slow parts a third of SLOW_MS apart, from now. */
  const stagger = useCallback(() => {
    const now = performance.now();
    lastSlow.current = [0, 1, 2].map((i) => now - (i * SLOW_MS) / 3);
  }, []);

  const query = useCallback((): FrameQuery => {
    const d = dataRef.current;
    const p = d?.partner ?? null;
    const [report, tasks, history] = due();
    const held = (m: MachineData | null) =>
      m ? { gen: m.gen, names: m.names.length, historyKey: m.historyKey } : null;
    return {
      cpu: uiRef.current.cpu,
      gantt: uiRef.current.gantt,
      report,
      rows: tasks ? (busyRef.current ? PLAYING_ROWS : MAX_ROWS) : 0,
      history,
      held: held(d) ?? { gen: -1, names: 0, historyKey: null },
      partner: held(p),
    };
  }, [uiRef]);

  /** Takes in a frame the worker read. */
  const apply = useCallback((f: Frame | null) => {
    const s = shape.current;
    if (!f || !s || s.gen !== f.gen) return;
    const prev = dataRef.current;
    const main = machineData(f, s.topology, prev?.gen === f.gen ? prev : null);
    const ps = partnerShape.current;
    const pPrev = prev?.partner ?? null;
    const partner =
      f.partner && ps?.gen === f.partner.gen
        ? machineData(f.partner, ps.topology, pPrev?.gen === f.partner.gen ? pPrev : null)
        : null;
    dataRef.current = { ...main, frame: f, tasks: f.tasks ?? prev?.tasks ?? { rows: [], total: 0 }, partner };
    setVersion((v) => v + 1);
  }, []);

  /** Replaces the simulation; throws the engine's message if it refused the scenario (the old one then stays).*/
  const load = useCallback(
    async (json: string): Promise<void> => {
      jobRef.current++;
      setProgress(null);
      setPlaying(false);
      const a = await client.request<Loaded>({ op: 'load', json }, query());
      shape.current = a.value;
      apply(a.frame);
    },
    [client, query, apply],
  );

  /** Replaces the lab's run with a real trace read in the worker; throws the importer's message (the old run then stays). */
  const openTrace = useCallback(
    async (file: Blob, name: string): Promise<TraceInfo> => {
      jobRef.current++;
      setProgress(null);
      setPlaying(false);
      const a = await client.request<Loaded>({ op: 'open-trace', file, name }, query());
      shape.current = a.value;
      apply(a.frame);
      return a.value.trace as TraceInfo;
    },
    [client, query, apply],
  );

  /** Builds the compare partner from its scenario (null removes it); throws the engine's message. */
  const setPartner = useCallback(
    async (json: string | null): Promise<void> => {
      const a = await client.request<Loaded | null>({ op: 'partner', json });
      partnerShape.current = a.value;
      // Read after the shape is known, so the query asks for the new partner afresh.
      apply((await client.request<null>({ op: 'frame' }, query())).frame);
    },
    [client, query, apply],
  );

  const command = useCallback(
    async (c: Command): Promise<boolean> => {
      jobRef.current++;
      setProgress(null);
      const a = await client.request<Moved>({ op: 'command', command: c }, query());
      apply(a.frame);
      return a.value.found;
    },
    [client, query, apply],
  );

  /** The same state read again: the CPU, the lanes' window or the slow parts changed. */
  const refresh = useCallback(async () => {
    apply((await client.request<null>({ op: 'frame' }, query())).frame);
  }, [client, query, apply]);

  const read = useCallback(
    async <T>(r: Read): Promise<T> => (await client.request<T>({ op: 'read', read: r })).value,
    [client],
  );

  const request = useCallback(<T>(op: Op): Promise<Answer<T>> => client.request<T>(op), [client]);

  /** Runs a job in the worker with a progress bar; resolves when it ends (found or not, cancelled or not). */
  const job = useCallback(
    async (spec: JobSpec, label: string): Promise<JobEnd> => {
      setPlaying(false);
      const mine = ++jobRef.current;
      stagger();
      busyRef.current = true;
      setProgress({ label, fraction: 0, detail: '' });
      try {
        const a = await client.request<JobEnd>({ op: 'job', job: spec }, query(), (p) => {
          apply(p.frame);
          if (jobRef.current === mine)
            setProgress({ label, fraction: p.progress.fraction, detail: formatDetail(p.progress, spec) });
          // The next progress may bring a frame once this one is drawn.
          requestAnimationFrame(() => client.send({ op: 'ack', q: query() }));
        });
        apply(a.frame);
        return a.value;
      } finally {
        if (jobRef.current === mine) setProgress(null);
      }
    },
    [client, query, apply, formatDetail, stagger],
  );

  const cancel = useCallback(async () => {
    jobRef.current++;
    setProgress(null);
    busyRef.current = playingRef.current;
    apply((await client.request<null>({ op: 'cancel' }, query())).frame);
  }, [client, query, apply, playingRef]);

  // Playing stopped (Pause, or the run's end): the last run-until read the slow parts in turn, so the
  // stopped cursor is read again whole; it is queued behind any run-until still in flight.
  const wasPlaying = useRef(false);
  useEffect(() => {
    if (wasPlaying.current && !playing && dataRef.current) void refresh();
    wasPlaying.current = playing;
  }, [playing, refresh]);

  // The commands stay the same object across renders (frames re-render the lab many times a second).
  const api = useMemo(
    () => ({ dataRef, setPlaying, stagger, load, openTrace, setPartner, command, refresh, read, request, job, cancel }),
    [stagger, load, openTrace, setPartner, command, refresh, read, request, job, cancel],
  );
  return { ...api, api, version, progress, playing, busy: playing || progress !== null };
}

export type LabEngine = ReturnType<typeof useLabEngine>;

/**
 * The play loop: simulated time advances by wall time × speed. One run-until
 * is in flight at a time; wall time that passes while the worker is busy is
 * added to the next request, up to a cap, and each request stops after a
 * bounded amount of work (play-pace.ts), so a slow engine plays slower than
 * the clock and says so: the speed achieved is returned (null until measured).
 */
export function usePlayLoop(engine: LabEngine, speed: number) {
  const { playing, setPlaying, command, stagger, dataRef } = engine;
  const [achieved, setAchieved] = useState<number | null>(null);
  // The requests of the current play, for the test hook.
  const asks = useRef<PlayAsk[]>([]);
  useEffect(() => {
    if (!playing) return;
    const pace = new PlayPace(speed, performance.now());
    let raf = 0;
    let inFlight = false;
    let stopped = false;
    asks.current = [];
    stagger();
    const frame = (ts: number) => {
      pace.tick(ts);
      const d = dataRef.current;
      if (!inFlight && d) {
        inFlight = true;
        const ask = pace.take(d.frame.nowNs);
        asks.current.push(ask);
        if (asks.current.length > 1000) asks.current.splice(0, 500);
        command({ kind: 'run-until', ns: ask.toNs, maxMs: PLAY_REQUEST_MS }).then(
          () => {
            inFlight = false;
            const f = dataRef.current?.frame;
            if (f?.finished) setPlaying(false);
            const x = f && !stopped ? pace.observe(performance.now(), f.nowNs) : null;
            // Re-rendered only when the shown figure changes.
            if (x !== null) setAchieved((old) => (old !== null && fmtSpeed(old) === fmtSpeed(x) ? old : x));
          },
          () => setPlaying(false),
        );
      }
      if (!stopped) raf = requestAnimationFrame(frame);
    };
    raf = requestAnimationFrame(frame);
    return () => {
      stopped = true;
      cancelAnimationFrame(raf);
      setAchieved(null);
    };
  }, [playing, speed, command, stagger, dataRef, setPlaying]);
  return { achieved, asks };
}
