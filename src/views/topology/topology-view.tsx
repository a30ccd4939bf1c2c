// The machine at the cursor: NUMA nodes with their cores and SMT threads,
// the links between nodes with their hop distance, each CPU coloured by its
// runqueue length or load and labelled with the thread it runs, recent
// migrations as arrows, and the CPUs the latest placement or balancing
// decision considered outlined (the paper's figure 5). Laid out to the
// panel's width (layout.ts): a large machine as a grid of nodes, or one cell
// per node with a click opening a node's CPUs. SVG rendered by React; D3 only
// provides the colour scales.
import { useMemo, useRef, useState } from 'react';
import * as d3 from 'd3';
import type { CpuView, MigrationView, TopologyView as Topo } from '../../engine/types';
import { centre, layoutTopology } from './layout';
import type { Focus } from './focus';
import { CpuCell, NodeCell, type Marks } from './cells';
import { MachineFrame } from './machine-frame';
import { useWidth } from '../use-width';
import { useT } from '../../i18n/i18n';
import { ExportButtons } from '../export/export-buttons';
import { onCellsKeyDown } from './roving';

export type { ColourBy } from '../../stores/view';
import type { ColourBy } from '../../stores/view';

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

/** Balancing pulls vs wakeup and fork placement moves vs hotplug evacuations. */
const CAUSE_COLOUR: Record<string, string> = {
  balance: '#7b2cbf',
  newidle: '#7b2cbf',
  active: '#c2185b',
  wakeup: '#0b7285',
  fork: '#0b7285',
  hotplug: '#8d2b0b',
};

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
  const values = p.cpus.map((c) => (p.colourBy === 'nr_running' ? c.nr_running : c.load));
  const top = p.colourBy === 'nr_running' ? Math.max(4, ...values) : Math.max(2048, ...values);
  const fill = d3.scaleSequential(d3.interpolateYlOrRd).domain([0, top]);
  const marks: Marks = {
    considered: new Set(p.focus?.considered ?? []),
    busiest: new Set(p.focus?.busiest ?? []),
    chosen: p.focus?.chosen,
    actor: p.focus?.actor,
    selected: p.selected,
    marked: p.marked,
  };
  const showValue = (v: number) => (p.colourBy === 'nr_running' ? String(v) : String(Math.round(v)));
  const perNode = p.topo.cores_per_node * p.topo.threads_per_core;
  const byNode =
    layout.mode === 'nodes'
      ? Array.from({ length: p.topo.nodes }, (_, n) => p.cpus.filter((c) => Math.floor(c.cpu / perNode) === n))
      : [];
  const mean = (cs: CpuView[]) => {
    const on = cs.filter((c) => c.online);
    return on.length
      ? on.reduce((s, c) => s + (p.colourBy === 'nr_running' ? c.nr_running : c.load), 0) / on.length
      : 0;
  };
  // The one Tab stop: the selected CPU if it has a cell of its own, else its node's cell, else the first CPU.
  const selectedDrawn = layout.mode !== 'nodes' || Math.floor(p.selected / perNode) === layout.open;
  const tabCpu = selectedDrawn ? p.selected : layout.mode === 'nodes' ? -1 : 0;
  const tabNode = selectedDrawn ? -1 : Math.floor(p.selected / perNode);
  return (
    <section className="panel topology" data-testid={p.testId ?? 'topology'} data-layout={layout.mode}>
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
      <p className="focus-caption" data-testid="focus-caption">
        {p.focus ? p.focus.caption : t('topo.noFocus')}
      </p>
      {layout.mode === 'nodes' && (
        <p className="topo-hint" data-testid="topo-hint">
          {t('topo.nodesHint', { n: perNode })}
          {layout.open !== null && (
            <>
              {' '}
              {t('topo.openHint', { node: layout.open })}{' '}
              <button type="button" data-testid="topo-close-node" onClick={() => setOpen(null)}>
                {t('topo.closeNode', { node: layout.open })}
              </button>
            </>
          )}
        </p>
      )}
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
              {Object.entries(CAUSE_COLOUR).map(([cause, colour]) => (
                <marker
                  key={cause}
                  id={`arrow-${cause}`}
                  viewBox="0 0 10 10"
                  refX="9"
                  refY="5"
                  markerWidth="7"
                  markerHeight="7"
                  orient="auto-start-reverse"
                >
                  <path d="M 0 0 L 10 5 L 0 10 z" fill={colour} />
                </marker>
              ))}
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
              const name = c.curr === null ? t('topo.idle') : p.nameOf(c.curr);
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
            {p.migrations.map((m, i) => {
              const a = layout.cells[m.from];
              const b = layout.cells[m.to];
              // Within one node drawn as one cell there is nowhere to point.
              if (!a || !b || a === b) return null;
              const age = (p.nowNs - m.t_ns) / Math.max(1, p.arrowWindowNs);
              return (
                <path
                  key={i}
                  className="migration"
                  data-testid="migration-arrow"
                  d={arc(centre(a), centre(b))}
                  stroke={CAUSE_COLOUR[m.cause] ?? '#52606d'}
                  markerEnd={`url(#arrow-${CAUSE_COLOUR[m.cause] ? m.cause : 'balance'})`}
                  opacity={Math.max(0.25, 1 - age)}
                >
                  <title>
                    {t('topo.arrowTitle', {
                      name: p.nameOf(m.pid),
                      from: m.from,
                      to: m.to,
                      cause: m.cause,
                      t: (m.t_ns / 1e6).toFixed(3),
                    })}
                  </title>
                </path>
              );
            })}
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

function TopologyLegend(p: {
  topo: Topo;
  colourBy: ColourBy;
  top: number;
  fill: (v: number) => string;
  multi: boolean;
  links: boolean;
}) {
  // Hop distances are keyed only where links are drawn (the ring).
  const distances = !p.links
    ? []
    : [...new Set(p.topo.hops.flatMap((row, i) => row.map((h, j) => `${h}:${p.topo.distance[i][j]}`)))]
        .map((s) => s.split(':').map(Number))
        .filter(([h]) => h > 0)
        .sort((a, b) => a[0] - b[0]);
  const steps = [0, 0.25, 0.5, 0.75, 1].map((f) => f * p.top);
  const t = useT();
  return (
    <ul className="legend topo-legend">
      <li>
        {p.colourBy === 'nr_running' ? t('topo.runnable') : t('topo.load')}:
        {steps.map((v) => (
          <span key={v} className="ramp">
            <span className="swatch" style={{ background: v === 0 ? '#f5f7fa' : p.fill(v) }} />
            {p.colourBy === 'nr_running' ? v.toFixed(0) : Math.round(v)}
          </span>
        ))}
      </li>
      {distances.map(([h, d]) => (
        <li key={h}>
          <span className={`link-key hops-${Math.min(h, 3)}`} /> {t('topo.hops', { h, d })}
        </li>
      ))}
      {p.multi && (
        <>
          <li>
            <span className="link-key arrow balance" /> {t('topo.pull')}
          </li>
          <li>
            <span className="link-key arrow wakeup" /> {t('topo.wakeupMove')}
          </li>
          <li>
            <span className="cell-key busiest" /> {t('topo.busiestGroup')}
          </li>
          <li>
            <span className="cell-key chosen" /> {t('topo.chosen')}
          </li>
        </>
      )}
      <li>
        <span className="cell-key considered" /> {t('topo.considered')}
      </li>
    </ul>
  );
}

/** A gentle curve from a to b, bowed to one side so opposite moves don't overlap. */
function arc(a: { x: number; y: number }, b: { x: number; y: number }): string {
  const mx = (a.x + b.x) / 2;
  const my = (a.y + b.y) / 2;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const bow = 0.2;
  return `M ${a.x} ${a.y} Q ${mx - dy * bow} ${my + dx * bow} ${b.x} ${b.y}`;
}
