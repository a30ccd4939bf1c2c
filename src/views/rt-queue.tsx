// The real-time class's runqueue of one CPU (rt.c): the hierarchy it sits
// in, the priority array — one FIFO list per kernel prio 0–99 and the
// bitmap of the non-empty ones, whose first set bit the pick takes — and
// the bandwidth throttle that hands the rest of each period to the fair class.
import type { CpuView, RtRqView } from '../engine/types';
import { useT } from '../i18n/i18n';
import { fmtMs, taskColor } from './colors';
import { shownText } from './hidden-chars';

const LEVELS = 100;

export function RtRunqueueView(props: { cpu: CpuView; rt: RtRqView }) {
  const t = useT();
  const { cpu, rt } = props;
  const set = new Set(rt.bitmap);
  const levels = rt.bitmap.map((prio) => ({ prio, tasks: rt.queued.filter((q) => q.prio === prio) }));
  return (
    <section className="panel rt-panel" data-testid="rt-runqueue">
      <header className="panel-head">
        <h2>{t('rt.title', { cpu: cpu.cpu })}</h2>
        <span className="meta">
          {rt.bandwidth
            ? t('rt.meta', {
                used: fmtMs(rt.rt_time_ns),
                runtime: fmtMs(rt.rt_runtime_ns),
                period: fmtMs(rt.period_ns),
              })
            : t('rt.noBandwidth')}
        </span>
      </header>
      <p className="hint" data-testid="rt-hierarchy">
        {t('rt.hierarchy', { rt: rt.queued.length })}
      </p>
      {rt.throttled && (
        <p className="rt-flag rt-throttled" data-testid="rt-throttled">
          {t('rt.throttled')}
        </p>
      )}
      {rt.overloaded && <p className="rt-flag">{t('rt.overloaded')}</p>}
      <div
        className="rt-bitmap"
        role="img"
        data-testid="rt-bitmap"
        aria-label={t('rt.bitmapLabel', { cpu: cpu.cpu, n: rt.bitmap.length })}
        title={t('rt.bitmapHint')}
      >
        {Array.from({ length: LEVELS }, (_, prio) => (
          <span key={prio} className={set.has(prio) ? 'on' : undefined} />
        ))}
      </div>
      {levels.length === 0 ? (
        <p className="empty">{t('rt.empty')}</p>
      ) : (
        <ol className="rt-levels">
          {levels.map(({ prio, tasks }) => (
            <li key={prio} data-testid="rt-level">
              <span className="rt-prio">{t('rt.level', { prio, rtp: 99 - prio })}</span>
              {tasks.map((q) => (
                <span
                  key={q.pid}
                  className={`rt-task${q.pid === cpu.curr ? ' curr' : ''}`}
                  style={{ borderColor: taskColor(q.pid) }}
                  title={t('rt.taskTip', {
                    name: shownText(q.name),
                    policy: q.policy.toUpperCase(),
                    rtp: q.rt_priority,
                    prio: q.prio,
                  })}
                >
                  {shownText(q.name)} <small>{q.policy.toUpperCase()}</small>
                  {q.pid === cpu.curr && <small> · {t('rt.running')}</small>}
                  {q.pushable && <small> · {t('rt.pushable')}</small>}
                  {q.normal_prio !== q.prio && (
                    <small
                      data-testid="rt-inherited"
                      title={t('rt.inheritedTip', { prio: q.prio, own: q.normal_prio })}
                    >
                      {' '}
                      · {t('rt.inherited', { own: q.normal_prio })}
                    </small>
                  )}
                </span>
              ))}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
