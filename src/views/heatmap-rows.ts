// The rows of the heatmaps: one per CPU in topology order while that keeps a
// row at least a couple of pixels tall, else one per NUMA node (the mean of
// its CPUs, as the topology view's node cells show) with the CPUs of one
// opened node drawn row by row in its place. Pure data, tested without a DOM.
import type { CpuPlace } from '../engine/types';

/** Past this many CPUs, rows stand for whole nodes (a 220 px map would give a CPU under 2 px). */
export const MAX_CPU_ROWS = 128;

export interface HeatRow {
  node: number;
  /** The CPUs the row averages: one, or every CPU of a closed node. */
  cpus: number[];
  /** The first row of its node (where the node's label and boundary go). */
  firstOfNode: boolean;
}

export interface HeatRows {
  rows: HeatRow[];
  /** Whether closed nodes are drawn as one row each. */
  aggregated: boolean;
  /** The nodes in order (for the drill-down picker). */
  nodes: number[];
}

/** The rows for these CPUs; `open` is the node whose CPUs show one by one when aggregated. */
export function heatRows(cpus: CpuPlace[], open: number | null): HeatRows {
  const order = [...cpus].sort((a, b) => a.node - b.node || a.core - b.core || a.thread - b.thread);
  const nodes = [...new Set(order.map((c) => c.node))];
  const aggregated = cpus.length > MAX_CPU_ROWS && nodes.length > 1;
  const rows: HeatRow[] = [];
  let i = 0;
  while (i < order.length) {
    const node = order[i].node;
    let j = i;
    while (j < order.length && order[j].node === node) j++;
    const members = order.slice(i, j).map((c) => c.cpu);
    if (aggregated && node !== open) {
      rows.push({ node, cpus: members, firstOfNode: true });
    } else {
      members.forEach((cpu, k) => rows.push({ node, cpus: [cpu], firstOfNode: k === 0 }));
    }
    i = j;
  }
  return { rows, aggregated, nodes };
}

/**
 * Per row and bucket, the mean of its CPUs' values (`values` is bucket-major,
 * `nrCpus` per bucket), row-major; and the largest mean, for the colour scale.
 */
export function rowMeans(
  rows: HeatRow[],
  values: ArrayLike<number>,
  buckets: number,
  nrCpus: number,
): { means: Float64Array; top: number } {
  const means = new Float64Array(rows.length * buckets);
  let top = 0;
  rows.forEach((row, r) => {
    for (let b = 0; b < buckets; b++) {
      let sum = 0;
      for (const cpu of row.cpus) sum += values[b * nrCpus + cpu];
      const m = sum / row.cpus.length;
      means[r * buckets + b] = m;
      if (m > top) top = m;
    }
  });
  return { means, top };
}

/** Where each row is drawn (CSS px): `y[r]` its top, `h[r]` its height, `height` the whole map. */
export interface RowGeometry {
  y: number[];
  h: number[];
  height: number;
}

/**
 * Row heights: CPU rows share about 220 px (2 to 14 px each); on an aggregated
 * map, node rows share 220 px (4 to 14 px) and the open node's CPU rows about
 * 160 px more (2 to 14 px), so opening a node does not squash the others.
 */
export function rowGeometry(rows: HeatRow[], aggregated: boolean): RowGeometry {
  const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.floor(v)));
  const nodeRows = rows.filter((r) => r.cpus.length > 1).length;
  const cpuRows = rows.length - nodeRows;
  const cpuH = aggregated ? clamp(160 / Math.max(1, cpuRows), 2, 14) : clamp(220 / Math.max(1, rows.length), 2, 14);
  const nodeH = clamp(220 / Math.max(1, nodeRows + (cpuRows > 0 ? 1 : 0)), 4, 14);
  const y: number[] = [];
  const h: number[] = [];
  let top = 0;
  for (const r of rows) {
    const rh = aggregated && r.cpus.length > 1 ? nodeH : cpuH;
    y.push(top);
    h.push(rh);
    top += rh;
  }
  return { y, h, height: top };
}

/** The row at `yPx` (CSS px from the map's top), or -1. */
export function rowAt(g: RowGeometry, yPx: number): number {
  for (let r = 0; r < g.y.length; r++) if (yPx >= g.y[r] && yPx < g.y[r] + g.h[r]) return r;
  return -1;
}
