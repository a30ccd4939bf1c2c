// The machine panel's header (its shape, the colouring switch, exports) and,
// when the machine is drawn a node per cell, the hint on opening a node.
import type { TopologyView as Topo } from '../../engine/types';
import type { ColourBy } from '../../stores/view';
import { useT } from '../../i18n/i18n';
import { ExportButtons } from '../export/export-buttons';

export function TopologyHead(p: { topo: Topo; colourBy: ColourBy; onColourBy: (c: ColourBy) => void }) {
  const t = useT();
  return (
    <header className="panel-head">
      <h2>{t('topo.title')}</h2>
      <span className="meta">
        {t('topo.shape', {
          name: p.topo.name,
          nodes: p.topo.nodes,
          cores: p.topo.cores_per_node,
          threads: p.topo.threads_per_core,
        })}
        {p.topo.nodes_per_package > 1 && t('topo.packages', { n: p.topo.nodes_per_package })}
      </span>
      <span className="toggle" role="group" aria-label={t('aria.colourBy')}>
        {t('topo.colourBy')}
        {(['nr_running', 'load'] as const).map((c) => (
          <button
            key={c}
            data-testid={`colour-${c}`}
            className={p.colourBy === c ? 'on' : ''}
            onClick={() => p.onColourBy(c)}
          >
            {t(`topo.colour.${c}`)}
          </button>
        ))}
      </span>
      <ExportButtons name="topology" />
    </header>
  );
}

/** How to open a node's CPUs, and a button closing the open one. */
export function NodesHint({ perNode, open, onClose }: { perNode: number; open: number | null; onClose: () => void }) {
  const t = useT();
  return (
    <p className="topo-hint" data-testid="topo-hint">
      {t('topo.nodesHint', { n: perNode })}
      {open !== null && (
        <>
          {' '}
          {t('topo.openHint', { node: open })}{' '}
          <button type="button" data-testid="topo-close-node" onClick={onClose}>
            {t('topo.closeNode', { node: open })}
          </button>
        </>
      )}
    </p>
  );
}
