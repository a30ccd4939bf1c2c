// The live cells of the topology drawing: a CPU (its runqueue length or load
// as colour, number and current thread), and, on machines too large to draw
// CPU by CPU, a node standing for its CPUs (their mean, how many are busy).
// Names are text nodes.
import * as d3 from 'd3';
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

/** The marks of a cell in words, for its accessible name (", considered, chosen"). */
function markWords(cpus: number[], m: Marks, t: (k: string) => string): string {
  const any = (f: (c: number) => boolean) => cpus.some(f);
  return [
    any((c) => m.considered.has(c)) ? t('a11y.mark.considered') : '',
    any((c) => m.busiest.has(c)) ? t('a11y.mark.busiest') : '',
    any((c) => m.chosen === c || m.actor === c) ? t('a11y.mark.chosen') : '',
    any((c) => m.selected === c) ? t('a11y.mark.selected') : '',
    any((c) => m.marked?.includes(c) ?? false) ? t('a11y.mark.lesson') : '',
  ].join('');
}

/** Whether text on `fill` reads better white than dark (WCAG contrast of each against the fill). */
export function darkFill(fill: string): boolean {
  const c = d3.rgb(fill);
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  // #1f2933, the dark text colour, has luminance 0.022.
  return 1.05 / (l + 0.05) > (l + 0.05) / 0.072;
}

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
  /** The drawing's one Tab stop (arrow keys move between cells: roving.ts). */
  tabStop: boolean;
}) {
  const t = useT();
  const { c, r, v, size } = p;
  const online = c.online;
  const fill = online ? (v === 0 ? EMPTY : p.fill(v)) : OFFLINE;
  // White text only where the fill is dark enough for it to read (WCAG AA).
  const dark = darkFill(fill);
  const big = size === 'big';
  const place = p.topo.cpus[c.cpu];
  const label = clip(p.name, big ? 15 : 9);
  // Tiny cells: "5·2", a load as "5·1.5k".
  const shown =
    size === 'tiny'
      ? `${c.cpu}${v > 0 ? `·${v >= 1000 ? d3.format('.2~s')(v) : p.showValue(v)}` : ''}`
      : `${c.cpu}${v > 0 ? ` · ${p.showValue(v)}` : ''} · ${online ? label : t('topo.offline')}`;
  return (
    <g
      className={classes('cpu-cell', [c.cpu], p.marks, [online ? '' : 'offline'])}
      data-testid="cpu-cell"
      data-cpu={c.cpu}
      data-value={v}
      onClick={() => p.onSelect(c.cpu)}
      role="button"
      tabIndex={p.tabStop ? 0 : -1}
      // The name starts with the cell's visible text, in its order (what a speech-input user says), then the numbers.
      aria-label={t('a11y.cpu', {
        shown,
        node: place?.node ?? '',
        n: c.nr_running,
        load: c.load,
        name: online ? p.name : t('topo.offline'),
        marks: markWords([c.cpu], p.marks, t),
      })}
    >
      <rect x={r.x} y={r.y} width={r.w} height={r.h} rx={size === 'tiny' ? 2 : 3} fill={fill} />
      {size === 'tiny' ? (
        // The CPU number and its value (so the scale does not rest on colour alone), squeezed if wider than the cell; the rest is in the title.
        <text
          x={r.x + 2}
          y={r.y + 11}
          className={`cpu-num tiny${dark ? ' dark' : ''}`}
          {...(shown.length * 4.6 > r.w - 3 ? { textLength: r.w - 3, lengthAdjust: 'spacingAndGlyphs' } : {})}
        >
          {shown}
        </text>
      ) : (
        <>
          <text x={r.x + 3} y={r.y + (big ? 12 : 10)} className={`cpu-num${dark ? ' dark' : ''}${big ? ' big' : ''}`}>
            {c.cpu}
            {v > 0 && ` · ${p.showValue(v)}`}
            {/* A space the drawing collapses, so the cell's text reads "1 · 2 make", not "1 · 2make". */}{' '}
          </text>
          <text
            x={r.x + 3}
            y={r.y + (big ? 31 : 23)}
            className={`cpu-curr${dark ? ' dark' : ''}${c.curr === null ? ' none' : ''}${big ? ' big' : ''}`}
            // A label wider than the cell is squeezed to fit rather than cut.
            {...(label.length * (big ? 7.6 : 5.8) > r.w - 6
              ? { textLength: r.w - 6, lengthAdjust: 'spacingAndGlyphs' }
              : {})}
          >
            {online ? label : t('topo.offline')}
          </text>
        </>
      )}
      <title>
        {t('topo.cpuTitle', {
          cpu: c.cpu,
          node: place?.node ?? '',
          core: place?.core ?? '',
          thread: place?.thread ?? '',
          n: c.nr_running,
          load: c.load,
          name: p.name,
        })}
      </title>
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
  tabStop: boolean;
}) {
  const t = useT();
  const { r, mean } = p;
  const online = p.cpus.filter((c) => c.online);
  const busy = online.filter((c) => c.curr !== null).length;
  const fill = online.length ? (mean === 0 ? EMPTY : p.fill(mean)) : OFFLINE;
  const dark = darkFill(fill);
  const meanText = mean.toFixed(mean < 10 ? 2 : 0);
  const avg = (f: (c: CpuView) => number) => (online.length ? online.reduce((s, c) => s + f(c), 0) / online.length : 0);
  return (
    <g
      className={classes(
        'node-cell',
        p.cpus.map((c) => c.cpu),
        p.marks,
        [p.open ? 'open' : '', online.length ? '' : 'offline'],
      )}
      data-testid="node-cell"
      data-node={p.node}
      data-value={mean}
      onClick={() => p.onToggle(p.node)}
      role="button"
      tabIndex={p.tabStop ? 0 : -1}
      aria-expanded={p.open}
      aria-label={t('a11y.node', {
        node: p.node,
        shown: p.compact
          ? meanText
          : `${t('topo.nodeMean', { v: meanText })}, ${t('topo.nodeBusy', { busy, n: p.cpus.length })}`,
        marks: markWords(
          p.cpus.map((c) => c.cpu),
          p.marks,
          t,
        ),
      })}
    >
      <rect x={r.x} y={r.y} width={r.w} height={r.h} rx={3} fill={fill} />
      {p.compact ? (
        <text x={r.x + 4} y={r.y + 14} className={`cpu-num${dark ? ' dark' : ''}`}>
          {meanText}
        </text>
      ) : (
        <>
          <text x={r.x + 4} y={r.y + 12} className={`cpu-num${dark ? ' dark' : ''}`}>
            {t('topo.nodeMean', { v: meanText })}{' '}
          </text>
          <text x={r.x + 4} y={r.y + 26} className={`cpu-curr${dark ? ' dark' : ''}`}>
            {t('topo.nodeBusy', { busy, n: p.cpus.length })}
          </text>
        </>
      )}
      <title>
        {t('topo.nodeTitle', {
          node: p.node,
          n: p.cpus.length,
          busy,
          nr: avg((c) => c.nr_running).toFixed(2),
          load: Math.round(avg((c) => c.load)),
        })}
      </title>
    </g>
  );
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
