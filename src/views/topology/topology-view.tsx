// The machine at the cursor: NUMA nodes with their cores and SMT threads,
// the links between nodes with their hop distance, each CPU coloured by its
// runqueue length or load and labelled with the thread it runs, recent
// migrations as arrows, and the CPUs the latest placement or balancing
// decision considered outlined (the paper's figure 5). Laid out to the
// panel's width (layout.ts): a large machine as a grid of nodes, or one cell
// per node with a click opening a node's CPUs. SVG rendered by React; D3 only
// provides the colour scales.
import { useMemo, useRef, useState } from 'react';
import type { CpuView, MigrationView, TopologyView as Topo } from '../../engine/types';
import { layoutTopology } from './layout';
import type { Focus } from './focus';
import { CpuCell, NodeCell, type Marks } from './cells';
import { MachineFrame } from './machine-frame';
import { useWidth } from '../use-width';
import { useT } from '../../i18n/i18n';
import { onCellsKeyDown } from './roving';
import { ArrowMarkers, MigrationArrows } from './arrows';
import { NodesHint, TopologyHead } from './head';
import { TopologyLegend } from './legend';
import { colouring } from './colouring';

export type { ColourBy } from '../../stores/view';
import type { ColourBy } from '../../stores/view';
import { shownText } from '../hidden-chars';

export interface TopologyViewProps {
  topo: Topo;
  cpus: CpuView[];
  nameOf: (pid: number) => string;
  colourBy: ColourBy;
  onColourBy: (c: ColourBy) => void;
  migrations: MigrationView[];
  nowNs: number;
  /** How far back migrations are drawn (simulated ns). */
  arrowWindowNs: number;
  focus: Focus | null;
  selected: number;
  onSelect: (cpu: number) => void;
  /** The panel's test id: "topology" for the lab's machine, another for compare's copies. */
  testId?: string;
  /** CPUs outlined for a classroom lesson step. */
  marked?: number[];
}

export function TopologyView(p: TopologyViewProps) {
  const t = useT();
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box, 1000);
  // The node whose CPUs are shown, when the machine is drawn a node per cell; a new machine starts closed.
  const [opened, setOpened] = useState<{ topo: Topo; node: number | null }>({ topo: p.topo, node: null });
  const open = opened.topo === p.topo ? opened.node : null;
  const setOpen = (f: number | null | ((o: number | null) => number | null)) =>
    setOpened({ topo: p.topo, node: typeof f === 'function' ? f(open) : f });
  const layout = useMemo(() => layoutTopology(p.topo, { width, open }), [p.topo, width, open]);
  const { values, top, fill, showValue, mean } = colouring(p.cpus, p.colourBy);
  const marks: Marks = {
    considered: new Set(p.focus?.considered ?? []),
    busiest: new Set(p.focus?.busiest ?? []),
    chosen: p.focus?.chosen,
    actor: p.focus?.actor,
    selected: p.selected,
    marked: p.marked,
  };
  const perNode = p.topo.cores_per_node * p.topo.threads_per_core;
  const byNode =
    layout.mode === 'nodes'
      ? Array.from({ length: p.topo.nodes }, (_, n) => p.cpus.filter((c) => Math.floor(c.cpu / perNode) === n))
      : [];
  // The one Tab stop: the selected CPU if it has a cell of its own, else its node's cell, else the first CPU.
  const selectedDrawn = layout.mode !== 'nodes' || Math.floor(p.selected / perNode) === layout.open;
  const tabCpu = selectedDrawn ? p.selected : layout.mode === 'nodes' ? -1 : 0;
  const tabNode = selectedDrawn ? -1 : Math.floor(p.selected / perNode);
  return (
    <section className="panel topology" data-testid={p.testId ?? 'topology'} data-layout={layout.mode}>
      <TopologyHead topo={p.topo} colourBy={p.colourBy} onColourBy={p.onColourBy} />
      <p className="focus-caption" data-testid="focus-caption">
        {p.focus ? p.focus.caption : t('topo.noFocus')}
      </p>
      {layout.mode === 'nodes' && <NodesHint perNode={perNode} open={layout.open} onClose={() => setOpen(null)} />}
      <div className="topo-scroll" ref={box}>
        <div className="topo-layers" style={{ width: layout.width, height: layout.height }}>
          <MachineFrame topo={p.topo} layout={layout} />
          {/* A group of buttons (one per cell, each named with its numbers) with one Tab stop; arrows move (roving.ts). */}
          <svg
            className="topo-live"
            width={layout.width}
            height={layout.height}
            data-testid="topology-svg"
            data-colour-by={p.colourBy}
            role="group"
            aria-label={
              layout.mode === 'nodes'
                ? t('a11y.machineNodes', { nodes: p.topo.nodes, n: perNode })
                : t('a11y.machine', { n: p.cpus.length })
            }
            onKeyDown={onCellsKeyDown}
          >
            <defs>
              <ArrowMarkers />
            </defs>
            {byNode.map((cs, n) => (
              <NodeCell
                key={`n${n}`}
                tabStop={n === tabNode}
                node={n}
                cpus={cs}
                r={layout.nodeCells[n]}
                mean={mean(cs)}
                top={top}
                fill={fill}
                open={layout.open === n}
                compact={layout.size === 'tiny'}
                marks={marks}
                onToggle={(k) => setOpen((o) => (o === k ? null : k))}
              />
            ))}
            {p.cpus.map((c, i) => {
              const r = layout.cells[c.cpu];
              // In the node-per-cell drawing only the open node's CPUs have cells of their own.
              if (!r || (layout.mode === 'nodes' && Math.floor(c.cpu / perNode) !== layout.open)) return null;
              const name = c.curr === null ? t('topo.idle') : shownText(p.nameOf(c.curr));
              return (
                <CpuCell
                  key={c.cpu}
                  tabStop={c.cpu === tabCpu}
                  c={c}
                  r={r}
                  v={values[i]}
                  top={top}
                  fill={fill}
                  size={layout.size}
                  topo={p.topo}
                  name={name}
                  showValue={showValue}
                  marks={marks}
                  onSelect={p.onSelect}
                />
              );
            })}
            <MigrationArrows
              migrations={p.migrations}
              cells={layout.cells}
              nowNs={p.nowNs}
              arrowWindowNs={p.arrowWindowNs}
              nameOf={p.nameOf}
            />
          </svg>
        </div>
      </div>
      <TopologyLegend
        topo={p.topo}
        colourBy={p.colourBy}
        top={top}
        fill={fill}
        multi={p.cpus.length > 1}
        links={layout.mode === 'ring'}
      />
    </section>
  );
}
