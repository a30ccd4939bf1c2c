// The live cells of the topology drawing: a CPU (its runqueue length or load
// as colour, number and current thread), and, on machines too large to draw
// CPU by CPU, a node standing for its CPUs (their mean, how many are busy).
// Names are text nodes.
import type { CpuView, TopologyView as Topo } from '../../engine/types';
import type { Rect } from './layout';
import { useT } from '../../i18n/i18n';

/** How a cell is outlined: the latest decision's CPUs, the selected CPU, a lesson's marks. */
export interface Marks {
  considered: Set<number>;
  busiest: Set<number>;
  chosen: number | null | undefined;
  actor: number | null | undefined;
  selected: number;
  marked: number[] | undefined;
}

const EMPTY = '#f5f7fa';
const OFFLINE = '#cbd2d9';

function classes(base: string, cpus: number[], m: Marks, extra: string[] = []): string {
  const any = (f: (c: number) => boolean) => cpus.some(f);
  return [
    base,
    any((c) => m.considered.has(c)) ? 'considered' : '',
    any((c) => m.busiest.has(c)) ? 'busiest' : '',
    any((c) => m.chosen === c) ? 'chosen' : '',
    any((c) => m.actor === c) ? 'actor' : '',
    any((c) => m.selected === c) ? 'selected' : '',
    any((c) => m.marked?.includes(c) ?? false) ? 'lesson-mark' : '',
    ...extra,
  ].join(' ');
}

export function CpuCell(p: {
  c: CpuView;
  r: Rect;
  v: number;
  top: number;
  fill: (v: number) => string;
  size: 'big' | 'small' | 'tiny';
  topo: Topo;
  name: string;
  showValue: (v: number) => string;
  marks: Marks;
  onSelect: (cpu: number) => void;
}) {
  const t = useT();
  const { c, r, v, size } = p;
  const online = c.online;
  const dark = v > p.top * 0.55;
  const big = size === 'big';
  const place = p.topo.cpus[c.cpu];
  const label = clip(p.name, big ? 15 : 9);
  return (
    <g className={classes('cpu-cell', [c.cpu], p.marks, [online ? '' : 'offline'])} data-testid="cpu-cell" data-cpu={c.cpu} data-value={v} onClick={() => p.onSelect(c.cpu)}>
      <rect x={r.x} y={r.y} width={r.w} height={r.h} rx={size === 'tiny' ? 2 : 3} fill={online ? (v === 0 ? EMPTY : p.fill(v)) : OFFLINE} />
      {size === 'tiny' ? (
        // Room for the CPU number only; the rest is in the title.
        <text x={r.x + 2} y={r.y + 11} className={`cpu-num tiny${dark ? ' dark' : ''}`}>
          {c.cpu}
        </text>
      ) : (
        <>
          <text x={r.x + 3} y={r.y + (big ? 12 : 10)} className={`cpu-num${dark ? ' dark' : ''}${big ? ' big' : ''}`}>
            {c.cpu}
            {v > 0 && ` · ${p.showValue(v)}`}
          </text>
          <text
            x={r.x + 3}
            y={r.y + (big ? 31 : 23)}
            className={`cpu-curr${dark ? ' dark' : ''}${c.curr === null ? ' none' : ''}${big ? ' big' : ''}`}
            // A label wider than the cell is squeezed to fit rather than cut.
            {...(label.length * (big ? 7.6 : 5.8) > r.w - 6 ? { textLength: r.w - 6, lengthAdjust: 'spacingAndGlyphs' } : {})}
          >
            {online ? label : t('topo.offline')}
          </text>
        </>
      )}
      <title>{t('topo.cpuTitle', { cpu: c.cpu, node: place?.node ?? '', core: place?.core ?? '', thread: place?.thread ?? '', n: c.nr_running, load: c.load, name: p.name })}</title>
    </g>
  );
}

/** A node drawn as one cell: the mean of its online CPUs' values, and how many run a thread. */
export function NodeCell(p: {
  node: number;
  cpus: CpuView[];
  r: Rect;
  mean: number;
  top: number;
  fill: (v: number) => string;
  open: boolean;
  /** Room for the mean only (the rest is in the title). */
  compact: boolean;
  marks: Marks;
  onToggle: (node: number) => void;
}) {
  const t = useT();
  const { r, mean } = p;
  const online = p.cpus.filter((c) => c.online);
  const busy = online.filter((c) => c.curr !== null).length;
  const dark = mean > p.top * 0.55;
  const meanText = mean.toFixed(mean < 10 ? 2 : 0);
  const avg = (f: (c: CpuView) => number) => (online.length ? online.reduce((s, c) => s + f(c), 0) / online.length : 0);
  return (
    <g
      className={classes('node-cell', p.cpus.map((c) => c.cpu), p.marks, [p.open ? 'open' : '', online.length ? '' : 'offline'])}
      data-testid="node-cell"
      data-node={p.node}
      data-value={mean}
      onClick={() => p.onToggle(p.node)}
    >
      <rect x={r.x} y={r.y} width={r.w} height={r.h} rx={3} fill={online.length ? (mean === 0 ? EMPTY : p.fill(mean)) : OFFLINE} />
      {p.compact ? (
        <text x={r.x + 4} y={r.y + 14} className={`cpu-num${dark ? ' dark' : ''}`}>
          {meanText}
        </text>
      ) : (
        <>
          <text x={r.x + 4} y={r.y + 12} className={`cpu-num${dark ? ' dark' : ''}`}>
            {t('topo.nodeMean', { v: meanText })}
          </text>
          <text x={r.x + 4} y={r.y + 26} className={`cpu-curr${dark ? ' dark' : ''}`}>
            {t('topo.nodeBusy', { busy, n: p.cpus.length })}
          </text>
        </>
      )}
      <title>{t('topo.nodeTitle', { node: p.node, n: p.cpus.length, busy, nr: avg((c) => c.nr_running).toFixed(2), load: Math.round(avg((c) => c.load)) })}</title>
    </g>
  );
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
