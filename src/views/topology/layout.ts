// Where the topology view draws each NUMA node and CPU: pure geometry from
// the machine description and the panel's width, tested without a DOM.
//
//   node box: header, then its cores in a grid; a core is a column of its SMT
//   threads (CPUs). Three arrangements, the first that fits the panel:
//   - ring: up to 8 nodes on an ellipse, so the links between them run
//     through the open middle instead of across other nodes;
//   - grid: nodes in rows wrapped to the panel's width, each package (a block
//     of nodes nearer each other than the rest) starting its own row, with
//     smaller cells (CPU numbers only) if that keeps it under MAX_HEIGHT;
//   - nodes: when CPU cells would be smaller still, one cell per node (its
//     CPUs' mean, drawn by the view) and, for the node opened by a click, its
//     CPUs in a box below the grid.
import type { TopologyView } from '../../engine/types';
import { packagesOf } from './packages';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type LayoutMode = 'ring' | 'grid' | 'nodes';

export interface TopologyLayout {
  mode: LayoutMode;
  width: number;
  height: number;
  /** Per node: its box. */
  nodes: Rect[];
  /** Per CPU: where it is drawn; in "nodes" mode a CPU of a closed node is at its node's cell. */
  cells: Rect[];
  /** The boxes around each drawn core's SMT threads. */
  cores: Rect[];
  /** "nodes" mode: per node, the one cell standing for its CPUs (else empty). */
  nodeCells: Rect[];
  /** Outlines of the packages, when the machine has more than one. */
  packages: Rect[];
  /** The node whose CPUs are shown in `detail` ("nodes" mode), and that box. */
  open: number | null;
  detail: Rect | null;
  /** Cell size: "big" cells hold longer labels, "tiny" ones only the CPU number (in "nodes" mode: node cells with the mean only). */
  size: 'big' | 'small' | 'tiny';
}

export interface LayoutOptions {
  /** The panel's inner width (CSS px): the drawing is no wider unless one node alone is. */
  width: number;
  /** Taller grids use smaller cells, then one cell per node. */
  maxHeight?: number;
  /** "nodes" mode: the node whose CPUs to show. */
  open?: number | null;
}

interface Tier {
  size: TopologyLayout['size'];
  w: number;
  h: number;
  gap: number;
  coresPerRow: number;
}
const BIG: Tier = { size: 'big', w: 124, h: 40, gap: 4, coresPerRow: 4 };
const SMALL: Tier = { size: 'small', w: 58, h: 30, gap: 4, coresPerRow: 4 };
const TINY: Tier = { size: 'tiny', w: 30, h: 18, gap: 2, coresPerRow: 8 };
const PAD = 6;
const HEAD = 16;
const MARGIN = 8;
const NODE_GAP = 10;
const PKG_HEAD = 14;
/** A node's one cell: mean and busy count, or (compact, on narrow panels) the mean only. */
const NODE_CELL = { w: 96, h: 32 };
const NODE_CELL_COMPACT = { w: 46, h: 22 };
export const MAX_HEIGHT = 680;

/** A node box's size for `tier`, its cores `cols` to a row. */
function nodeShape(t: TopologyView, tier: Tier, cols = Math.min(tier.coresPerRow, Math.max(1, t.cores_per_node))) {
  const rows = Math.ceil(t.cores_per_node / cols);
  const coreW = tier.w + 2;
  const coreH = t.threads_per_core * tier.h + 2;
  return {
    cols,
    coreW,
    coreH,
    w: PAD * 2 + cols * coreW + (cols - 1) * tier.gap,
    h: HEAD + PAD * 2 + rows * coreH + (rows - 1) * tier.gap,
  };
}

/** Puts node `n`'s cores and CPU cells in the box at (x, y). */
function placeCpus(
  t: TopologyView,
  tier: Tier,
  shape: ReturnType<typeof nodeShape>,
  n: number,
  x0: number,
  y0: number,
  cores: Rect[],
  cells: Rect[],
) {
  const perNode = t.cores_per_node * t.threads_per_core;
  for (let k = 0; k < t.cores_per_node; k++) {
    const x = x0 + PAD + (k % shape.cols) * (shape.coreW + tier.gap);
    const y = y0 + HEAD + PAD + Math.floor(k / shape.cols) * (shape.coreH + tier.gap);
    cores.push({ x, y, w: shape.coreW, h: shape.coreH });
    for (let th = 0; th < t.threads_per_core; th++)
      cells[n * perNode + k * t.threads_per_core + th] = { x: x + 1, y: y + 1 + th * tier.h, w: tier.w, h: tier.h - 1 };
  }
}

export function layoutTopology(t: TopologyView, opts: LayoutOptions): TopologyLayout {
  const maxHeight = opts.maxHeight ?? MAX_HEIGHT;
  const fits = (l: TopologyLayout) => l.width <= opts.width && l.height <= maxHeight;
  if (t.nodes <= 8) {
    const ring = ringLayout(t, t.cpus.length <= 8 ? BIG : SMALL);
    if (fits(ring)) return ring;
  }
  for (const tier of [SMALL, TINY]) {
    const shape = nodeShape(t, tier);
    const cores: Rect[] = [];
    const cells: Rect[] = [];
    const g = grid(t, shape, opts.width, (n, x, y) => placeCpus(t, tier, shape, n, x, y, cores, cells));
    const l: TopologyLayout = {
      mode: 'grid',
      ...g,
      cells,
      cores,
      nodeCells: [],
      open: null,
      detail: null,
      size: tier.size,
    };
    if (fits(l)) return l;
  }
  return nodesLayout(t, opts, maxHeight);
}

/** Nodes on an ellipse (one alone, two side by side). */
function ringLayout(t: TopologyView, tier: Tier): TopologyLayout {
  const shape = nodeShape(t, tier);
  const centres = nodeCentres(t.nodes, shape.w, shape.h);
  const minX = Math.min(...centres.map((c) => c.x)) - shape.w / 2;
  const minY = Math.min(...centres.map((c) => c.y)) - shape.h / 2;
  const nodes = centres.map((c) => ({
    x: c.x - shape.w / 2 - minX + MARGIN,
    y: c.y - shape.h / 2 - minY + MARGIN,
    w: shape.w,
    h: shape.h,
  }));
  const cores: Rect[] = [];
  const cells: Rect[] = [];
  nodes.forEach((r, n) => placeCpus(t, tier, shape, n, r.x, r.y, cores, cells));
  const width = Math.max(...nodes.map((r) => r.x + r.w)) + MARGIN;
  const height = Math.max(...nodes.map((r) => r.y + r.h)) + MARGIN;
  return {
    mode: 'ring',
    width,
    height,
    nodes,
    cells,
    cores,
    nodeCells: [],
    packages: [],
    open: null,
    detail: null,
    size: tier.size,
  };
}

/**
 * Node boxes of size `box` in rows wrapped to `width`, a package per block of
 * rows (outlined when there are several); `place` fills each node's box.
 */
function grid(
  t: TopologyView,
  box: { w: number; h: number },
  width: number,
  place: (n: number, x: number, y: number) => void,
) {
  const pkgs = packagesOf(t.distance);
  const outlined = pkgs.length > 1;
  const inset = outlined ? PAD : 0;
  const perRow = Math.max(1, Math.floor((width - 2 * MARGIN - 2 * inset + NODE_GAP) / (box.w + NODE_GAP)));
  const nodes: Rect[] = [];
  const packages: Rect[] = [];
  let y = MARGIN;
  for (const pkg of pkgs) {
    const top = y;
    if (outlined) y += PKG_HEAD;
    pkg.forEach((n, i) => {
      const x = MARGIN + inset + (i % perRow) * (box.w + NODE_GAP);
      const ny = y + Math.floor(i / perRow) * (box.h + NODE_GAP);
      nodes[n] = { x, y: ny, w: box.w, h: box.h };
      place(n, x, ny);
    });
    y += Math.ceil(pkg.length / perRow) * (box.h + NODE_GAP) - NODE_GAP;
    if (outlined) {
      const cols = Math.min(perRow, pkg.length);
      packages.push({ x: MARGIN, y: top, w: cols * (box.w + NODE_GAP) - NODE_GAP + 2 * inset, h: y + inset - top });
      y += inset;
    }
    y += NODE_GAP;
  }
  const right = Math.max(...nodes.map((r) => r.x + r.w), ...packages.map((r) => r.x + r.w));
  return { nodes, packages, width: right + MARGIN, height: y - NODE_GAP + MARGIN };
}

/** One cell per node; the open node's CPUs in a box below, as many cores to a row as fit. */
function nodesLayout(t: TopologyView, opts: LayoutOptions, maxHeight: number): TopologyLayout {
  const nodeGrid = (cell: { w: number; h: number }) => {
    const nodeCells: Rect[] = [];
    const box = { w: PAD * 2 + cell.w, h: HEAD + PAD * 2 + cell.h };
    const g = grid(t, box, opts.width, (n, x, y) => {
      nodeCells[n] = { x: x + PAD, y: y + HEAD + PAD, w: cell.w, h: cell.h };
    });
    return { g, nodeCells };
  };
  let { g, nodeCells } = nodeGrid(NODE_CELL);
  const compact = g.height > maxHeight;
  if (compact) ({ g, nodeCells } = nodeGrid(NODE_CELL_COMPACT));
  const perNode = t.cores_per_node * t.threads_per_core;
  const cells = t.cpus.map((c) => nodeCells[c.node]);
  const open = opts.open ?? null;
  const cores: Rect[] = [];
  let detail: Rect | null = null;
  let height = g.height;
  let width = g.width;
  if (open !== null && open >= 0 && open < t.nodes) {
    const room = Math.max(opts.width, g.width) - 2 * MARGIN;
    const tier = SMALL;
    const cols = Math.max(
      1,
      Math.min(t.cores_per_node, Math.floor((room - 2 * PAD + tier.gap) / (tier.w + 2 + tier.gap))),
    );
    const shape = nodeShape(t, tier, cols);
    detail = { x: MARGIN, y: g.height - MARGIN + NODE_GAP, w: shape.w, h: shape.h };
    const own: Rect[] = [];
    placeCpus(t, tier, shape, open, detail.x, detail.y, cores, own);
    for (let c = open * perNode; c < (open + 1) * perNode; c++) cells[c] = own[c];
    height = detail.y + detail.h + MARGIN;
    width = Math.max(width, detail.x + detail.w + MARGIN);
  }
  return {
    mode: 'nodes',
    width,
    height,
    nodes: g.nodes,
    cells,
    cores,
    nodeCells,
    packages: g.packages,
    open: detail ? open : null,
    detail,
    size: compact ? 'tiny' : 'small',
  };
}

/** Node centres: one alone, two side by side, more on an ellipse. */
function nodeCentres(n: number, boxW: number, boxH: number): { x: number; y: number }[] {
  if (n <= 1) return [{ x: 0, y: 0 }];
  if (n === 2)
    return [
      { x: 0, y: 0 },
      { x: boxW + 60, y: 0 },
    ];
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
