// The topology view's geometry and the cpulist parser, without a DOM.
import { describe, expect, it } from 'vitest';
import { layoutTopology, type Rect } from '../../src/views/topology/layout';
import { parseCpuList } from '../../src/views/cpulist';
import { toCpuList } from '../../src/views/topology/focus';
import type { TopologyView } from '../../src/engine/types';

function machine(nodes: number, cores: number, threads: number): TopologyView {
  const cpus = [];
  for (let c = 0; c < nodes * cores * threads; c++) {
    cpus.push({ cpu: c, node: Math.floor(c / (cores * threads)), core: Math.floor(c / threads), thread: c % threads, online: true });
  }
  const distance = Array.from({ length: nodes }, (_, i) => Array.from({ length: nodes }, (_, j) => (i === j ? 10 : 20)));
  const hops = distance.map((r) => r.map((d) => (d === 10 ? 0 : 1)));
  return { name: 'm', nodes, cores_per_node: cores, threads_per_core: threads, distance, hops, cpus };
}

const overlap = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const inside = (a: Rect, b: Rect) => a.x >= b.x && a.y >= b.y && a.x + a.w <= b.x + b.w && a.y + a.h <= b.y + b.h;

describe('topology layout', () => {
  for (const [n, c, t] of [
    [1, 1, 1],
    [1, 2, 2],
    [2, 16, 2],
    [8, 4, 2],
    [4, 8, 1],
  ]) {
    it(`${n} nodes × ${c} cores × ${t} threads: no overlap, every CPU inside its node`, () => {
      const m = machine(n, c, t);
      const l = layoutTopology(m);
      expect(l.cells).toHaveLength(n * c * t);
      for (let i = 0; i < l.nodes.length; i++) for (let j = i + 1; j < l.nodes.length; j++) expect(overlap(l.nodes[i], l.nodes[j])).toBe(false);
      for (const p of m.cpus) expect(inside(l.cells[p.cpu], l.nodes[p.node])).toBe(true);
      for (const r of l.nodes) expect(r.x >= 0 && r.y >= 0 && r.x + r.w <= l.width && r.y + r.h <= l.height).toBe(true);
    });
  }
});

describe('cpulists', () => {
  it('parses and prints the kernel format', () => {
    expect(parseCpuList('0-3,8,10-11')).toEqual([0, 1, 2, 3, 8, 10, 11]);
    expect(parseCpuList('x,2')).toEqual([2]);
    expect(parseCpuList('0-999999999')).toHaveLength(4096);
    expect(toCpuList([11, 0, 1, 2, 3, 8, 10])).toBe('0-3,8,10-11');
  });
});
