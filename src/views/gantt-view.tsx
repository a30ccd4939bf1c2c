// Per-CPU Gantt lanes: which task ran when, over a sliding window ending at
// the cursor. Drawn on a canvas (dense data); the axis and the legend are
// plain DOM text. D3 only provides the time scale and its ticks.
import { useEffect, useRef } from 'react';
import * as d3 from 'd3';
import type { RunSlice } from '../engine/types';
import { taskColor } from './colors';
import { useWidth } from './use-width';

/** CSS px left of the lanes for the "cpuN" labels. */
const LABEL_W_PX = 48;
/** More tasks than this in the window and the legend lists the busiest only. */
const LEGEND_MAX = 24;

export interface GanttViewProps {
  slices: RunSlice[];
  nrCpus: number;
  t0Ns: number;
  t1Ns: number;
  nameOf: (pid: number) => string;
  /** Called with the simulated time under a click (jump there). */
  onSeek?: (tNs: number) => void;
}

export function GanttView({ slices, nrCpus, t0Ns, t1Ns, nameOf, onSeek }: GanttViewProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const cssW = Math.max(320, useWidth(boxRef, 900));
  const laneH = Math.max(4, Math.min(26, Math.floor(260 / Math.max(1, nrCpus))));
  const cssH = laneH * nrCpus + 4;
  // simSpace (ns) → cssPx, the one conversion this view needs; the right
  // margin leaves room for the last tick label.
  const x = d3.scaleLinear().domain([t0Ns, Math.max(t1Ns, t0Ns + 1)]).range([LABEL_W_PX, cssW - 20]);

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    // devicePixelRatio is handled here and only here.
    const dpr = window.devicePixelRatio || 1;
    // Resizing reallocates the backing store: only when the size changed.
    if (canvas.width !== Math.round(cssW * dpr)) canvas.width = Math.round(cssW * dpr);
    if (canvas.height !== Math.round(cssH * dpr)) canvas.height = Math.round(cssH * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cssW, cssH);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    const [x0, x1] = x.range();
    for (let cpu = 0; cpu < nrCpus; cpu++) {
      const y = 2 + cpu * laneH;
      ctx.fillStyle = cpu % 2 === 0 ? '#f5f7fa' : '#eef1f5';
      ctx.fillRect(x0, y, x1 - x0, laneH - 1);
      // Thin lanes (many CPUs) are labelled every 8th, where a label fits.
      if (laneH >= 9 || cpu % 8 === 0) {
        ctx.fillStyle = '#52606d';
        ctx.fillText(`cpu${cpu}`, 6, y + Math.max(laneH / 2, 5));
      }
    }
    // Batched by colour: one fillStyle change per task, not per slice.
    const byPid = d3.group(slices, (s) => s.pid);
    for (const [pid, runs] of byPid) {
      ctx.fillStyle = taskColor(pid);
      for (const s of runs) {
        const a = Math.max(x(s.startNs), x0);
        const b = Math.min(x(s.endNs), x1);
        if (b > a) ctx.fillRect(a, 2 + s.cpu * laneH, Math.max(1, b - a), laneH - 1);
      }
    }
  }, [slices, nrCpus, laneH, cssW, cssH, x]);

  const legend = legendEntries(slices);
  return (
    <section className="panel">
      <header className="panel-head">
        <h2>CPU lanes</h2>
        <span className="meta">who ran when, last {((t1Ns - t0Ns) / 1e6).toFixed(0)} ms</span>
      </header>
      <div ref={boxRef} className="gantt-box">
        <canvas
          data-testid="gantt"
          ref={canvasRef}
          style={{ width: cssW, height: cssH, cursor: onSeek ? 'pointer' : 'default' }}
          title={onSeek ? 'Click to jump to that time' : undefined}
          onClick={(e) => {
            const px = e.clientX - e.currentTarget.getBoundingClientRect().left;
            if (onSeek && px >= LABEL_W_PX) onSeek(Math.round(x.invert(px)));
          }}
        />
        <div className="axis" style={{ width: cssW }}>
          {x.ticks(Math.max(2, Math.floor(cssW / 130))).map((t) => (
            <span key={t} style={{ left: x(t) }}>
              {(t / 1e6).toFixed(0)} ms
            </span>
          ))}
        </div>
      </div>
      <ul className="legend" data-testid="gantt-legend">
        {legend.shown.map((pid) => (
          <li key={pid}>
            <span className="swatch" style={{ background: taskColor(pid) }} />
            {nameOf(pid)}
          </li>
        ))}
        {legend.more > 0 && <li className="meta">+ {legend.more} more tasks</li>}
        {legend.shown.length === 0 && <li className="meta">nothing has run yet</li>}
      </ul>
    </section>
  );
}

/** The tasks that ran in the window, by pid; only the busiest when there are many. */
function legendEntries(slices: RunSlice[]): { shown: number[]; more: number } {
  const ranNs = d3.rollup(
    slices,
    (v) => d3.sum(v, (s) => s.endNs - s.startNs),
    (s) => s.pid,
  );
  const pids = [...ranNs.keys()];
  if (pids.length <= LEGEND_MAX) return { shown: pids.sort((a, b) => a - b), more: 0 };
  const busiest = pids.sort((a, b) => (ranNs.get(b) ?? 0) - (ranNs.get(a) ?? 0)).slice(0, LEGEND_MAX);
  return { shown: busiest.sort((a, b) => a - b), more: pids.length - LEGEND_MAX };
}
