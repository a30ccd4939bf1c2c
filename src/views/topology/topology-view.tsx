// The machine at the cursor: NUMA nodes with their cores and SMT threads,
// the links between nodes with their hop distance, each CPU coloured by its
// runqueue length or load and labelled with the thread it runs, recent
// migrations as arrows, and the CPUs the latest placement or balancing
// decision considered outlined (the paper's figure 5). SVG rendered by
// React; D3 only provides the colour scales. Names are text nodes.
import { memo, useMemo } from 'react';
import * as d3 from 'd3';
import type { CpuView, MigrationView, TopologyView as Topo } from '../../engine/types';
import { centre, layoutTopology, type TopologyLayout } from './layout';
import type { Focus } from './focus';
import { useT } from '../../i18n/i18n';
import { ExportButtons } from '../export/export-buttons';

export type ColourBy = 'nr_running' | 'load';

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

/** Balancing pulls vs wakeup placement moves vs hotplug evacuations. */
const CAUSE_COLOUR: Record<string, string> = {
  balance: '#7b2cbf',
  newidle: '#7b2cbf',
  active: '#c2185b',
  wakeup: '#0b7285',
  hotplug: '#8d2b0b',
};

export function TopologyView(p: TopologyViewProps) {
  const t = useT();
  const layout = useMemo(() => layoutTopology(p.topo), [p.topo]);
  const values = p.cpus.map((c) => (p.colourBy === 'nr_running' ? c.nr_running : c.load));
  const top = p.colourBy === 'nr_running' ? Math.max(4, ...values) : Math.max(2048, ...values);
  const fill = d3.scaleSequential(d3.interpolateYlOrRd).domain([0, top]);
  const considered = new Set(p.focus?.considered ?? []);
  const busiest = new Set(p.focus?.busiest ?? []);
  return (
    <section className="panel topology" data-testid={p.testId ?? 'topology'}>
      <header className="panel-head">
        <h2>{t('topo.title')}</h2>
        <span className="meta">
          {t('topo.shape', { name: p.topo.name, nodes: p.topo.nodes, cores: p.topo.cores_per_node, threads: p.topo.threads_per_core })}
        </span>
        <span className="toggle" role="group" aria-label={t('aria.colourBy')}>
          {t('topo.colourBy')}
          {(['nr_running', 'load'] as const).map((c) => (
            <button key={c} data-testid={`colour-${c}`} className={p.colourBy === c ? 'on' : ''} onClick={() => p.onColourBy(c)}>
              {t(`topo.colour.${c}`)}
            </button>
          ))}
        </span>
        <ExportButtons name="topology" />
      </header>
      <p className="focus-caption" data-testid="focus-caption">
        {p.focus ? p.focus.caption : t('topo.noFocus')}
      </p>
      <div className="topo-scroll">
        <div className="topo-layers" style={{ width: layout.width, height: layout.height }}>
          <MachineFrame topo={p.topo} layout={layout} />
          <svg className="topo-live" width={layout.width} height={layout.height} data-testid="topology-svg" data-colour-by={p.colourBy}>
            <defs>
              {Object.entries(CAUSE_COLOUR).map(([cause, colour]) => (
                <marker key={cause} id={`arrow-${cause}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                  <path d="M 0 0 L 10 5 L 0 10 z" fill={colour} />
                </marker>
              ))}
            </defs>
            {p.cpus.map((c, i) => {
              const r = layout.cells[c.cpu];
              if (!r) return null;
              const v = values[i];
              const online = c.online;
              const dark = v > top * 0.55;
              const name = c.curr === null ? t('topo.idle') : p.nameOf(c.curr);
              const cls = [
                'cpu-cell',
                online ? '' : 'offline',
                considered.has(c.cpu) ? 'considered' : '',
                busiest.has(c.cpu) ? 'busiest' : '',
                p.focus?.chosen === c.cpu ? 'chosen' : '',
                p.focus?.actor === c.cpu ? 'actor' : '',
                p.selected === c.cpu ? 'selected' : '',
                p.marked?.includes(c.cpu) ? 'lesson-mark' : '',
              ].join(' ');
              return (
                <g key={c.cpu} className={cls} data-testid="cpu-cell" data-cpu={c.cpu} data-value={v} onClick={() => p.onSelect(c.cpu)}>
                  <rect x={r.x} y={r.y} width={r.w} height={r.h} rx={3} fill={online ? (v === 0 ? '#f5f7fa' : fill(v)) : '#cbd2d9'} />
                  <text x={r.x + 3} y={r.y + (layout.big ? 12 : 10)} className={`cpu-num${dark ? ' dark' : ''}${layout.big ? ' big' : ''}`}>
                    {c.cpu}
                    {v > 0 && ` · ${p.colourBy === 'nr_running' ? v : Math.round(v)}`}
                  </text>
                  <text
                    x={r.x + 3}
                    y={r.y + (layout.big ? 31 : 23)}
                    className={`cpu-curr${dark ? ' dark' : ''}${c.curr === null ? ' none' : ''}${layout.big ? ' big' : ''}`}
                    // A label wider than the cell is squeezed to fit rather than cut.
                    {...(clip(name, layout.big ? 15 : 9).length * (layout.big ? 7.6 : 5.8) > r.w - 6 ? { textLength: r.w - 6, lengthAdjust: 'spacingAndGlyphs' } : {})}
                  >
                    {online ? clip(name, layout.big ? 15 : 9) : t('topo.offline')}
                  </text>
                  <title>{t('topo.cpuTitle', { cpu: c.cpu, node: p.topo.cpus[c.cpu]?.node ?? '', core: p.topo.cpus[c.cpu]?.core ?? '', thread: p.topo.cpus[c.cpu]?.thread ?? '', n: c.nr_running, load: c.load, name })}</title>
                </g>
              );
            })}
            {p.migrations.map((m, i) => {
              const a = layout.cells[m.from];
              const b = layout.cells[m.to];
              if (!a || !b) return null;
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
                  <title>{t('topo.arrowTitle', { name: p.nameOf(m.pid), from: m.from, to: m.to, cause: m.cause, t: (m.t_ns / 1e6).toFixed(3) })}</title>
                </path>
              );
            })}
          </svg>
        </div>
      </div>
      <TopologyLegend topo={p.topo} colourBy={p.colourBy} top={top} fill={fill} multi={p.cpus.length > 1} />
    </section>
  );
}

/** The parts that never change during a run (links, nodes, cores), drawn
 * once on their own layer so playing repaints only the CPU cells and arrows. */
const MachineFrame = memo(function MachineFrame({ topo, layout }: { topo: Topo; layout: TopologyLayout }) {
  const t = useT();
  const links = nodeLinks(topo);
  return (
    <svg className="topo-frame" width={layout.width} height={layout.height} aria-hidden="true">
      {links.map(({ a, b, hops, distance }) => {
        const ca = centre(layout.nodes[a]);
        const cb = centre(layout.nodes[b]);
        return (
          <line key={`${a}-${b}`} className={`node-link hops-${Math.min(hops, 3)}`} data-testid="node-link" x1={ca.x} y1={ca.y} x2={cb.x} y2={cb.y}>
            <title>{t('topo.linkTitle', { a, b, d: distance, hops })}</title>
          </line>
        );
      })}
      {layout.nodes.map((r, n) => (
        <g key={n} className="numa-node">
          <rect x={r.x} y={r.y} width={r.w} height={r.h} rx={6} />
          <text x={r.x + 6} y={r.y + 13} className="node-title">
            {t('topo.node', { n })}
          </text>
        </g>
      ))}
      {layout.cores.map((r, k) => (
        <rect key={k} className="core-box" x={r.x} y={r.y} width={r.w} height={r.h} rx={3} />
      ))}
    </svg>
  );
});

function TopologyLegend(p: { topo: Topo; colourBy: ColourBy; top: number; fill: (v: number) => string; multi: boolean }) {
  const distances = [...new Set(p.topo.hops.flatMap((row, i) => row.map((h, j) => `${h}:${p.topo.distance[i][j]}`)))]
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

function nodeLinks(t: Topo): { a: number; b: number; hops: number; distance: number }[] {
  const out = [];
  for (let a = 0; a < t.nodes; a++) for (let b = a + 1; b < t.nodes; b++) out.push({ a, b, hops: t.hops[a][b], distance: t.distance[a][b] });
  return out;
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

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
