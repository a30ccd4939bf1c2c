// Where the lanes go on their canvas (the lane height, the time scale) and
// painting them: one lane per CPU of the lane range, each task's slices in its
// colour.
import type { RefObject } from 'react';
import * as d3 from 'd3';
import { SLICE_FIELDS } from '../../engine/run-slices';
import type { LaneRange } from '../../engine/lane-range';
import { taskColor } from '../colors';
import { useWidth } from '../use-width';

/** CSS px left of the lanes for the "cpuN" labels. */
export const LABEL_W_PX = 48;

export interface LanesGeometry {
  /** The CPUs drawn, `lo` to `hi` excluded. */
  lo: number;
  hi: number;
  nrLanes: number;
  laneH: number;
  cssW: number;
  cssH: number;
  /** simSpace (ns) → cssPx, the one conversion the lanes need. */
  x: d3.ScaleLinear<number, number>;
}

/** The lanes' geometry for the box's width, the lane range and the window. */
export function useLanesGeometry(
  boxRef: RefObject<HTMLDivElement | null>,
  nrCpus: number,
  lanes: LaneRange | undefined,
  t0Ns: number,
  t1Ns: number,
): LanesGeometry {
  const cssW = Math.max(240, useWidth(boxRef, 900));
  const lo = lanes?.lo ?? 0;
  const hi = lanes?.hi ?? nrCpus;
  const nrLanes = Math.max(0, hi - lo);
  const laneH = Math.max(4, Math.min(26, Math.floor(260 / Math.max(1, nrLanes))));
  const cssH = laneH * nrLanes + 4;
  // The right margin leaves room for the last tick label.
  const x = d3
    .scaleLinear()
    .domain([t0Ns, Math.max(t1Ns, t0Ns + 1)])
    .range([LABEL_W_PX, cssW - 20]);
  return { lo, hi, nrLanes, laneH, cssW, cssH, x };
}

/** The bands drawn along the top of a slice of a class above the fair class: the lanes show each slice's class
 * (the colours of the runqueue panel's class strip). */
export const CLASS_BAND_COLOR = { realtime: '#9b1c1c', deadline: '#6b21a8' } as const;
export type BandClass = keyof typeof CLASS_BAND_COLOR;

/** Paints the lanes and the slices of `slices` that fall on them; a task of a class above the fair class
 * (`bands`: pid → its class) carries that class's band. */
export function paintLanes(
  canvas: HTMLCanvasElement,
  slices: Float64Array,
  g: LanesGeometry,
  bands: ReadonlyMap<number, BandClass> = new Map(),
): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const { lo, hi, laneH, cssW, cssH, x } = g;
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
  const painted = new Map<number, Set<number>>();
  for (const [pid, runs] of slicesByPid(slices, lo, hi)) {
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
  if (bands.size === 0) return;
  const band = Math.max(2, Math.floor(laneH / 4));
  for (const [pid, runs] of slicesByPid(slices, lo, hi)) {
    const cls = bands.get(pid);
    if (cls === undefined) continue;
    ctx.fillStyle = CLASS_BAND_COLOR[cls];
    for (const i of runs) {
      const a = Math.max(x(slices[i + 2]), x0);
      const b = Math.min(x(slices[i + 3]), x1);
      if (b > a) ctx.fillRect(a, 2 + (slices[i] - lo) * laneH, Math.max(1, b - a), band);
    }
  }
}

/** The slices on CPUs `lo` to `hi` by pid, as offsets of their quads in the flat array. */
function slicesByPid(slices: Float64Array, lo: number, hi: number): Map<number, number[]> {
  const byPid = new Map<number, number[]>();
  for (let i = 0; i + SLICE_FIELDS <= slices.length; i += SLICE_FIELDS) {
    const cpu = slices[i];
    if (cpu < lo || cpu >= hi) continue;
    const runs = byPid.get(slices[i + 1]);
    if (runs) runs.push(i);
    else byPid.set(slices[i + 1], [i]);
  }
  return byPid;
}
