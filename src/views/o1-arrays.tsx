// A CPU's runqueue under the O(1) scheduler (2.6.0–2.6.22): two prio_arrays
// of 140 FIFO lists, each with the bitmap of its non-empty lists. The pick is
// find-first-bit in the active bitmap; a task whose timeslice ran out goes to
// the expired array (unless interactive), and when the active array empties
// the two swap — the "array switch". The running task stays queued in its
// list, as in the kernel. Drawn as SVG (exports as shapes); names are text.
import type { CpuView, O1ArrayView, O1RqView, O1TaskView } from '../engine/types';
import { useT } from '../i18n/i18n';
import { fmtMs, taskColor } from './colors';
import { ExportButtons } from './export/export-buttons';
import { shownClip, shownText } from './hidden-chars';
import { Shown } from './shown';

const CELL_W = 5;
const LABEL_W = 70;
const STRIP_H = 16;
const ROW_H = 24;
const TASK_W = 96;
/** Tasks drawn per priority level; the rest are counted. */
const TASKS_SHOWN = 7;
const MAX_PRIO = 140;

export function O1RunqueueView(props: { cpu: CpuView; o1: O1RqView; currName: string | null }) {
  const t = useT();
  const { cpu, o1, currName } = props;
  return (
    <section className="panel rbtree-panel o1-panel" data-testid="o1-runqueue">
      <header className="panel-head">
        <h2>{t('rqpolicy.o1Title', { cpu: cpu.cpu })}</h2>
        <span className="meta">
          {t('rqpolicy.o1Meta', {
            nr: cpu.nr_running,
            active: o1.active.nr_active,
            expired: o1.expired.nr_active,
            switches: o1.switches,
          })}
          {o1.expired_timestamp_ns !== null && (
            <> · {t('rqpolicy.o1ExpiredSince', { ms: fmtMs(o1.expired_timestamp_ns) })}</>
          )}
        </span>
        <ExportButtons name="runqueue" />
      </header>
      <div className="curr-box">
        <span className="curr-label">curr</span>
        {currName === null ? (
          <span className="idle">{t('rq.idle')}</span>
        ) : (
          <span className="curr-name" style={{ borderColor: taskColor(cpu.curr ?? 0) }}>
            <Shown text={currName} />
          </span>
        )}
        <span className="hint">{t('rqpolicy.o1CurrHint')}</span>
      </div>
      <p className="hint o1-switch" data-testid="o1-switch">
        {t('rqpolicy.o1SwitchHint', { switches: o1.switches })}
      </p>
      <div className="tree-scroll" tabIndex={0} role="region" aria-label={t('rqpolicy.o1Title', { cpu: cpu.cpu })}>
        <PrioArray which="active" title={t('rqpolicy.o1Active')} array={o1.active} curr={cpu.curr} />
        <PrioArray which="expired" title={t('rqpolicy.o1Expired')} array={o1.expired} curr={cpu.curr} />
      </div>
    </section>
  );
}

function PrioArray(props: { which: 'active' | 'expired'; title: string; array: O1ArrayView; curr: number | null }) {
  const t = useT();
  const { array } = props;
  const set = new Set(array.bitmap);
  const width = LABEL_W + MAX_PRIO * CELL_W + 10;
  const listsTop = STRIP_H + 30;
  const height = listsTop + Math.max(1, array.levels.length) * ROW_H + 4;
  const first = array.bitmap.length > 0 ? Math.min(...array.bitmap) : null;
  return (
    <div className="o1-array">
      <h3>
        {props.title} · {t('rqpolicy.o1ArrayMeta', { n: array.nr_active, first: first ?? '—' })}
      </h3>
      <svg
        data-testid={`o1-array-${props.which}`}
        width={Math.max(width, LABEL_W + TASKS_SHOWN * TASK_W + 30)}
        height={height}
        role="img"
        aria-label={props.title}
      >
        <text x={0} y={12} className="o1-label">
          bitmap
        </text>
        {Array.from({ length: MAX_PRIO }, (_, prio) => (
          <rect
            key={prio}
            data-testid="o1-bit"
            data-prio={prio}
            data-set={set.has(prio) ? 1 : 0}
            x={LABEL_W + prio * CELL_W}
            y={0}
            width={CELL_W - 1}
            height={STRIP_H}
            className={
              set.has(prio)
                ? `o1-bit on ${props.which}${prio === first ? ' first' : ''}`
                : prio < 100
                  ? 'o1-bit rt'
                  : 'o1-bit'
            }
          >
            <title>{t(set.has(prio) ? 'rqpolicy.prioTip' : 'rqpolicy.prioEmptyTip', { prio })}</title>
          </rect>
        ))}
        {[0, 100, 120, 139].map((p) => (
          <text key={p} x={LABEL_W + p * CELL_W + CELL_W / 2} y={STRIP_H + 12} className="o1-tick">
            {p}
          </text>
        ))}
        <text x={LABEL_W + 50 * CELL_W} y={STRIP_H + 12} className="o1-tick">
          {t('rqpolicy.o1RtRange')}
        </text>
        {array.levels.length === 0 && (
          <text x={0} y={listsTop + 14} className="o1-empty">
            {t('rqpolicy.o1Empty')}
          </text>
        )}
        {array.levels.map((level, i) => {
          const y = listsTop + i * ROW_H;
          return (
            <g key={level.prio} data-testid="o1-level" data-prio={level.prio}>
              <text x={0} y={y + 15} className="o1-label">
                prio {level.prio}
              </text>
              {level.tasks.slice(0, TASKS_SHOWN).map((task, k) => (
                <O1Task key={task.pid} task={task} x={LABEL_W + k * TASK_W} y={y} running={task.pid === props.curr} />
              ))}
              {level.tasks.length > TASKS_SHOWN && (
                <text x={LABEL_W + TASKS_SHOWN * TASK_W + 4} y={y + 15} className="o1-label">
                  +{level.tasks.length - TASKS_SHOWN}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </div>
  );
}

function O1Task(props: { task: O1TaskView; x: number; y: number; running: boolean }) {
  const t = useT();
  const { task, x, y } = props;
  const name = shownClip(task.name, 12);
  return (
    <g data-testid="o1-task" data-pid={task.pid} transform={`translate(${x}, ${y})`}>
      <title>
        {t(props.running ? 'rqpolicy.taskTipRunning' : 'rqpolicy.taskTip', {
          name: shownText(task.name),
          pid: task.pid,
          prio: task.static_prio,
          sleep: fmtMs(task.sleep_avg_ns),
          left: fmtMs(task.time_slice_ns),
        })}
      </title>
      <rect
        width={TASK_W - 6}
        height={ROW_H - 4}
        rx={4}
        className={props.running ? 'o1-task running' : 'o1-task'}
        style={{ stroke: taskColor(task.pid) }}
      />
      <text x={6} y={14} className="o1-task-name">
        {name}
      </text>
    </g>
  );
}
