// One red-black tree drawn as the kernel holds it. D3 computes the layout;
// React owns the DOM. Nodes are keyed by entity id and move with a CSS
// transition, so rotations are animated; new nodes fade in and removed ones
// fade out where they last stood. A node with
// one child gets a NIL leaf on the other side, so left stays left.
import * as d3 from 'd3';
import { useLeaving } from './use-leaving';
import type { TreeNode, TreeView } from '../engine/types';
import { fmtMs, taskColor } from './colors';
import { useT } from '../i18n/i18n';
import { inOrder } from './rq-list';
import { shownClip, shownText } from './hidden-chars';

interface Nested {
  /** null marks a NIL leaf standing in for a missing child. */
  node: TreeNode | null;
  children: Nested[];
}

function nest(tree: TreeView): Nested | null {
  const byId = new Map(tree.nodes.map((n) => [n.pid, n]));
  const build = (id: number | null): Nested | null => {
    if (id === null) return null;
    const node = byId.get(id);
    if (!node) return null;
    const left = build(node.left);
    const right = build(node.right);
    const nil: Nested = { node: null, children: [] };
    const children = left || right ? [left ?? nil, right ?? nil] : [];
    return { node, children };
  };
  return build(tree.root);
}

export interface TreeDiagramProps {
  tree: TreeView;
  /** data-testid of the svg and of each node. */
  testId: string;
  nodeTestId: string;
  label: string;
  minWidth: number;
  scale?: number;
}

/** The tree's entities in vruntime order, in words (at most 20 named). */
function treeWords(tree: TreeView, t: ReturnType<typeof useT>): string {
  const order = inOrder(tree);
  if (order.length === 0) return t('a11y.treeEmpty');
  const named = order.slice(0, 20).map((n) => `${shownText(n.name)} (${fmtMs(n.vruntime)})`);
  return t('a11y.tree', { n: order.length, list: named.join(', ') + (order.length > 20 ? ', …' : '') });
}

export function TreeDiagram({ tree, testId, nodeTestId, label, minWidth, scale = 1 }: TreeDiagramProps) {
  const t = useT();
  const r = 30 * scale;
  const levelH = 80 * scale;
  const siblingW = 150 * scale;
  const nested = nest(tree);
  const root = nested ? d3.hierarchy(nested, (d) => d.children) : null;
  if (root) d3.tree<Nested>().nodeSize([siblingW, levelH])(root);
  const all = root ? root.descendants() : [];
  const placed: Placed[] = all.flatMap((n) => (n.data.node ? [{ node: n.data.node, x: n.x ?? 0, y: n.y ?? 0 }] : []));
  const nils = all.filter((n) => n.data.node === null);
  const leaving = useLeaving(placed, (p) => p.node.pid, LEAVE_MS);
  const xs = all.map((n) => n.x ?? 0);
  const minX = Math.min(0, ...xs);
  const maxX = Math.max(0, ...xs);
  // Centred in at least minWidth; wider trees scroll. An empty tree keeps a
  // thin svg (tests and the animation need it) without a blank band.
  const width = Math.max(minWidth, maxX - minX + siblingW);
  const height = root ? (root.height + 1) * levelH + 16 * scale : 8;
  const offsetX = (width - (maxX - minX)) / 2 - minX;
  return (
    // The label reads the tree as the list CFS would pick from (leftmost first), for screen readers;
    // the viewBox lets narrow screens shrink it to the panel (layout.css).
    <svg
      data-testid={testId}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={`${label}. ${treeWords(tree, t)}`}
    >
      <g transform={`translate(${offsetX}, ${r + 8})`}>
        {root?.links().map((l) => (
          <line
            key={`${l.source.data.node?.pid}-${l.target.data.node?.pid ?? `nil${l.target.x}`}`}
            className={l.target.data.node ? 'rb-link' : 'rb-link nil'}
            x1={l.source.x}
            y1={l.source.y}
            x2={l.target.x}
            y2={l.target.y}
          />
        ))}
        {nils.map((n) => (
          <rect
            key={`nil-${n.x}-${n.y}`}
            className="rb-nil"
            x={(n.x ?? 0) - 8}
            y={(n.y ?? 0) - 6}
            width={16}
            height={12}
          />
        ))}
        {leaving.map((p) => (
          <RbNode key={`gone-${p.node.pid}`} placed={p} r={r} scale={scale} className="rb-gone" />
        ))}
        {placed.map((p) => (
          <RbNode key={p.node.pid} placed={p} r={r} scale={scale} className="rb-node" testId={nodeTestId} />
        ))}
      </g>
    </svg>
  );
}

/** How long a removed node takes to fade out (matches .rb-gone in styles.css). */
const LEAVE_MS = 260;

interface Placed {
  node: TreeNode;
  x: number;
  y: number;
}

/**
 * One node: a red or black circle ringed in the task's colour, its name and
 * its key (vruntime in ms). Labels longer than the circle are squeezed to fit
 * (the full text is in the tooltip); names are untrusted, so they are text.
 */
function RbNode(props: { placed: Placed; r: number; scale: number; className: string; testId?: string }) {
  const { placed, r, scale, testId } = props;
  const { node, x, y } = placed;
  const t = useT();
  const isGroup = node.group !== null;
  const fontPx = 10.5 * scale;
  const name = shownClip(node.name, 14);
  const key = fmtMs(node.vruntime);
  return (
    <g
      className={isGroup ? `${props.className} group` : props.className}
      data-testid={testId}
      data-pid={node.pid}
      data-color={node.red ? 'red' : 'black'}
      style={{ transform: `translate(${x}px, ${y}px)` }}
    >
      <title>
        {t('rq.nodeTitle', {
          kind: t(isGroup ? 'rq.groupEntity' : 'rq.task'),
          name: shownText(node.name),
          v: key,
          w: node.weight,
        })}
      </title>
      <circle r={r} className={node.red ? 'rb-red' : 'rb-black'} />
      <circle r={r + 4} className="rb-ring" style={{ stroke: isGroup ? '#7b8794' : taskColor(node.pid) }} />
      <FitText className="rb-name" y={-3 * scale} text={name} fontPx={fontPx} maxPx={2 * r - 10 * scale} bold />
      <FitText className="rb-key" y={11 * scale} text={key} fontPx={fontPx} maxPx={2 * r - 12 * scale} />
    </g>
  );
}

/** SVG text squeezed with textLength only when its estimated width overflows. */
function FitText(props: { className: string; y: number; text: string; fontPx: number; maxPx: number; bold?: boolean }) {
  const estPx = props.text.length * props.fontPx * (props.bold ? 0.62 : 0.58);
  const squeeze = estPx > props.maxPx;
  return (
    <text
      className={props.className}
      y={props.y}
      style={{ fontSize: props.fontPx }}
      textLength={squeeze ? props.maxPx : undefined}
      lengthAdjust={squeeze ? 'spacingAndGlyphs' : undefined}
    >
      {props.text}
    </text>
  );
}
