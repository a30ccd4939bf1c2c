// The heavy view groups, each drawing the frame the refresh scheduler handed
// it (stores/refresh.ts) with the lab's current choices: the machine with its
// CPU picker, the picked CPU's runqueue with the event log and the balancing
// inspector, and the CPU lanes. Memoised: a group redraws when its frame or a
// choice it shows changes, not on every frame of the others.
import { memo, useMemo } from 'react';
import { ARROW_WINDOW_NS } from '../engine/frame';
import { useT } from '../i18n/i18n';
import type { LabData } from '../stores/lab-engine';
import { useStore } from '../stores/store';
import { OnlySimulations } from '../trace/trace-banner';
import { CpuPick } from '../views/cpu-pick';
import { EventLog } from '../views/event-log';
import { GanttView, type GanttNav } from '../views/gantt/gantt-view';
import type { BandClass } from '../views/gantt/canvas';
import { Inspector } from '../views/inspector';
import { RbTreeView } from '../views/rbtree-view';
import { latestFocus } from '../views/topology/focus';
import { TopologyView } from '../views/topology/topology-view';
import { useLab } from './context';

/** The lanes zoom in down to 50 µs. */
const MIN_SPAN_NS = 50e3;

/** The policies whose class comes before the fair class (in a trace: 'rt' for real-time tasks, and 'deadline'). */
/** The band a task's slices carry, by its policy (`rt`: a trace's real-time task, its policy unknown). */
const BAND_OF: Record<string, BandClass> = { fifo: 'realtime', rr: 'realtime', rt: 'realtime', deadline: 'deadline' };

const namer = (data: LabData) => (pid: number) => data.names[pid] ?? `pid ${pid}`;

/** The picked CPU as drawn in `data` (the last one if the machine has fewer). */
function usePickedCpu(data: LabData) {
  const cpus = data.frame.view.cpus;
  const sel = useStore(useLab().view, (s) => s.cpu);
  return cpus[Math.min(sel, cpus.length - 1)];
}

export const TopologyGroup = memo(function TopologyGroup({ data }: { data: LabData }) {
  const lab = useLab();
  const t = useT();
  const cpu = usePickedCpu(data);
  const colourBy = useStore(lab.view, (s) => s.colourBy);
  const marked = useStore(lab.lesson, (s) => (s.lesson ? s.marks?.cpus : undefined));
  const { frame } = data;
  const view = frame.view;
  return (
    <>
      {view.cpus.length > 1 && (
        <CpuPick cpus={view.cpus} places={data.topology.cpus} picked={cpu} onPick={lab.selectCpu} />
      )}
      <TopologyView
        topo={data.topology}
        cpus={view.cpus}
        nameOf={namer(data)}
        colourBy={colourBy}
        onColourBy={(c) => lab.view.set({ colourBy: c })}
        migrations={frame.migrations}
        nowNs={view.now_ns}
        arrowWindowNs={ARROW_WINDOW_NS}
        focus={latestFocus(frame.placement ?? undefined, frame.decision ?? undefined, t)}
        selected={cpu.cpu}
        onSelect={lab.selectCpu}
        marked={marked}
      />
    </>
  );
});

export const RunqueueGroup = memo(function RunqueueGroup({ data, recorded }: { data: LabData; recorded: boolean }) {
  const cpu = usePickedCpu(data);
  const { frame } = data;
  const nameOf = namer(data);
  return (
    <>
      <div className="grid">
        {recorded ? (
          <OnlySimulations what="tree" />
        ) : (
          <RbTreeView
            cpu={cpu}
            currName={cpu.curr === null ? null : nameOf(cpu.curr)}
            rotations={frame.view.rotations}
            nameOf={nameOf}
          />
        )}
        <EventLog events={frame.recentEvents} />
      </div>
      {recorded ? (
        <OnlySimulations what="inspector" />
      ) : (
        frame.view.cpus.length > 1 && <Inspector decision={frame.decision} nameOf={nameOf} />
      )}
    </>
  );
});

export const LanesGroup = memo(function LanesGroup({ data }: { data: LabData }) {
  const lab = useLab();
  const t = useT();
  const follow = useStore(lab.view, (s) => s.gantt.endNs === null);
  const { frame } = data;
  const now = frame.view.now_ns;
  // Slices of the classes above the fair class (real-time, deadline) carry a band: the lanes show the class.
  const rows = data.tasks.rows;
  const bands = useMemo(
    () => new Map(rows.filter((r) => r.policy in BAND_OF).map((r) => [r.pid, BAND_OF[r.policy]] as const)),
    [rows],
  );
  // The window as the worker resolved it at this frame's cursor.
  const [t0, t1] = [frame.ganttT0Ns, frame.ganttT1Ns];
  const nav: GanttNav = {
    follow,
    onZoom: (factor, anchorNs) =>
      lab.setGantt((w) => {
        const spanNs = Math.min(Math.max(MIN_SPAN_NS, w.spanNs / factor), Math.max(frame.durationNs, MIN_SPAN_NS));
        // Following the cursor and zooming at it: keep following.
        if (w.endNs === null && anchorNs >= t1 - 1) return { spanNs, endNs: null };
        const rel = (anchorNs - t0) / w.spanNs;
        return { spanNs, endNs: Math.min(now, anchorNs - rel * spanNs + spanNs) };
      }),
    onPan: (deltaNs) =>
      lab.setGantt((w) => {
        const end = (w.endNs ?? now) + deltaNs;
        return { spanNs: w.spanNs, endNs: end >= now ? null : Math.max(Math.min(w.spanNs, now), end) };
      }),
    onFollow: () => lab.setGantt((w) => ({ spanNs: w.spanNs, endNs: null })),
  };
  return (
    <GanttView
      keptFromNs={frame.slicesKeptFromNs}
      slices={frame.slices}
      misses={frame.misses}
      bands={bands}
      nrCpus={frame.view.cpus.length}
      lanes={frame.lanes}
      t0Ns={t0}
      t1Ns={t1}
      nameOf={namer(data)}
      onSeek={(ns) => lab.seekTime(ns, t)}
      nav={nav}
    />
  );
});
