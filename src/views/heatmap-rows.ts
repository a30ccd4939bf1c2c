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
export function rowMeans(rows: HeatRow[], values: ArrayLike<number>, buckets: number, nrCpus: number): { means: Float64Array; top: number } {
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
