// Per-CPU Gantt lanes: which task ran when, over a sliding window ending at
// the cursor. Drawn on a canvas (dense data); the axis is plain DOM text.
import { useEffect, useRef } from 'react';
import * as d3 from 'd3';
import type { RunSlice } from '../engine/types';
import { taskColor } from './colors';

const LABEL_W = 56;

export function GanttView(props: { slices: RunSlice[]; nrCpus: number; t0Ns: number; t1Ns: number }) {
  const { slices, nrCpus, t0Ns, t1Ns } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const laneH = Math.max(4, Math.min(26, Math.floor(260 / Math.max(1, nrCpus))));
  const cssW = 900;
  const cssH = laneH * nrCpus + 4;
  const x = d3.scaleLinear().domain([t0Ns, Math.max(t1Ns, t0Ns + 1)]).range([LABEL_W, cssW - 4]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    // devicePixelRatio is handled here and only here.
    const dpr = window.devicePixelRatio || 1;
    canvas.width = cssW * dpr;
    canvas.height = cssH * dpr;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cssW, cssH);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    for (let cpu = 0; cpu < nrCpus; cpu++) {
      const y = 2 + cpu * laneH;
      ctx.fillStyle = cpu % 2 === 0 ? '#f5f7fa' : '#eef1f5';
      ctx.fillRect(LABEL_W, y, cssW - LABEL_W - 4, laneH - 1);
      if (laneH >= 9) {
        ctx.fillStyle = '#52606d';
        ctx.fillText(`cpu${cpu}`, 6, y + laneH / 2);
      }
    }
    for (const s of slices) {
      const a = Math.max(x(s.startNs), LABEL_W);
      const b = Math.min(x(s.endNs), cssW - 4);
      if (b <= a) continue;
      ctx.fillStyle = taskColor(s.pid);
      ctx.fillRect(a, 2 + s.cpu * laneH, Math.max(1, b - a), laneH - 1);
    }
  }, [slices, nrCpus, laneH, cssH, t0Ns, t1Ns, x]);

  const ticks = x.ticks(6);
  return (
    <section className="panel">
      <header className="panel-head">
        <h2>CPU lanes</h2>
        <span className="meta">who ran when, last {((t1Ns - t0Ns) / 1e6).toFixed(0)} ms</span>
      </header>
      <canvas data-testid="gantt" ref={canvasRef} style={{ width: cssW, height: cssH }} />
      <div className="axis" style={{ width: cssW }}>
        {ticks.map((t) => (
          <span key={t} style={{ left: x(t) }}>
            {(t / 1e6).toFixed(0)} ms
          </span>
        ))}
      </div>
    </section>
  );
}
