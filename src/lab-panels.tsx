// The views at the cursor, below the controls. While playing, the heavy
// views refresh in turn — one group per animation frame, each group every
// STAGGER frames (20 Hz at 60 fps) — so no single frame pays for all of
// them; paused or stepping, every view shows the new state at once. The
// state shown is always the engine's at the cursor of that refresh.
import { useMemo, useState } from 'react';
import type { Simulation } from './engine/engine';
import type { CpuView, LatencyCdf, LoadHistory, Report, SimView, TaskList, TopologyView as Topo, ViolationReport } from './engine/types';
import { EventLog } from './views/event-log';
import { GanttView, type GanttNav } from './views/gantt-view';
import { Heatmaps } from './views/heatmap';
import { Inspector } from './views/inspector';
import { MetricsCharts } from './views/metrics-charts';
import { RbTreeView } from './views/rbtree-view';
import { MAX_ROWS, PLAYING_ROWS, TaskTable } from './views/task-table';
import { latestFocus } from './views/topology/focus';
import { TopologyView, type ColourBy } from './views/topology/topology-view';
import { useT } from './i18n/i18n';

const GANTT_WINDOW_NS = 200e6;
/** The lanes zoom in down to 50 µs. */
const MIN_SPAN_NS = 50e3;
/** Migrations younger than this (simulated time) are drawn as arrows. */
const ARROW_WINDOW_NS = 20e6;
const MAX_ARROWS = 32;
/** Frames between two refreshes of one view group while playing. */
const STAGGER = 3;

export interface LabPanelsProps {
  sim: Simulation;
  view: SimView;
  cpu: CpuView;
  topo: Topo;
  /** Bumped on every state change (each frame while playing). */
  version: number;
  playing: boolean;
  colourBy: ColourBy;
  onColourBy: (c: ColourBy) => void;
  onSelectCpu: (cpu: number) => void;
  onSeek: (tNs: number) => void;
  history: LoadHistory | null;
  violations: ViolationReport[];
  tasks: TaskList;
  report: Report | null;
  cdfs: LatencyCdf[];
  /** CPUs a classroom lesson step points at. */
  lessonCpus?: number[];
}

export function LabPanels(p: LabPanelsProps) {
  const { sim, view, cpu, topo, version } = p;
  const t = useT();
  const nameOf = (pid: number) => sim.nameOf(pid);
  const now = view.now_ns;
  /** The refresh key of view group k: every frame when paused, in turn when playing. */
  const turn = (k: number) => (p.playing ? Math.floor((version + k) / STAGGER) : version);

  const topology = useMemo(
    () => (
      <>
        {view.cpus.length > 1 && (
          <label className="cpu-pick">
            {t('rq.pick')}{' '}
            <select value={cpu.cpu} onChange={(e) => p.onSelectCpu(Number(e.target.value))}>
              {view.cpus.map((c) => (
                <option key={c.cpu} value={c.cpu}>
                  {t('rq.pickOption', { cpu: c.cpu, n: c.nr_running })}
                </option>
              ))}
            </select>
          </label>
        )}
        <TopologyView
          topo={topo}
          cpus={view.cpus}
          nameOf={nameOf}
          colourBy={p.colourBy}
          onColourBy={p.onColourBy}
          migrations={sim.migrations(Math.max(0, now - ARROW_WINDOW_NS), MAX_ARROWS)}
          nowNs={now}
          arrowWindowNs={ARROW_WINDOW_NS}
          focus={latestFocus(sim.placements(1)[0], sim.decisions(1, true)[0], t)}
          selected={cpu.cpu}
          onSelect={p.onSelectCpu}
          marked={p.lessonCpus}
        />
      </>
    ),
    [turn(0), p.colourBy, cpu.cpu, topo, t, p.lessonCpus], // eslint-disable-line react-hooks/exhaustive-deps
  );

  const runqueue = useMemo(
    () => (
      <>
        <div className="grid">
          <RbTreeView cpu={cpu} currName={cpu.curr === null ? null : nameOf(cpu.curr)} rotations={view.rotations} nameOf={nameOf} />
          <EventLog events={sim.recentEvents(14)} />
        </div>
        {view.cpus.length > 1 && <Inspector decision={sim.decisions(1, true)[0] ?? null} nameOf={nameOf} />}
      </>
    ),
    [turn(1), cpu.cpu, t], // eslint-disable-line react-hooks/exhaustive-deps
  );

  // The lanes' window: its span, and its end (null = follow the cursor).
  const [win, setWin] = useState<{ spanNs: number; endNs: number | null }>({ spanNs: GANTT_WINDOW_NS, endNs: null });
  const lanes = useMemo(() => {
    // A window panned past a cursor that was since rewound ends at the cursor.
    const end = win.endNs === null ? now : Math.min(win.endNs, Math.max(now, win.spanNs));
    const t0 = Math.max(0, end - win.spanNs);
    const t1 = t0 + win.spanNs;
    const nav: GanttNav = {
      follow: win.endNs === null,
      onZoom: (factor, anchorNs) =>
        setWin((w) => {
          const spanNs = Math.min(Math.max(MIN_SPAN_NS, w.spanNs / factor), Math.max(sim.durationNs, MIN_SPAN_NS));
          // Following the cursor and zooming at it: keep following.
          if (w.endNs === null && anchorNs >= t1 - 1) return { spanNs, endNs: null };
          const rel = (anchorNs - t0) / w.spanNs;
          return { spanNs, endNs: Math.min(now, anchorNs - rel * spanNs + spanNs) };
        }),
      onPan: (deltaNs) =>
        setWin((w) => {
          const end = (w.endNs ?? now) + deltaNs;
          return { spanNs: w.spanNs, endNs: end >= now ? null : Math.max(Math.min(w.spanNs, now), end) };
        }),
      onFollow: () => setWin((w) => ({ spanNs: w.spanNs, endNs: null })),
    };
    return <GanttView keptFromNs={sim.slicesKeptFromNs()} slices={sim.slices(t0, t1)} nrCpus={view.cpus.length} t0Ns={t0} t1Ns={t1} nameOf={nameOf} onSeek={p.onSeek} nav={nav} />;
  }, [turn(2), win, t]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <>
      {topology}
      {runqueue}
      {lanes}
      {p.history && <Heatmaps history={p.history} cpus={topo.cpus} nowNs={now} durationNs={sim.durationNs} violations={p.violations} onSeek={p.onSeek} />}
      {p.report && <MetricsCharts report={p.report} cdfs={p.cdfs} history={p.history} durationNs={sim.durationNs} />}
      {/* Fewer rows while playing: they change faster than anyone reads them. */}
      <TaskTable tasks={p.tasks} maxRows={p.playing ? PLAYING_ROWS : MAX_ROWS} />
    </>
  );
}
