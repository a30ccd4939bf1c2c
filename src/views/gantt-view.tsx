// Per-CPU Gantt lanes: which task ran when, over a sliding window ending at
// the cursor. Drawn on a canvas (dense data); the axis and the legend are
// plain DOM text. D3 only provides the time scale and its ticks.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import * as d3 from 'd3';
import { forEachSlice, sliceCount, SLICE_FIELDS } from '../engine/run-slices';
import type { LaneRange } from '../engine/lane-range';
import { taskColor } from './colors';
import { useWidth } from './use-width';
import { useT } from '../i18n/i18n';
import { ExportButtons } from './export/export-buttons';
import { useLatest } from '../stores/use-latest';

/** Keys on the focused lanes: ← → pan by a quarter window, + − zoom, Home follows the cursor. */
function lanesKeys(e: ReactKeyboardEvent, nav: GanttNav, t0Ns: number, t1Ns: number): void {
  const span = t1Ns - t0Ns;
  const mid = nav.follow ? t1Ns : (t0Ns + t1Ns) / 2;
  const act: Record<string, () => void> = {
    ArrowLeft: () => nav.onPan(-span / 4),
    ArrowRight: () => nav.onPan(span / 4),
    '+': () => nav.onZoom(2, mid),
    '=': () => nav.onZoom(2, mid),
    '-': () => nav.onZoom(0.5, mid),
    Home: () => nav.onFollow(),
  };
  const f = act[e.key];
  if (!f) return;
  // Handled here, so the lab's shortcuts (arrows step the simulation) do not also act.
  e.preventDefault();
  e.stopPropagation();
  f();
}

/** Who ran on each CPU in the window, in words (the lanes' text alternative; at most 16 CPUs, 6 names each). */
function lanesWords(
  slices: Float64Array,
  nrCpus: number,
  t0Ns: number,
  t1Ns: number,
  nameOf: (pid: number) => string,
  t: ReturnType<typeof useT>,
): string {
  const byCpu = new Map<number, Map<number, number>>();
  forEachSlice(slices, (cpu, pid, startNs, endNs) => {
    const m = byCpu.get(cpu) ?? new Map<number, number>();
    m.set(pid, (m.get(pid) ?? 0) + (Math.min(endNs, t1Ns) - Math.max(startNs, t0Ns)));
    byCpu.set(cpu, m);
  });
  const parts: string[] = [];
  for (let cpu = 0; cpu < nrCpus && parts.length < 16; cpu++) {
    const m = byCpu.get(cpu);
    if (!m) continue;
    const names = [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([pid]) => nameOf(pid));
    parts.push(t('a11y.lanesCpu', { cpu, names: names.join(', ') }));
  }
  return t('a11y.lanes', {
    t0: (t0Ns / 1e6).toFixed(1),
    t1: (t1Ns / 1e6).toFixed(1),
    list: parts.length ? parts.join('; ') : t('a11y.lanesIdle'),
  });
}

/** CSS px left of the lanes for the "cpuN" labels. */
const LABEL_W_PX = 48;
/** More tasks than this in the window and the legend lists the busiest only. */
const LEGEND_MAX = 24;

export interface GanttViewProps {
  /** Flat quads [cpu, pid, start_ns, end_ns, …] (run-slices.ts). */
  slices: Float64Array;
  /** The machine's CPUs; the lanes draw `lanes` of them (all, or past MAX_LANES the selected CPU's node). */
  nrCpus: number;
  lanes?: LaneRange;
  t0Ns: number;
  t1Ns: number;
  nameOf: (pid: number) => string;
  /** Called with the simulated time under a click (jump there). */
  onSeek?: (tNs: number) => void;
  /** Zoom and pan of the window; without it the lanes only follow the cursor. */
  nav?: GanttNav;
  /** Lane detail exists from this time on (older slices dropped to bound memory); null: all kept. */
  keptFromNs?: number | null;
}

export interface GanttNav {
  /** Whether the window ends at the cursor (else it was panned away). */
  follow: boolean;
  /** Zoom by `factor` (> 1 zooms in) keeping `anchorNs` where it is. */
  onZoom: (factor: number, anchorNs: number) => void;
  onPan: (deltaNs: number) => void;
  onFollow: () => void;
}

/** Pointer travel (CSS px) below which a press is a click, not a drag. */
const CLICK_SLOP_PX = 4;

export function GanttView({ slices, nrCpus, lanes, t0Ns, t1Ns, nameOf, onSeek, nav, keptFromNs }: GanttViewProps) {
  const t = useT();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const cssW = Math.max(240, useWidth(boxRef, 900));
  const lo = lanes?.lo ?? 0;
  const hi = lanes?.hi ?? nrCpus;
  const nrLanes = Math.max(0, hi - lo);
  const laneH = Math.max(4, Math.min(26, Math.floor(260 / Math.max(1, nrLanes))));
  const cssH = laneH * nrLanes + 4;
  // simSpace (ns) → cssPx, the one conversion this view needs; the right
  // margin leaves room for the last tick label.
  const x = d3
    .scaleLinear()
    .domain([t0Ns, Math.max(t1Ns, t0Ns + 1)])
    .range([LABEL_W_PX, cssW - 20]);

  const [drag, setDrag] = useState<{ startX: number; lastX: number } | null>(null);
  /** Pointers down on the lanes (id → clientX): two make a pinch. */
  const pointers = useRef(new Map<number, number>());
  const nsPerPx = (t1Ns - t0Ns) / Math.max(1, x.range()[1] - x.range()[0]);
  // Ctrl/⌘ + wheel zooms around the pointer; a plain wheel still scrolls the
  // page. A native listener, because React's wheel handlers are passive.
  const navRef = useLatest(nav);
  const xRef = useLatest(x);
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const onWheel = (e: WheelEvent) => {
      const n = navRef.current;
      if (!n || !(e.ctrlKey || e.metaKey)) return;
      e.preventDefault();
      const px = e.clientX - canvas.getBoundingClientRect().left;
      n.onZoom(e.deltaY < 0 ? 1.25 : 0.8, xRef.current.invert(Math.max(LABEL_W_PX, px)));
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
  }, [navRef, xRef]);

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
    for (let cpu = lo; cpu < hi; cpu++) {
      const y = 2 + (cpu - lo) * laneH;
      ctx.fillStyle = cpu % 2 === 0 ? '#f5f7fa' : '#eef1f5';
      ctx.fillRect(x0, y, x1 - x0, laneH - 1);
      // Thin lanes (many CPUs) are labelled every 8th, where a label fits.
      if (laneH >= 9 || (cpu - lo) % 8 === 0) {
        ctx.fillStyle = '#52606d';
        ctx.fillText(`cpu${cpu}`, 6, y + Math.max(laneH / 2, 5));
      }
    }
    // Batched by colour: one fillStyle change per task, not per slice.
    // A pixel column of a lane is painted once: zoomed out over hundreds
    // of CPUs, tens of thousands of slices are narrower than a pixel.
    // Runs by pid, as offsets of their quads in the flat array.
    const byPid = new Map<number, number[]>();
    for (let i = 0; i + SLICE_FIELDS <= slices.length; i += SLICE_FIELDS) {
      const cpu = slices[i];
      if (cpu < lo || cpu >= hi) continue;
      const runs = byPid.get(slices[i + 1]);
      if (runs) runs.push(i);
      else byPid.set(slices[i + 1], [i]);
    }
    const painted = new Map<number, Set<number>>();
    for (const [pid, runs] of byPid) {
      ctx.fillStyle = taskColor(pid);
      for (const i of runs) {
        const cpu = slices[i];
        const a = Math.max(x(slices[i + 2]), x0);
        const b = Math.min(x(slices[i + 3]), x1);
        if (b <= a) continue;
        if (b - a < 1) {
          let cols = painted.get(cpu);
          if (!cols) painted.set(cpu, (cols = new Set()));
          const col = Math.floor(a);
          if (cols.has(col)) continue;
          cols.add(col);
        }
        ctx.fillRect(a, 2 + (cpu - lo) * laneH, Math.max(1, b - a), laneH - 1);
      }
    }
  }, [slices, lo, hi, laneH, cssW, cssH, x]);

  const legend = useMemo(() => legendEntries(slices), [slices]);
  return (
    <section className="panel">
      <header className="panel-head">
        <h2>{t('gantt.title')}</h2>
        <span className="meta" data-testid="gantt-window">
          {nav && !nav.follow
            ? t('gantt.from', { span: fmtSpan(t1Ns - t0Ns), end: (t1Ns / 1e6).toFixed(3) })
            : t('gantt.last', { span: fmtSpan(t1Ns - t0Ns) })}
        </span>
        {nrLanes < nrCpus && (
          <span className="meta" data-testid="gantt-cpus">
            {t('gantt.someCpus', { lo, last: hi - 1, n: nrCpus })}
          </span>
        )}
        {keptFromNs != null && t0Ns < keptFromNs && (
          <span className="meta" data-testid="gantt-dropped">
            {t('gantt.dropped', { t: (keptFromNs / 1e6).toFixed(0) })}
          </span>
        )}
        {nav && (
          <span className="toggle" role="group" aria-label={t('gantt.zoomLabel')}>
            <button
              data-testid="gantt-zoom-out"
              onClick={() => nav.onZoom(0.5, nav.follow ? t1Ns : (t0Ns + t1Ns) / 2)}
              title={t('gantt.zoomOut')}
            >
              −
            </button>
            <button
              data-testid="gantt-zoom-in"
              onClick={() => nav.onZoom(2, nav.follow ? t1Ns : (t0Ns + t1Ns) / 2)}
              title={t('gantt.zoomIn')}
            >
              +
            </button>
            <button
              data-testid="gantt-follow"
              className={nav.follow ? 'on' : ''}
              onClick={nav.onFollow}
              title={t('gantt.followTitle')}
            >
              {t('gantt.follow')}
            </button>
          </span>
        )}
        <ExportButtons name="lanes" canvas />
      </header>
      <div ref={boxRef} className="gantt-box">
        <canvas
          data-testid="gantt"
          data-t0={t0Ns}
          data-t1={t1Ns}
          data-slices={sliceCount(slices)}
          ref={canvasRef}
          style={{
            width: cssW,
            height: cssH,
            cursor: drag ? 'grabbing' : nav ? 'grab' : onSeek ? 'pointer' : 'default',
          }}
          title={nav ? t('gantt.navTitle') : onSeek ? t('gantt.seekTitle') : undefined}
          // Keyboard: focusable, arrows pan, + / − zoom (lanesKeys); screen readers get who ran where.
          tabIndex={nav ? 0 : undefined}
          role="img"
          aria-label={lanesWords(slices, nrCpus, t0Ns, t1Ns, nameOf, t)}
          onKeyDown={nav ? (e) => lanesKeys(e, nav, t0Ns, t1Ns) : undefined}
          onPointerDown={(e) => {
            try {
              e.currentTarget.setPointerCapture(e.pointerId);
            } catch {
              // A pointer the browser no longer tracks (lifted already): the drag works without capture.
            }
            pointers.current.set(e.pointerId, e.clientX);
            // A second finger starts a pinch: no click, no drag.
            if (pointers.current.size === 2) return setDrag(null);
            setDrag({ startX: e.clientX, lastX: e.clientX });
          }}
          onPointerMove={(e) => {
            const before = pointers.current.get(e.pointerId);
            if (before === undefined) return;
            if (pointers.current.size === 2 && nav) {
              // Pinch: the spread between two fingers zooms around their middle.
              const [a, b] = [...pointers.current.entries()].map(([id, cx]) => (id === e.pointerId ? e.clientX : cx));
              const [pa, pb] = [...pointers.current.values()];
              const was = Math.abs(pa - pb);
              const now = Math.abs(a - b);
              pointers.current.set(e.pointerId, e.clientX);
              if (was > 10 && now > 10 && Math.abs(now - was) > 2) {
                const mid = (a + b) / 2 - e.currentTarget.getBoundingClientRect().left;
                nav.onZoom(now / was, x.invert(Math.max(LABEL_W_PX, mid)));
              }
              return;
            }
            pointers.current.set(e.pointerId, e.clientX);
            if (!drag || !nav) return;
            const dx = e.clientX - drag.lastX;
            if (Math.abs(e.clientX - drag.startX) < CLICK_SLOP_PX) return;
            // Dragging right shows earlier times.
            nav.onPan(-dx * nsPerPx);
            setDrag({ ...drag, lastX: e.clientX });
          }}
          onPointerUp={(e) => {
            const pinching = pointers.current.size > 1;
            pointers.current.delete(e.pointerId);
            const wasClick = !pinching && drag !== null && Math.abs(e.clientX - drag.startX) < CLICK_SLOP_PX;
            setDrag(null);
            const px = e.clientX - e.currentTarget.getBoundingClientRect().left;
            if (wasClick && onSeek && px >= LABEL_W_PX) onSeek(Math.round(x.invert(px)));
          }}
          onPointerCancel={(e) => {
            pointers.current.delete(e.pointerId);
            setDrag(null);
          }}
        />
        <div className="axis" style={{ width: cssW }}>
          {x.ticks(Math.max(2, Math.floor(cssW / 130))).map((tick) => (
            <span key={tick} style={{ left: x(tick) }}>
              {fmtTick(tick, t1Ns - t0Ns)}
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
        {legend.more > 0 && <li className="meta">{t('gantt.moreTasks', { n: legend.more })}</li>}
        {legend.shown.length === 0 && <li className="meta">{t('gantt.nothing')}</li>}
      </ul>
    </section>
  );
}

/** The tasks that ran in the window, by pid; only the busiest when there are many. */
function legendEntries(slices: Float64Array): { shown: number[]; more: number } {
  const ranNs = new Map<number, number>();
  forEachSlice(slices, (_cpu, pid, startNs, endNs) => ranNs.set(pid, (ranNs.get(pid) ?? 0) + endNs - startNs));
  const pids = [...ranNs.keys()];
  if (pids.length <= LEGEND_MAX) return { shown: pids.sort((a, b) => a - b), more: 0 };
  const busiest = pids.sort((a, b) => (ranNs.get(b) ?? 0) - (ranNs.get(a) ?? 0)).slice(0, LEGEND_MAX);
  return { shown: busiest.sort((a, b) => a - b), more: pids.length - LEGEND_MAX };
}

function fmtSpan(ns: number): string {
  return ns >= 10e6
    ? `${(ns / 1e6).toFixed(0)} ms`
    : ns >= 1e6
      ? `${(ns / 1e6).toFixed(1)} ms`
      : `${(ns / 1e3).toFixed(0)} µs`;
}

/** A tick label with as many decimals as the zoom needs to tell ticks apart. */
function fmtTick(t: number, spanNs: number): string {
  const digits = spanNs >= 50e6 ? 0 : spanNs >= 5e6 ? 1 : spanNs >= 500e3 ? 2 : 3;
  return `${(t / 1e6).toFixed(digits)} ms`;
}
