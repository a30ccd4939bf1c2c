// The heatmaps' rows: a CPU each on small machines, a node each past
// MAX_CPU_ROWS with one node opened CPU by CPU, and node rows as their CPUs' mean.
import { describe, expect, it } from 'vitest';
import { MAX_CPU_ROWS, heatRows, rowAt, rowGeometry, rowMeans } from '../../src/views/heatmap-rows';
import type { CpuPlace } from '../../src/engine/types';

/** CPUs numbered node-major, listed in a shuffled order (the rows must sort them). */
function cpus(nodes: number, perNode: number): CpuPlace[] {
  const out: CpuPlace[] = [];
  for (let c = 0; c < nodes * perNode; c++)
    out.push({
      cpu: c,
      package: Math.floor(c / perNode),
      node: Math.floor(c / perNode),
      core: c,
      thread: 0,
      online: true,
    });
  return out.reverse();
}

describe('heatRows', () => {
  it('keeps one row per CPU in topology order up to the limit', () => {
    const { rows, aggregated } = heatRows(cpus(8, 8), null);
    expect(aggregated).toBe(false);
    expect(rows.map((r) => r.cpus)).toEqual(Array.from({ length: 64 }, (_, c) => [c]));
    expect(rows.filter((r) => r.firstOfNode).map((r) => r.cpus[0])).toEqual([0, 8, 16, 24, 32, 40, 48, 56]);
  });

  it('draws a node per row past the limit, and the opened node CPU by CPU', () => {
    const m = cpus(16, 64);
    expect(m.length).toBeGreaterThan(MAX_CPU_ROWS);
    const closed = heatRows(m, null);
    expect(closed.aggregated).toBe(true);
    expect(closed.rows).toHaveLength(16);
    expect(closed.rows[3].cpus).toEqual(Array.from({ length: 64 }, (_, i) => 192 + i));
    const opened = heatRows(m, 3);
    expect(opened.rows).toHaveLength(15 + 64);
    expect(opened.rows.slice(3, 67).map((r) => r.cpus)).toEqual(Array.from({ length: 64 }, (_, i) => [192 + i]));
    expect(opened.rows[4].firstOfNode).toBe(false);
    expect(opened.rows[67].cpus).toHaveLength(64);
    // Every CPU is in exactly one row either way.
    for (const { rows } of [closed, opened]) {
      expect(rows.flatMap((r) => r.cpus).sort((a, b) => a - b)).toEqual(Array.from({ length: 1024 }, (_, c) => c));
    }
  });

  it('does not aggregate a machine that is one node', () => {
    const { rows, aggregated } = heatRows(cpus(1, 256), null);
    expect(aggregated).toBe(false);
    expect(rows).toHaveLength(256);
  });
});

describe('rowMeans', () => {
  it('is each row’s mean per bucket, and the largest mean', () => {
    // Two buckets of four CPUs, bucket-major.
    const values = [1, 3, 0, 8, /* bucket 1 */ 2, 2, 4, 0];
    const rows = [
      { node: 0, cpus: [0, 1], firstOfNode: true },
      { node: 1, cpus: [2], firstOfNode: true },
      { node: 1, cpus: [3], firstOfNode: false },
    ];
    const { means, top } = rowMeans(rows, values, 2, 4);
    expect([...means]).toEqual([2, 2, 0, 4, 8, 0]);
    expect(top).toBe(8);
  });
});

describe('rowGeometry', () => {
  it('keeps 64 CPU rows at 3 px, as before aggregation existed', () => {
    const { rows, aggregated } = heatRows(cpus(8, 8), null);
    const g = rowGeometry(rows, aggregated);
    expect(new Set(g.h)).toEqual(new Set([3]));
    expect(g.height).toBe(192);
  });

  it('does not squash closed nodes when one opens, and finds the row under a point', () => {
    const closed = rowGeometry(heatRows(cpus(16, 64), null).rows, true);
    expect(closed.h.every((h) => h === 13)).toBe(true);
    const { rows } = heatRows(cpus(16, 64), 3);
    const g = rowGeometry(rows, true);
    expect(g.h[0]).toBeGreaterThanOrEqual(4);
    expect(g.h[3]).toBe(2);
    // Rows tile the map without gaps.
    for (let r = 1; r < rows.length; r++) expect(g.y[r]).toBe(g.y[r - 1] + g.h[r - 1]);
    expect(g.height).toBe(g.y[rows.length - 1] + g.h[rows.length - 1]);
    expect(rowAt(g, g.y[3] + 1)).toBe(3);
    expect(rowAt(g, g.y[67])).toBe(67);
    expect(rowAt(g, g.height + 1)).toBe(-1);
  });
});
