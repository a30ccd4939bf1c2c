// The topology view's geometry (ring, grid of nodes grouped by package, a
// node per cell with one opened) and the cpulist parser, without a DOM.
import { describe, expect, it } from 'vitest';
import { MAX_HEIGHT, layoutTopology, type Rect, type TopologyLayout } from '../../src/views/topology/layout';
import { packagesOf } from '../../src/views/topology/packages';
import { cpuCount, cpuListText, cpusOf, toCpuList } from '../../src/views/cpuset';
import type { TopologyView } from '../../src/engine/types';

function machine(nodes: number, cores: number, threads: number): TopologyView {
  const cpus = [];
  for (let c = 0; c < nodes * cores * threads; c++) {
    cpus.push({
      cpu: c,
      package: Math.floor(c / (cores * threads)),
      node: Math.floor(c / (cores * threads)),
      core: Math.floor(c / threads),
      thread: c % threads,
      online: true,
    });
  }
  const distance = Array.from({ length: nodes }, (_, i) =>
    Array.from({ length: nodes }, (_, j) => (i === j ? 10 : 20)),
  );
  const hops = distance.map((r) => r.map((d) => (d === 10 ? 0 : 1)));
  return {
    name: 'm',
    nodes,
    cores_per_node: cores,
    threads_per_core: threads,
    nodes_per_package: 1,
    distance,
    hops,
    cpus,
  };
}

const overlap = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const inside = (a: Rect, b: Rect) => a.x >= b.x && a.y >= b.y && a.x + a.w <= b.x + b.w && a.y + a.h <= b.y + b.h;
const noneOverlap = (rs: Rect[]) => rs.every((a, i) => rs.every((b, j) => j <= i || !overlap(a, b)));

/** The geometry every layout keeps: no overlaps, every box inside the drawing, the drawing no wider than the panel. */
function checkLayout(m: TopologyView, l: TopologyLayout, width: number) {
  expect(l.cells).toHaveLength(m.cpus.length);
  expect(l.width).toBeLessThanOrEqual(width);
  expect(noneOverlap(l.nodes)).toBe(true);
  const frame = { x: 0, y: 0, w: l.width, h: l.height };
  for (const r of [...l.nodes, ...l.cells, ...l.packages, ...(l.detail ? [l.detail] : [])])
    expect(inside(r, frame)).toBe(true);
  // Each package holds its nodes; each CPU drawn on its own is in its node's box (or the open node's).
  for (const pk of l.packages) expect(l.nodes.some((n) => inside(n, pk))).toBe(true);
  const own = m.cpus.filter((p) => l.mode !== 'nodes' || p.node === l.open);
  for (const p of own)
    expect(inside(l.cells[p.cpu], l.mode === 'nodes' ? (l.detail as Rect) : l.nodes[p.node])).toBe(true);
  expect(noneOverlap(own.map((p) => l.cells[p.cpu]))).toBe(true);
  if (l.mode === 'nodes')
    for (const p of m.cpus.filter((q) => q.node !== l.open)) expect(l.cells[p.cpu]).toBe(l.nodeCells[p.node]);
}

describe('topology layout', () => {
  // [nodes, cores per node, threads per core]; each at a lab's panel width and at compare's half.
  const machines = [
    [1, 1, 1],
    [1, 2, 2],
    [2, 16, 2],
    [4, 8, 1],
    [8, 4, 2],
    [8, 16, 2],
    [16, 8, 2],
    [64, 16, 1],
    [64, 4, 2],
  ] as const;
  for (const [n, c, t] of machines) {
    for (const width of [1240, 560]) {
      it(`${n} nodes × ${c} cores × ${t} threads in ${width} px: no overlap, fits the width, every CPU inside`, () => {
        const m = machine(n, c, t);
        const l = layoutTopology(m, { width });
        checkLayout(m, l, width);
        expect(l.height).toBeLessThanOrEqual(MAX_HEIGHT);
        if (l.mode === 'nodes') checkLayout(m, layoutTopology(m, { width, open: n - 1 }), width);
      });
    }
  }

  it('keeps the ring for small machines that fit, and leaves it when they do not', () => {
    expect(layoutTopology(machine(1, 1, 1), { width: 1240 }).mode).toBe('ring');
    expect(layoutTopology(machine(8, 4, 2), { width: 1240 }).mode).toBe('ring');
    expect(layoutTopology(machine(8, 4, 2), { width: 560 }).mode).toBe('grid');
    expect(layoutTopology(machine(16, 2, 1), { width: 1240 }).mode).toBe('grid');
  });

  it('draws 64 nodes × 16 cores a node per cell, and opens a node to show its CPUs', () => {
    const m = machine(64, 16, 1);
    const closed = layoutTopology(m, { width: 1240 });
    expect(closed.mode).toBe('nodes');
    expect(closed.nodeCells).toHaveLength(64);
    expect(closed.detail).toBeNull();
    const open = layoutTopology(m, { width: 1240, open: 12 });
    expect(open.open).toBe(12);
    const cpus = m.cpus.filter((p) => p.node === 12).map((p) => open.cells[p.cpu]);
    expect(cpus).toHaveLength(16);
    for (const r of cpus) expect(inside(r, open.detail as Rect)).toBe(true);
    // Below the grid of nodes, not over it.
    for (const r of open.nodes) expect(overlap(r, open.detail as Rect)).toBe(false);
  });

  it('groups nodes by package: nodes nearer each other than the rest', () => {
    // Two sockets of 4 nodes: 16 within a socket, 32 across.
    const m = machine(8, 8, 2);
    m.distance = m.distance.map((row, i) =>
      row.map((_, j) => (i === j ? 10 : Math.floor(i / 4) === Math.floor(j / 4) ? 16 : 32)),
    );
    expect(packagesOf(m.distance)).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ]);
    const l = layoutTopology(m, { width: 560 });
    expect(l.packages).toHaveLength(2);
    for (const n of [0, 1, 2, 3]) expect(inside(l.nodes[n], l.packages[0])).toBe(true);
    for (const n of [4, 5, 6, 7]) expect(inside(l.nodes[n], l.packages[1])).toBe(true);
    checkLayout(m, l, 560);
    // A uniform machine is one package (drawn without an outline).
    expect(packagesOf(machine(4, 1, 1).distance)).toEqual([[0, 1, 2, 3]]);
    expect(layoutTopology(machine(16, 2, 1), { width: 1240 }).packages).toHaveLength(0);
  });
});

describe('CPU sets', () => {
  it("read the engine's bitmaps and print the kernel's cpulist format", () => {
    expect(toCpuList([11, 0, 1, 2, 3, 8, 10, 3])).toBe('0-3,8,10-11');
    // CPU c is bit c % 32 of word c / 32; bit 31 is a CPU, not a sign.
    const bits = [0x80000f0f, 0, 0x1];
    expect(cpusOf(bits)).toEqual([0, 1, 2, 3, 8, 9, 10, 11, 31, 64]);
    expect(cpuCount(bits)).toBe(10);
    expect(cpuListText(bits)).toBe('0-3,8-11,31,64');
    expect(cpusOf([])).toEqual([]);
  });
});
