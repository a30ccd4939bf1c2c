// The parts of the topology drawing that never change during a run (links,
// packages, nodes, cores, the open node's box), drawn once on their own layer
// so playing repaints only the CPU cells and arrows.
import { memo } from 'react';
import type { TopologyView as Topo } from '../../engine/types';
import { centre, type TopologyLayout } from './layout';
import { packagesOf } from './packages';
import { useT } from '../../i18n/i18n';

export const MachineFrame = memo(function MachineFrame({ topo, layout }: { topo: Topo; layout: TopologyLayout }) {
  const t = useT();
  // Links only on the ring: across a grid they would run over other nodes.
  const links = layout.mode === 'ring' ? nodeLinks(topo) : [];
  const pkgs = layout.packages.length > 0 ? packagesOf(topo.distance) : [];
  return (
    <svg className="topo-frame" width={layout.width} height={layout.height} aria-hidden="true">
      {links.map(({ a, b, hops, distance }) => {
        const ca = centre(layout.nodes[a]);
        const cb = centre(layout.nodes[b]);
        return (
          <line
            key={`${a}-${b}`}
            className={`node-link hops-${Math.min(hops, 3)}`}
            data-testid="node-link"
            x1={ca.x}
            y1={ca.y}
            x2={cb.x}
            y2={cb.y}
          >
            <title>{t('topo.linkTitle', { a, b, d: distance, hops })}</title>
          </line>
        );
      })}
      {layout.packages.map((r, k) => (
        <g key={k} className="package">
          <rect x={r.x} y={r.y} width={r.w} height={r.h} rx={8} />
          <text x={r.x + 6} y={r.y + 11} className="package-title">
            {t('topo.package', { n: k })} · {t('topo.nodeList', { nodes: pkgs[k]?.join(', ') ?? '' })}
          </text>
        </g>
      ))}
      {layout.nodes.map((r, n) => (
        <g key={n} className="numa-node" data-testid="numa-node">
          <rect x={r.x} y={r.y} width={r.w} height={r.h} rx={6} />
          <text x={r.x + 6} y={r.y + 13} className="node-title">
            {t('topo.node', { n })}
          </text>
        </g>
      ))}
      {layout.detail && layout.open !== null && (
        <g className="numa-node open-node" data-testid="open-node">
          <rect x={layout.detail.x} y={layout.detail.y} width={layout.detail.w} height={layout.detail.h} rx={6} />
          <text x={layout.detail.x + 6} y={layout.detail.y + 13} className="node-title">
            {t('topo.node', { n: layout.open })}
          </text>
        </g>
      )}
      {layout.cores.map((r, k) => (
        <rect key={k} className="core-box" x={r.x} y={r.y} width={r.w} height={r.h} rx={3} />
      ))}
    </svg>
  );
});

function nodeLinks(t: Topo): { a: number; b: number; hops: number; distance: number }[] {
  const out = [];
  for (let a = 0; a < t.nodes; a++)
    for (let b = a + 1; b < t.nodes; b++) out.push({ a, b, hops: t.hops[a][b], distance: t.distance[a][b] });
  return out;
}
