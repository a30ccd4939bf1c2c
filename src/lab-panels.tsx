// The views at the cursor, below the controls, drawn from the frame the
// engine worker read there. While playing, the heavy views refresh in turn —
// one group per frame, each group every STAGGER frames — so no single frame
// pays for all of them; paused or stepping, every view shows the new state at
// once. The state shown is always the engine's at the cursor of that frame.
import { useMemo } from 'react';
import { ARROW_WINDOW_NS, MAX_ROWS, PLAYING_ROWS, type GanttWindow } from './engine/frame';
import type { LabData } from './stores/use-lab-engine';
import type { CpuView, ViolationReport } from './engine/types';
import { EventLog } from './views/event-log';
import { GanttView, type GanttNav } from './views/gantt-view';
import { Heatmaps } from './views/heatmap';
import { Inspector } from './views/inspector';
import { SchedstatPanel } from './views/schedstat-panel';
import { MetricsCharts } from './views/metrics-charts';
import { RbTreeView } from './views/rbtree-view';
import { TaskTable } from './views/task-table';
import { latestFocus } from './views/topology/focus';
import { TopologyView, type ColourBy } from './views/topology/topology-view';
import { useT } from './i18n/i18n';
import { OnlySimulations } from './trace/trace-banner';

/** The lanes zoom in down to 50 µs. */
const MIN_SPAN_NS = 50e3;
/** Frames between two refreshes of one view group while playing. */
const STAGGER = 3;

export interface LabPanelsProps {
  data: LabData;
  cpu: CpuView;
  /** Bumped on every state change (each frame while playing). */
  version: number;
  playing: boolean;
  colourBy: ColourBy;
  onColourBy: (c: ColourBy) => void;
  onSelectCpu: (cpu: number) => void;
  onSeek: (tNs: number) => void;
  /** The lanes' window, and its setter (the worker reads the slices in it). */
  gantt: GanttWindow;
  onGantt: (f: (w: GanttWindow) => GanttWindow) => void;
  violations: ViolationReport[];
  /** CPUs a classroom lesson step points at. */
  lessonCpus?: number[];
  /** A real trace is shown: the views of the model's state say they exist only for simulations. */
  recorded?: boolean;
}

export function LabPanels(p: LabPanelsProps) {
  const { data, cpu, version } = p;
  const { frame, topology: topo } = data;
  const view = frame.view;
  const t = useT();
  const nameOf = (pid: number) => data.names[pid] ?? `pid ${pid}`;
  const now = view.now_ns;
  /** The refresh key of view group k: every frame when paused, in turn when playing. */
  const turn = (k: number) => (p.playing ? Math.floor((version + k) / STAGGER) : version);
  const [turn0, turn1, turn2] = [turn(0), turn(1), turn(2)];

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
          migrations={frame.migrations}
          nowNs={now}
          arrowWindowNs={ARROW_WINDOW_NS}
          focus={latestFocus(frame.placement ?? undefined, frame.decision ?? undefined, t)}
          selected={cpu.cpu}
          onSelect={p.onSelectCpu}
          marked={p.lessonCpus}
        />
      </>
    ),
    [turn0, p.colourBy, cpu.cpu, topo, t, p.lessonCpus], // eslint-disable-line react-hooks/exhaustive-deps -- refreshed in turn while playing (turn0), the frame's other inputs change every frame
  );

  const runqueue = useMemo(
    () => (
      <>
        <div className="grid">
          {p.recorded ? (
            <OnlySimulations what="tree" />
          ) : (
            <RbTreeView
              cpu={cpu}
              currName={cpu.curr === null ? null : nameOf(cpu.curr)}
              rotations={view.rotations}
              nameOf={nameOf}
            />
          )}
          <EventLog events={frame.recentEvents} />
        </div>
        {p.recorded ? (
          <OnlySimulations what="inspector" />
        ) : (
          view.cpus.length > 1 && <Inspector decision={frame.decision} nameOf={nameOf} />
        )}
      </>
    ),
    [turn1, cpu.cpu, t, p.recorded], // eslint-disable-line react-hooks/exhaustive-deps -- refreshed in turn while playing (turn1)
  );

  const lanes = useMemo(() => {
    // The window as the worker resolved it at this frame's cursor.
    const [t0, t1] = [frame.ganttT0Ns, frame.ganttT1Ns];
    const nav: GanttNav = {
      follow: p.gantt.endNs === null,
      onZoom: (factor, anchorNs) =>
        p.onGantt((w) => {
          const spanNs = Math.min(Math.max(MIN_SPAN_NS, w.spanNs / factor), Math.max(frame.durationNs, MIN_SPAN_NS));
          // Following the cursor and zooming at it: keep following.
          if (w.endNs === null && anchorNs >= t1 - 1) return { spanNs, endNs: null };
          const rel = (anchorNs - t0) / w.spanNs;
          return { spanNs, endNs: Math.min(now, anchorNs - rel * spanNs + spanNs) };
        }),
      onPan: (deltaNs) =>
        p.onGantt((w) => {
          const end = (w.endNs ?? now) + deltaNs;
          return { spanNs: w.spanNs, endNs: end >= now ? null : Math.max(Math.min(w.spanNs, now), end) };
        }),
      onFollow: () => p.onGantt((w) => ({ spanNs: w.spanNs, endNs: null })),
    };
    return (
      <GanttView
        keptFromNs={frame.slicesKeptFromNs}
        slices={frame.slices}
        nrCpus={view.cpus.length}
        lanes={frame.lanes}
        t0Ns={t0}
        t1Ns={t1}
        nameOf={nameOf}
        onSeek={p.onSeek}
        nav={nav}
      />
    );
  }, [turn2, p.gantt, t]); // eslint-disable-line react-hooks/exhaustive-deps -- refreshed in turn while playing (turn2)

  return (
    <>
      {topology}
      {runqueue}
      {lanes}
      {data.history && (
        <Heatmaps
          history={data.history}
          cpus={topo.cpus}
          nowNs={now}
          durationNs={frame.durationNs}
          violations={p.violations}
          onSeek={p.onSeek}
          loadTitle={p.recorded ? t('trace.loadTitle') : undefined}
        />
      )}
      {p.recorded ? (
        <OnlySimulations what="schedstat" />
      ) : (
        view.cpus.length > 1 && frame.schedstat && <SchedstatPanel stats={frame.schedstat} />
      )}
      {data.report && (
        <MetricsCharts report={data.report} cdfs={data.cdfs} history={data.history} durationNs={frame.durationNs} />
      )}
      {/* Fewer rows while playing: they change faster than anyone reads them. */}
      <TaskTable tasks={data.tasks} maxRows={p.playing ? PLAYING_ROWS : MAX_ROWS} />
    </>
  );
}
