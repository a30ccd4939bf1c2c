// One red-black tree drawn as the kernel holds it. D3 computes the layout;
// React owns the DOM. Nodes are keyed by entity id and move with a CSS
// transition, so inserts, removals and rotations are animated. A node with
// one child gets a NIL leaf on the other side, so left stays left.
import * as d3 from 'd3';
import type { TreeNode, TreeView } from '../engine/types';
import { fmtMs, taskColor } from './colors';

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

export function TreeDiagram({ tree, testId, nodeTestId, label, minWidth, scale = 1 }: TreeDiagramProps) {
  const r = 27 * scale;
  const levelH = 74 * scale;
  const siblingW = 150 * scale;
  const nested = nest(tree);
  const root = nested ? d3.hierarchy(nested, (d) => d.children) : null;
  if (root) d3.tree<Nested>().nodeSize([siblingW, levelH])(root);
  const all = root ? root.descendants() : [];
  const nodes = all.filter((n) => n.data.node !== null);
  const nils = all.filter((n) => n.data.node === null);
  const xs = all.map((n) => n.x ?? 0);
  const minX = Math.min(0, ...xs);
  const maxX = Math.max(0, ...xs);
  // Centred in at least minWidth; wider trees scroll.
  const width = Math.max(minWidth, maxX - minX + siblingW);
  const height = ((root ? root.height : 0) + 1) * levelH + 24 * scale;
  const offsetX = (width - (maxX - minX)) / 2 - minX;
  return (
    <svg data-testid={testId} width={width} height={height} role="img" aria-label={label}>
      <g transform={`translate(${offsetX}, ${r + 10})`}>
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
          <rect key={`nil-${n.x}-${n.y}`} className="rb-nil" x={(n.x ?? 0) - 8} y={(n.y ?? 0) - 6} width={16} height={12} />
        ))}
        {nodes.map((n) => {
          const node = n.data.node as TreeNode;
          const isGroup = node.group !== null;
          return (
            <g
              key={node.pid}
              className={isGroup ? 'rb-node group' : 'rb-node'}
              data-testid={nodeTestId}
              data-pid={node.pid}
              data-color={node.red ? 'red' : 'black'}
              style={{ transform: `translate(${n.x}px, ${n.y}px)` }}
            >
              <title>{`${isGroup ? 'group entity' : 'task'} ${node.name}: vruntime ${fmtMs(node.vruntime)} ms, weight ${node.weight}`}</title>
              <circle r={r} className={node.red ? 'rb-red' : 'rb-black'} />
              <circle r={r + 4} className="rb-ring" style={{ stroke: isGroup ? '#7b8794' : taskColor(node.pid) }} />
              <text className="rb-name" y={-2} style={{ fontSize: 10.5 * scale }}>
                {node.name}
              </text>
              <text className="rb-key" y={12 * scale} style={{ fontSize: 10.5 * scale }}>
                {fmtMs(node.vruntime)}
              </text>
            </g>
          );
        })}
      </g>
    </svg>
  );
}
