// The CPU's runqueue as the kernel holds it: a red-black tree of waiting
// tasks keyed by vruntime, with the running task (curr) kept outside the tree.
// D3 computes the layout; React owns the DOM. Nodes are keyed by pid and move
// with a CSS transition, so inserts, removals and rotations are animated.
import * as d3 from 'd3';
import type { CpuView, Rotation, TreeNode } from '../engine/types';
import { fmtMs, taskColor } from './colors';

interface Nested {
  /** null marks a NIL leaf standing in for a missing child. */
  node: TreeNode | null;
  children: Nested[];
}

function nest(cpu: CpuView): Nested | null {
  const byPid = new Map(cpu.tree.nodes.map((n) => [n.pid, n]));
  const build = (pid: number | null): Nested | null => {
    if (pid === null) return null;
    const node = byPid.get(pid);
    if (!node) return null;
    const left = build(node.left);
    const right = build(node.right);
    // With one child, a NIL leaf keeps the other side so left stays left.
    const nil: Nested = { node: null, children: [] };
    const children = left || right ? [left ?? nil, right ?? nil] : [];
    return { node, children };
  };
  return build(cpu.tree.root);
}

const NODE_R = 27;
const LEVEL_H = 74;
const SIBLING_W = 150;

export function RbTreeView(props: { cpu: CpuView; currName: string | null; rotations: Rotation[]; nameOf: (pid: number) => string }) {
  const { cpu, currName, rotations, nameOf } = props;
  const nested = nest(cpu);
  const root = nested ? d3.hierarchy(nested, (d) => d.children) : null;
  if (root) d3.tree<Nested>().nodeSize([SIBLING_W, LEVEL_H])(root);
  const all = root ? root.descendants() : [];
  const nodes = all.filter((n) => n.data.node !== null);
  const nils = all.filter((n) => n.data.node === null);
  const xs = all.map((n) => n.x ?? 0);
  const minX = Math.min(0, ...xs);
  const maxX = Math.max(0, ...xs);
  const depth = root ? root.height : 0;
  // Centred in at least the panel's usual width; wider trees scroll.
  const width = Math.max(760, maxX - minX + SIBLING_W);
  const height = (depth + 1) * LEVEL_H + 40;
  const offsetX = (width - (maxX - minX)) / 2 - minX;
  const myRotations = rotations.filter((r) => r.cpu === cpu.cpu);
  return (
    <section className="panel rbtree-panel">
      <header className="panel-head">
        <h2>CPU {cpu.cpu} runqueue — red-black tree</h2>
        <span className="meta">
          nr_running <b>{cpu.nr_running}</b> · in tree <b data-testid="nr-in-tree">{cpu.tree.nodes.length}</b> · min_vruntime{' '}
          <b>{fmtMs(cpu.min_vruntime)} ms</b> · load weight <b>{cpu.load_weight}</b>
        </span>
      </header>
      <div className="curr-box">
        <span className="curr-label">curr</span>
        {currName === null ? (
          <span className="idle">idle</span>
        ) : (
          <span className="curr-name" style={{ borderColor: taskColor(cpu.curr ?? 0) }}>
            {currName}
          </span>
        )}
        <span className="hint">running — not in the tree, as in the kernel</span>
      </div>
      <div className="rotation-line" data-testid="rotations">
        {myRotations.length === 0
          ? ' '
          : myRotations.map((r) => `rotate ${r.dir} at ${nameOf(r.pivot)}`).join(' · ')}
      </div>
      <div className="tree-scroll">
        <svg data-testid="rbtree" width={width} height={height} role="img" aria-label={`red-black tree of CPU ${cpu.cpu}`}>
          <g transform={`translate(${offsetX}, ${NODE_R + 14})`}>
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
              return (
                <g
                  key={node.pid}
                  className="rb-node"
                  data-testid="rb-node"
                  data-pid={node.pid}
                  data-color={node.red ? 'red' : 'black'}
                  style={{ transform: `translate(${n.x}px, ${n.y}px)` }}
                >
                  <circle r={NODE_R} className={node.red ? 'rb-red' : 'rb-black'} />
                  <circle r={NODE_R + 4} className="rb-ring" style={{ stroke: taskColor(node.pid) }} />
                  <text className="rb-name" y={-2}>
                    {node.name}
                  </text>
                  <text className="rb-key" y={12}>
                    {fmtMs(node.vruntime)}
                  </text>
                </g>
              );
            })}
          </g>
        </svg>
        {nodes.length === 0 && <p className="empty">The tree is empty: nothing is waiting on this CPU.</p>}
      </div>
    </section>
  );
}
