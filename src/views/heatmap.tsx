// Heatmaps of runqueue length and load per CPU over time (the paper's
// figure 2): one row per CPU in topology order (node, core, thread), or on a
// large machine one per node with one node opened CPU by CPU (heatmap-rows),
// one column per time bucket of the engine's bounded history. Drawn on a canvas
// pixel per bucket and scaled up; above them a strip marks migrations per
// bucket and the sanity checker's violations. A click jumps to that time.
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import * as d3 from 'd3';
import type { CpuPlace, LoadHistory, ViolationReport } from '../engine/types';
import { useWidth } from './use-width';
import { useT } from '../i18n/i18n';
import { ExportButtons } from './export/export-buttons';
import { heatRows, rowAt, rowGeometry, rowMeans, type HeatRow } from './heatmap-rows';

const LABEL_W_PX = 52;
const MARK_H_PX = 16;
const BLANK = { r: 245, g: 247, b: 250 };

/**
 * The colour of a cell as one 32-bit RGBA pixel: index 0 an empty cell (BLANK),
 * 1–256 the 256 steps of the colour scale. Built once: parsing a colour per pixel,
 * or even building the table per draw, would cost more than the drawing (a 64-CPU
 * map is some 100,000 cells, redrawn a few times a second while playing).
 */
const PIXELS: Uint32Array = (() => {
  const colour = d3.scaleSequential(d3.interpolateYlOrRd).domain([0, 255]);
  const bytes = new Uint8ClampedArray(257 * 4);
  const put = (i: number, c: { r: number; g: number; b: number }) => bytes.set([c.r, c.g, c.b, 255], i * 4);
  put(0, BLANK);
  for (let i = 0; i < 256; i++) put(i + 1, d3.rgb(colour(i)));
  // Read back through the view the image is written with, so byte order does not matter.
  return new Uint32Array(bytes.buffer);
})();

export interface HeatmapProps {
  history: LoadHistory;
  cpus: CpuPlace[];
  nowNs: number;
  /** The time axis spans the whole run, so it stays put while playing. */
  durationNs: number;
  violations: ViolationReport[];
  onSeek: (tNs: number) => void;
  /** The load map's title when it is not PELT's (a real trace's: the queued threads' nice weights). */
  loadTitle?: string;
}

export function Heatmaps(p: HeatmapProps) {
  const t = useT();
  const boxRef = useRef<HTMLDivElement>(null);
  const cssW = Math.max(240, useWidth(boxRef, 900));
  // The node drawn CPU by CPU when the rows stand for nodes (a click on a node's label, or the picker).
  const [open, setOpen] = useState<number | null>(null);
  const { rows, aggregated, nodes } = useMemo(() => heatRows(p.cpus, open), [p.cpus, open]);
  const toggle = useCallback((node: number) => setOpen((o) => (o === node ? null : node)), []);
  const spanNs = Math.max(p.durationNs, 1);
  const x = useMemo(
    () =>
      d3
        .scaleLinear()
        .domain([0, spanNs])
        .range([LABEL_W_PX, cssW - 16]),
    [spanNs, cssW],
  );
  return (
    <section className="panel" data-testid="heatmaps">
      <header className="panel-head">
        <h2>{t('heat.title')}</h2>
        <span className="meta">
          {t('heat.meta', {
            n: p.history.buckets,
            w: (p.history.widthNs / 1e6).toFixed(p.history.widthNs < 1e7 ? 1 : 0),
          })}
        </span>
        {aggregated && (
          <label className="heat-open">
            {t('heat.open')}{' '}
            <select
              data-testid="heat-open"
              value={open ?? ''}
              onChange={(e) => setOpen(e.target.value === '' ? null : Number(e.target.value))}
            >
              <option value="">{t('heat.openNone')}</option>
              {nodes.map((n) => (
                <option key={n} value={n}>
                  {t('heat.node', { n })}
                </option>
              ))}
            </select>
          </label>
        )}
        <ExportButtons name="heatmaps" canvas />
      </header>
      <div ref={boxRef} className="heatmap-box">
        {/* The cursor is a positioned line over the canvases: moving it redraws nothing. */}
        <div
          className="heat-cursor"
          data-testid="heat-cursor"
          style={{ left: Math.round(x(Math.min(p.nowNs, spanNs))) }}
        />
        <MarkStrip history={p.history} violations={p.violations} x={x} cssW={cssW} onSeek={p.onSeek} />
        <Heatmap
          kind="nr_running"
          title={t('heat.runnable')}
          history={p.history}
          rows={rows}
          nrCpus={p.cpus.length}
          open={open}
          x={x}
          cssW={cssW}
          onSeek={p.onSeek}
          onToggle={toggle}
        />
        <Heatmap
          kind="load"
          title={p.loadTitle ?? t('heat.load')}
          history={p.history}
          rows={rows}
          nrCpus={p.cpus.length}
          open={open}
          x={x}
          cssW={cssW}
          onSeek={p.onSeek}
          onToggle={toggle}
        />
        <div className="axis" style={{ width: cssW }}>
          {x.ticks(Math.max(2, Math.floor(cssW / 130))).map((tick) => (
            <span key={tick} style={{ left: x(tick) }}>
              {(tick / 1e6).toFixed(0)} ms
            </span>
          ))}
        </div>
      </div>
    </section>
  );
}

type Scale = d3.ScaleLinear<number, number>;

/** A heatmap's numbers in words (its text alternative): the peak, and each row's value (a CPU's, or a node's
 * mean) in the latest bucket (at most 64 rows). */
function heatWords(
  what: string,
  means: Float64Array,
  h: LoadHistory,
  rows: HeatRow[],
  t: ReturnType<typeof useT>,
): string {
  const fmt = (v: number) => (v < 10 ? v.toFixed(1) : String(Math.round(v)));
  const name = (r: HeatRow) => (r.cpus.length === 1 ? String(r.cpus[0]) : t('heat.node', { n: r.node }));
  let max = 0;
  let at = 0;
  for (let i = 0; i < means.length; i++) {
    if (means[i] > max) [max, at] = [means[i], Math.floor(i / Math.max(1, h.buckets))];
  }
  const last = Math.max(0, h.buckets - 1);
  const list = rows.slice(0, 64).map((r, i) => `${name(r)}: ${fmt(means[i * h.buckets + last] ?? 0)}`);
  return t('a11y.heatmap', {
    what,
    buckets: h.buckets,
    t: ((h.buckets * h.widthNs) / 1e6).toFixed(0),
    max: fmt(max),
    cpu: rows[at] ? name(rows[at]) : '0',
    list: list.join(', ') + (rows.length > 64 ? ', …' : ''),
  });
}

function seekHandler(x: Scale, onSeek: (t: number) => void, onLabel?: (yPx: number) => void) {
  return (e: React.MouseEvent<HTMLCanvasElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const px = e.clientX - box.left;
    if (px >= LABEL_W_PX) onSeek(Math.max(0, Math.round(x.invert(px))));
    else onLabel?.(e.clientY - box.top);
  };
}

/** Sets the canvas's backing size for the device pixel ratio (here only);
 * resizing reallocates the canvas, so only when the size changed. */
function prepare(canvas: HTMLCanvasElement, cssW: number, cssH: number): CanvasRenderingContext2D | null {
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  const dpr = window.devicePixelRatio || 1;
  const w = Math.round(cssW * dpr);
  const h = Math.round(cssH * dpr);
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, cssW, cssH);
  return ctx;
}

interface OneProps {
  kind: 'nr_running' | 'load';
  title: string;
  history: LoadHistory;
  rows: HeatRow[];
  nrCpus: number;
  /** The opened node, when rows stand for nodes. */
  open: number | null;
  x: Scale;
  cssW: number;
  onSeek: (t: number) => void;
  /** A click on a node's label opens or closes it (only when rows stand for nodes). */
  onToggle: (node: number) => void;
}

const Heatmap = memo(function Heatmap(p: OneProps) {
  const { x } = p;
  const t = useT();
  const ref = useRef<HTMLCanvasElement>(null);
  const n = p.rows.length;
  const aggregated = p.rows.some((r) => r.cpus.length > 1);
  const geo = useMemo(() => rowGeometry(p.rows, aggregated), [p.rows, aggregated]);
  const cssH = geo.height;
  const values = p.kind === 'nr_running' ? p.history.nrRunning : p.history.load;
  // Row values (a node row is its CPUs' mean) and the colour scale's top, at least 4 threads or one nice-0 load.
  const { means, top } = useMemo(() => {
    const m = rowMeans(p.rows, values, p.history.buckets, p.nrCpus);
    return { means: m.means, top: Math.max(m.top, p.kind === 'nr_running' ? 4 : 2048) };
  }, [p.rows, values, p.history.buckets, p.nrCpus, p.kind]);
  useEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    const ctx = prepare(canvas, p.cssW, cssH);
    if (!ctx) return;
    const { buckets, widthNs } = p.history;
    if (buckets > 0) {
      // One pixel per bucket × row, then scaled onto the time axis unsmoothed.
      const img = new ImageData(buckets, n);
      const px = new Uint32Array(img.data.buffer);
      for (let i = 0; i < n * buckets; i++) {
        const v = means[i];
        px[i] = PIXELS[v <= 0 ? 0 : 1 + Math.min(255, Math.round((v / top) * 255))];
      }
      const off = document.createElement('canvas');
      off.width = buckets;
      off.height = n;
      off.getContext('2d')?.putImageData(img, 0, 0);
      ctx.imageSmoothingEnabled = false;
      const x0 = x(0);
      const w = x(buckets * widthNs) - x0;
      // Row by row: rows differ in height once a node is opened.
      for (let row = 0; row < n; row++) ctx.drawImage(off, 0, row, buckets, 1, x0, geo.y[row], w, geo.h[row]);
    }
    // Node boundaries and labels: rows are grouped by node. Node rows thinner
    // than a label are labelled every few nodes so labels do not overlap.
    ctx.font = '10px system-ui, sans-serif';
    ctx.textBaseline = 'top';
    let lastLabel = -Infinity;
    for (let row = 0; row < n; row++) {
      const r = p.rows[row];
      if (!r.firstOfNode) continue;
      const y = geo.y[row];
      // The open node is always labelled; others where a label fits.
      if (y - lastLabel >= 12 || r.node === p.open) {
        ctx.fillStyle = '#52606d';
        const mark = aggregated ? (r.node === p.open ? '▾ ' : '▸ ') : '';
        ctx.fillText(n === 1 ? `cpu${r.cpus[0]}` : mark + t('heat.node', { n: r.node }), 4, y + 1);
        lastLabel = y;
      }
      if (row > 0 && (geo.h[row] >= 4 || r.node === p.open || p.rows[row - 1].node === p.open)) {
        ctx.fillStyle = '#1f2933';
        ctx.fillRect(x(0), y - 0.5, x.range()[1] - x(0), 1);
      }
    }
  }, [means, top, p.history, p.rows, p.open, x, p.cssW, n, geo, cssH, aggregated, t]);
  const onLabel = aggregated
    ? (y: number) => {
        const r = p.rows[rowAt(geo, y)];
        if (r) p.onToggle(r.node);
      }
    : undefined;
  return (
    <div className="heatmap">
      <div className="heatmap-title">
        {p.title} <span className="meta">0 … {p.kind === 'load' ? Math.round(top) : top.toFixed(0)}</span>
      </div>
      <canvas
        data-testid={`heatmap-${p.kind}`}
        data-rows={n}
        ref={ref}
        style={{ width: p.cssW, height: cssH, cursor: 'pointer' }}
        onClick={seekHandler(x, p.onSeek, onLabel)}
        role="img"
        aria-label={heatWords(p.title, means, p.history, p.rows, t)}
      />
    </div>
  );
});

/** Migrations per bucket as bars; the checker's violations as red spans. */
const MarkStrip = memo(function MarkStrip(p: {
  history: LoadHistory;
  violations: ViolationReport[];
  x: Scale;
  cssW: number;
  onSeek: (t: number) => void;
}) {
  const { x } = p;
  const t = useT();
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    const ctx = prepare(canvas, p.cssW, MARK_H_PX);
    if (!ctx) return;
    const { buckets, widthNs, migrations } = p.history;
    let most = 1;
    for (const m of migrations) if (m > most) most = m;
    ctx.fillStyle = '#7b2cbf';
    for (let b = 0; b < buckets; b++) {
      if (migrations[b] === 0) continue;
      const h = Math.max(1, (migrations[b] / most) * (MARK_H_PX - 4));
      const a = x(b * widthNs);
      ctx.fillRect(a, MARK_H_PX - h, Math.max(1, x((b + 1) * widthNs) - a), h);
    }
    ctx.fillStyle = 'rgba(225, 45, 57, 0.85)';
    for (const v of p.violations) {
      const a = x(v.detected_ns);
      ctx.fillRect(a, 0, Math.max(2, x(v.confirmed_ns) - a), 5);
    }
    ctx.font = '10px system-ui, sans-serif';
    ctx.textBaseline = 'top';
    ctx.fillStyle = '#52606d';
    ctx.fillText(t('heat.moves'), 4, 3);
  }, [p.history, p.violations, x, p.cssW, t]);
  return (
    <canvas
      data-testid="heatmap-marks"
      data-migrations={d3.sum(p.history.migrations)}
      data-violations={p.violations.length}
      ref={ref}
      style={{ width: p.cssW, height: MARK_H_PX, cursor: 'pointer' }}
      title={t('heat.marksTitle')}
      onClick={seekHandler(p.x, p.onSeek)}
      role="img"
      aria-label={t('a11y.marks', { m: d3.sum(p.history.migrations), v: p.violations.length })}
    />
  );
});
