// The views at the cursor, below the controls. While playing, the heavy
// views refresh in turn — one group per animation frame, each group every
// STAGGER frames (20 Hz at 60 fps) — so no single frame pays for all of
// them; paused or stepping, every view shows the new state at once. The
// state shown is always the engine's at the cursor of that refresh.
import { useMemo } from 'react';
import type { Simulation } from './engine/engine';
import type { CpuView, LoadHistory, SimView, TaskView, TopologyView as Topo, ViolationReport } from './engine/types';
import { EventLog } from './views/event-log';
import { GanttView } from './views/gantt-view';
import { Heatmaps } from './views/heatmap';
import { Inspector } from './views/inspector';
import { RbTreeView } from './views/rbtree-view';
import { TaskTable } from './views/task-table';
import { latestFocus } from './views/topology/focus';
import { TopologyView, type ColourBy } from './views/topology/topology-view';

const GANTT_WINDOW_NS = 200e6;
/** Migrations younger than this (simulated time) are drawn as arrows. */
const ARROW_WINDOW_NS = 20e6;
const MAX_ARROWS = 32;
/** Frames between two refreshes of one view group while playing. */
const STAGGER = 3;
const PLAYING_ROWS = 40;

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
  tasks: TaskView[];
}

export function LabPanels(p: LabPanelsProps) {
  const { sim, view, cpu, topo, version } = p;
  const nameOf = (pid: number) => sim.nameOf(pid);
  const now = view.now_ns;
  /** The refresh key of view group k: every frame when paused, in turn when playing. */
  const turn = (k: number) => (p.playing ? Math.floor((version + k) / STAGGER) : version);

  const topology = useMemo(
    () => (
      <>
        {view.cpus.length > 1 && (
          <label className="cpu-pick">
            runqueue of CPU{' '}
            <select value={cpu.cpu} onChange={(e) => p.onSelectCpu(Number(e.target.value))}>
              {view.cpus.map((c) => (
                <option key={c.cpu} value={c.cpu}>
                  {c.cpu} ({c.nr_running} runnable)
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
          focus={latestFocus(sim.placements(1)[0], sim.decisions(1, true)[0])}
          selected={cpu.cpu}
          onSelect={p.onSelectCpu}
        />
      </>
    ),
    [turn(0), p.colourBy, cpu.cpu, topo], // eslint-disable-line react-hooks/exhaustive-deps
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
    [turn(1), cpu.cpu], // eslint-disable-line react-hooks/exhaustive-deps
  );

  const lanes = useMemo(() => {
    const t0 = Math.max(0, now - GANTT_WINDOW_NS);
    return (
      <GanttView slices={sim.slices(t0, now)} nrCpus={view.cpus.length} t0Ns={t0} t1Ns={Math.max(now, t0 + GANTT_WINDOW_NS)} nameOf={nameOf} onSeek={p.onSeek} />
    );
  }, [turn(2)]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <>
      {topology}
      {runqueue}
      {lanes}
      {p.history && <Heatmaps history={p.history} cpus={topo.cpus} nowNs={now} durationNs={sim.durationNs} violations={p.violations} onSeek={p.onSeek} />}
      {/* Fewer rows while playing: they change faster than anyone reads them. */}
      <TaskTable tasks={p.tasks} maxRows={p.playing ? PLAYING_ROWS : undefined} />
    </>
  );
}
