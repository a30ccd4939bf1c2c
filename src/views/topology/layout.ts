// Where the topology view draws each NUMA node and CPU: pure geometry from
// the machine description, so it can be tested without a DOM.
//
//   node box: header, then its cores in a grid (≤ 4 per row); a core is a
//   column of its SMT threads (CPUs). Nodes sit on an ellipse so the links
//   between them run through the open middle instead of across other nodes.
import type { TopologyView } from '../../engine/types';

/** CPU cell sizes: roomy on small machines, compact from 9 CPUs on. */
const BIG = { w: 124, h: 40 };
const SMALL = { w: 58, h: 30 };
const GAP = 4;
const PAD = 6;
const HEAD = 16;
const CORES_PER_ROW = 4;

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface TopologyLayout {
  width: number;
  height: number;
  nodes: Rect[];
  /** Per CPU: its cell. */
  cells: Rect[];
  /** Per core (machine-wide): the box around its SMT threads. */
  cores: Rect[];
  /** Whether cells are the roomy size (labels may be longer). */
  big: boolean;
}

export function layoutTopology(t: TopologyView): TopologyLayout {
  const big = t.cpus.length <= 8;
  const { w: CELL_W, h: CELL_H } = big ? BIG : SMALL;
  const cols = Math.min(CORES_PER_ROW, Math.max(1, t.cores_per_node));
  const rows = Math.ceil(t.cores_per_node / cols);
  const coreW = CELL_W + 2;
  const coreH = t.threads_per_core * CELL_H + 2;
  const boxW = PAD * 2 + cols * coreW + (cols - 1) * GAP;
  const boxH = HEAD + PAD * 2 + rows * coreH + (rows - 1) * GAP;
  const centres = nodeCentres(t.nodes, boxW, boxH);
  const minX = Math.min(...centres.map((c) => c.x)) - boxW / 2;
  const minY = Math.min(...centres.map((c) => c.y)) - boxH / 2;
  const margin = 8;
  const nodes = centres.map((c) => ({ x: c.x - boxW / 2 - minX + margin, y: c.y - boxH / 2 - minY + margin, w: boxW, h: boxH }));
  const cores: Rect[] = [];
  const cells: Rect[] = [];
  for (let n = 0; n < t.nodes; n++) {
    for (let k = 0; k < t.cores_per_node; k++) {
      const x = nodes[n].x + PAD + (k % cols) * (coreW + GAP);
      const y = nodes[n].y + HEAD + PAD + Math.floor(k / cols) * (coreH + GAP);
      cores.push({ x, y, w: coreW, h: coreH });
      for (let th = 0; th < t.threads_per_core; th++) cells.push({ x: x + 1, y: y + 1 + th * CELL_H, w: CELL_W, h: CELL_H - 1 });
    }
  }
  const width = Math.max(...nodes.map((r) => r.x + r.w)) + margin;
  const height = Math.max(...nodes.map((r) => r.y + r.h)) + margin;
  return { width, height, nodes, cells, cores, big };
}

/** Node centres: one alone, two side by side, more on an ellipse. */
function nodeCentres(n: number, boxW: number, boxH: number): { x: number; y: number }[] {
  if (n <= 1) return [{ x: 0, y: 0 }];
  if (n === 2) return [{ x: 0, y: 0 }, { x: boxW + 60, y: 0 }];
  // Half a step off the top, so the ring is symmetric left/right and
  // top/bottom; then the ellipse grows until no two boxes overlap.
  const at = (rx: number, ry: number) =>
    Array.from({ length: n }, (_, i) => {
      const a = -Math.PI / 2 + Math.PI / n + (2 * Math.PI * i) / n;
      return { x: rx * Math.cos(a), y: ry * Math.sin(a) };
    });
  const clash = (pts: { x: number; y: number }[]) =>
    pts.some((p, i) => pts.some((q, j) => j > i && Math.abs(p.x - q.x) < boxW + 16 && Math.abs(p.y - q.y) < boxH + 16));
  let rx = Math.max(boxW, (boxW + 16) / (2 * Math.sin(Math.PI / n)));
  let ry = boxH;
  for (let i = 0; i < 400 && clash(at(rx, ry)); i++) {
    if (ry < 2.5 * boxH) ry += 6;
    else rx += 6;
  }
  return at(rx, ry);
}

export const centre = (r: Rect) => ({ x: r.x + r.w / 2, y: r.y + r.h / 2 });
