// A CPU's runqueue under Linux 6.12: EEVDF's queue as the kernel keeps it.
// Each entity is a bar along an axis of vruntime measured from the queue's
// zero-lag point V (avg_vruntime): from its vruntime to its virtual
// deadline. Left of V an entity is owed service (eligible), right of it it
// is ahead (not eligible): solid bars with ✓ against hatched bars with ✗, so
// the difference is not carried by colour alone. The running entity (kept
// out of the tree, still counted in V) is drawn first with ▶, the next pick
// is marked ★. Group queues follow, drawn smaller. SVG (exports as shapes);
// names are text. The layout is eevdf-layout.ts.
import { useRef } from 'react';
import type { CpuView, EevdfEntityView, EevdfRqView } from '../engine/types';
import { useT } from '../i18n/i18n';
import { fmtMs, taskColor } from './colors';
import { ExportButtons } from './export/export-buttons';
import { useWidth } from './use-width';
import { eevdfLayout, fmtSignedMs, pickReason, pickedEntity, tickLabel, type EevdfRow } from './eevdf-layout';
import { Shown } from './shown';
import { shownClip, shownText } from './hidden-chars';

const ROW_H = 24;
const HEAD_H = 34;
const LABEL_W = 170;
/** The figures' columns at the right: lag, deadline − V, slice. */
const COL_W = [70, 86, 62];
const RIGHT_W = COL_W.reduce((a, b) => a + b, 0) + 12;
const GROUP_GREY = '#9aa5b1';

function colourOf(e: EevdfEntityView): string {
  return e.group === null ? taskColor(e.pid) : GROUP_GREY;
}

export function EevdfRunqueueView(props: { cpu: CpuView; queues: EevdfRqView[]; currName: string | null }) {
  const t = useT();
  const { cpu, queues, currName } = props;
  const root = queues[0];
  const groups = queues.slice(1);
  const box = useRef<HTMLDivElement>(null);
  const width = Math.max(560, useWidth(box, 900));
  // The running task's own entity: the root's curr is a group entity when the task runs inside a group.
  const curr = runningTask(queues);
  return (
    <section className="panel rbtree-panel eevdf-panel" data-testid="eevdf-runqueue">
      <header className="panel-head">
        <h2>{t('eevdf.title', { cpu: cpu.cpu })}</h2>
        <span className="meta" data-testid="eevdf-meta">
          {t('eevdf.meta', { nr: root.nr_running, load: root.load })} ·{' '}
          <b data-testid="eevdf-avg">{t('eevdf.avg', { v: fmtMs(root.avg_vruntime) })}</b> ·{' '}
          {t('eevdf.zero', { v: fmtMs(root.zero_vruntime) })} ·{' '}
          {root.min_vruntime === null ? t('eevdf.minNone') : t('eevdf.min', { v: fmtMs(root.min_vruntime) })}
        </span>
        <ExportButtons name="runqueue" />
      </header>
      <div className="curr-box" data-testid="eevdf-curr">
        <span className="curr-label">curr</span>
        {currName === null ? (
          <span className="idle">{t('rq.idle')}</span>
        ) : (
          <>
            <span className="curr-name" style={{ borderColor: taskColor(cpu.curr ?? 0) }}>
              ▶ <Shown text={currName} />
            </span>
            {curr && (
              <span className="meta" data-testid="eevdf-curr-slice">
                {t('eevdf.slice', { ms: fmtMs(curr.slice) })}
                {curr.protected && <> · {t('eevdf.protected')}</>}
                {!curr.on_rq && <> · {t('eevdf.leaving')}</>}
              </span>
            )}
          </>
        )}
        <span className="hint">{t('eevdf.currHint')}</span>
      </div>
      <PickLine q={root} />
      <div className="tree-scroll" ref={box} tabIndex={0} role="region" aria-label={t('eevdf.title', { cpu: cpu.cpu })}>
        <QueueChart
          q={root}
          width={width}
          testId="eevdf-chart"
          label={t('eevdf.label', { cpu: cpu.cpu, n: root.nr_running })}
        />
      </div>
      {groups.length > 0 && (
        <div className="group-trees">
          <h3>{t('eevdf.groupsTitle')}</h3>
          {groups.map((g) => (
            <div className="eevdf-group" key={g.tg} data-testid="eevdf-group">
              <div className="meta">
                <b>
                  <Shown text={g.name} />
                </b>{' '}
                ·{' '}
                {t(g.nr_running === 1 ? 'eevdf.groupMeta1' : 'eevdf.groupMeta', {
                  n: g.nr_running,
                  v: fmtMs(g.avg_vruntime),
                })}
                {g.curr && (
                  <>
                    {' '}
                    · curr <Shown text={g.curr.name} />
                  </>
                )}
              </div>
              <PickLine q={g} />
              <QueueChart
                q={g}
                width={width}
                testId="eevdf-group-chart"
                label={t('eevdf.groupLabel', { name: shownText(g.name) })}
              />
            </div>
          ))}
        </div>
      )}
      <Legend />
    </section>
  );
}

/** The deepest queue's running entity that is a task (null when the CPU idles or runs another class). */
export function runningTask(queues: EevdfRqView[]): EevdfEntityView | null {
  for (const q of queues) if (q.curr && q.curr.group === null) return q.curr;
  return null;
}

function PickLine({ q }: { q: EevdfRqView }) {
  const t = useT();
  const reason = pickReason(q);
  const e = pickedEntity(q);
  return (
    <p className="hint eevdf-pick" data-testid="eevdf-pick" data-reason={reason}>
      {t(`eevdf.pick.${reason}`, { name: e ? shownText(e.name) : '?' })}
    </p>
  );
}

function QueueChart(props: { q: EevdfRqView; width: number; testId: string; label: string }) {
  const t = useT();
  const { q, width } = props;
  const left = LABEL_W;
  const right = width - RIGHT_W;
  const L = eevdfLayout(q, left + 8, right - 8);
  const height = HEAD_H + Math.max(1, L.rows.length) * ROW_H + 22 + (L.hidden > 0 ? 16 : 0);
  const bottom = HEAD_H + L.rows.length * ROW_H;
  const colX = (i: number) => right + 8 + COL_W.slice(0, i + 1).reduce((a, b) => a + b, 0);
  const hatch = `eevdf-hatch-${props.testId}`;
  return (
    <svg
      data-testid={props.testId}
      className="eevdf-chart"
      width={width}
      height={height}
      role="img"
      aria-label={props.label}
    >
      <defs>
        <pattern id={hatch} patternUnits="userSpaceOnUse" width={6} height={6} patternTransform="rotate(45)">
          <rect width={6} height={6} fill="#fff" />
          <line x1={0} y1={0} x2={0} y2={6} stroke="#52606d" strokeWidth={2.5} />
        </pattern>
      </defs>
      {/* The eligible side of V, shaded. */}
      <rect
        x={L.left - 8}
        y={HEAD_H - 4}
        width={Math.max(0, L.vX - L.left + 8)}
        height={bottom - HEAD_H + 8}
        className="eevdf-eligible-side"
      />
      <text x={L.vX - 6} y={12} className="eevdf-side" textAnchor="end">
        {t('eevdf.eligibleSide')}
      </text>
      <text x={L.vX + 6} y={12} className="eevdf-side" textAnchor="start">
        {t('eevdf.ineligibleSide')}
      </text>
      {/* Column heads. */}
      <text x={4} y={HEAD_H - 8} className="eevdf-col">
        {t('eevdf.colEntity')}
      </text>
      {['eevdf.colLag', 'eevdf.colDeadline', 'eevdf.colSlice'].map((k, i) => (
        <text key={k} x={colX(i)} y={HEAD_H - 8} className="eevdf-col" textAnchor="end">
          {t(k)}
        </text>
      ))}
      {L.rows.map((row, i) => (
        <Row key={row.e.pid} row={row} y={HEAD_H + i * ROW_H} width={width} colX={colX} hatch={hatch} />
      ))}
      {L.rows.length === 0 && (
        <text x={L.left} y={HEAD_H + 15} className="eevdf-empty">
          {t('eevdf.empty')}
        </text>
      )}
      {/* The zero-lag point V across every row, and the least waiting vruntime on the axis. */}
      <line x1={L.vX} x2={L.vX} y1={HEAD_H - 4} y2={bottom + 4} className="eevdf-v" data-testid="eevdf-v" />
      <text x={L.vX} y={HEAD_H - 8} className="eevdf-v-label" textAnchor="middle">
        {t('eevdf.vLine')}
      </text>
      <line x1={L.left - 8} x2={L.right + 8} y1={bottom + 4} y2={bottom + 4} className="eevdf-axis" />
      {L.ticks.map((tk) => (
        <g key={tk.ms}>
          <line x1={tk.x} x2={tk.x} y1={bottom + 4} y2={bottom + 8} className="eevdf-axis" />
          <text x={tk.x} y={bottom + 18} className="eevdf-tick" textAnchor="middle">
            {tickLabel(tk.ms)}
          </text>
        </g>
      ))}
      <text x={L.left - 12} y={bottom + 18} className="eevdf-tick" textAnchor="end">
        {t('eevdf.axis')}
      </text>
      {L.minX !== null && (
        <g data-testid="eevdf-min">
          <path d={`M${L.minX},${bottom + 4} l-4,-6 h8 z`} className="eevdf-min" />
          <title>{t('eevdf.min', { v: q.min_vruntime === null ? '' : fmtMs(q.min_vruntime) })}</title>
        </g>
      )}
      {L.hidden > 0 && (
        <text x={4} y={height - 4} className="eevdf-empty">
          {t('eevdf.more', { n: L.hidden })}
        </text>
      )}
    </svg>
  );
}

function Row(props: { row: EevdfRow; y: number; width: number; colX: (i: number) => number; hatch: string }) {
  const t = useT();
  const { row, y, colX } = props;
  const { e } = row;
  const colour = colourOf(e);
  const name = shownClip(e.name, 16);
  const marks = `${row.running ? '▶' : ''}${row.pick ? '★' : ''}`;
  const mid = y + ROW_H / 2;
  const cls = ['eevdf-row', row.running ? 'running' : '', row.pick ? 'pick' : ''].filter(Boolean).join(' ');
  return (
    <g
      className={cls}
      data-testid="eevdf-entity"
      data-pid={e.pid}
      data-eligible={e.eligible ? 1 : 0}
      data-running={row.running ? 1 : 0}
      data-pick={row.pick ? 1 : 0}
    >
      <title>
        {t('eevdf.rowTip', {
          name: shownText(e.name),
          v: fmtMs(e.vruntime),
          d: fmtMs(e.deadline),
          lag: fmtSignedMs(e.vlag),
          w: e.weight,
          slice: fmtMs(e.slice),
          eligible: t(e.eligible ? 'eevdf.eligible' : 'eevdf.notEligible'),
        })}
      </title>
      {(row.running || row.pick) && (
        <rect x={0} y={y + 1} width={props.width} height={ROW_H - 2} className="eevdf-band" />
      )}
      <text x={4} y={mid + 4} className="eevdf-mark">
        {e.eligible ? '✓' : '✗'}
      </text>
      <text x={20} y={mid + 4} className="eevdf-name">
        {marks && <tspan className="eevdf-marks">{marks} </tspan>}
        {name}
        {e.group !== null && <tspan className="eevdf-meta"> {t('eevdf.group')}</tspan>}
        {e.sched_delayed && <tspan className="eevdf-meta"> {t('eevdf.delayed')}</tspan>}
      </text>
      <rect
        x={row.x0}
        y={y + 5}
        width={Math.max(2, row.x1 - row.x0)}
        height={ROW_H - 10}
        rx={2}
        className={e.eligible ? 'eevdf-bar eligible' : 'eevdf-bar ineligible'}
        style={e.eligible ? { fill: colour, stroke: colour } : { fill: `url(#${props.hatch})`, stroke: colour }}
      />
      <circle
        cx={row.x0 + (row.fromV <= row.deadlineFromV ? 0 : row.x1 - row.x0)}
        cy={mid}
        r={4}
        className="eevdf-v-dot"
        style={{ stroke: colour }}
      />
      <line
        x1={row.fromV <= row.deadlineFromV ? row.x1 : row.x0}
        x2={row.fromV <= row.deadlineFromV ? row.x1 : row.x0}
        y1={y + 2}
        y2={y + ROW_H - 2}
        className="eevdf-deadline"
      />
      <text
        x={colX(0)}
        y={mid + 4}
        className={e.vlag >= 0 ? 'eevdf-num lag-pos' : 'eevdf-num lag-neg'}
        textAnchor="end"
        data-testid="eevdf-lag"
      >
        {fmtSignedMs(e.vlag)}
      </text>
      <text x={colX(1)} y={mid + 4} className="eevdf-num" textAnchor="end" data-testid="eevdf-deadline">
        {fmtSignedMs(row.deadlineFromV)}
      </text>
      <text x={colX(2)} y={mid + 4} className="eevdf-num" textAnchor="end">
        {fmtMs(e.slice)}
      </text>
    </g>
  );
}

function Legend() {
  const t = useT();
  const keys = ['bar', 'eligible', 'ineligible', 'v', 'curr', 'pick', 'lag'];
  return (
    <div className="eevdf-legend" data-testid="eevdf-legend">
      <b>{t('eevdf.legendTitle')}</b>
      <ul>
        {keys.map((k) => (
          <li key={k}>{t(`eevdf.legend.${k}`)}</li>
        ))}
      </ul>
    </div>
  );
}
